import APDU

/// The card on the reader is not the kind a command explores (`cardscan ultralight`, `classic`).
struct NotThisKind: UserFacingError {
    /// What the command reads: "a MIFARE Classic card".
    let wanted: String
    /// The card that is there, as detection describes it.
    let card: String
    let reader: String
    var message: String { "the card on \(reader) is not \(wanted) (\(card))" }
    var hint: String? {
        "`cardscan` reads a card by detection; `cardscan dump`, `desfire`, `felica`, `ultralight` and `classic` explore each kind"
    }
}
