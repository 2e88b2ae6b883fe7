/// What a dump does not say and the user may: the ATR and type of an ISO 7816 card, a
/// Classic card's size or UID. Defaults as docs/dump-formats.md says.
public struct ImportOptions: Sendable {
    /// The ATR to give an ISO 7816 card (no dump keeps one); default `3B 80 80 01 01`, the
    /// PC/SC part 3 ATR of an ISO 14443-4 card with no historical bytes.
    public var atr: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]
    /// An ISO 7816 card is ISO 14443 type B.
    public var typeB = false
    /// A Classic card's size when the dump cannot tell (MCT cannot tell a Mini from a 1K).
    public var classicKind: ClassicCardImage.Kind?
    /// A Classic card's UID when the dump has no block 0.
    public var uid: [UInt8]?

    /// The defaults.
    public init() {}
}

/// What an import found: one image per card, and what it had to guess or leave out.
public struct ImportResult: Sendable {
    /// The cards, in the file's order.
    public var images: [CardImage] = []
    /// Each guess and each part left out, one sentence each.
    public var warnings: [String] = []
}
