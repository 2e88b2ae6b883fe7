import APDU

/// Why a DESFire answer could not be used. A closed set, each with a message and a hint.
public enum DESFireError: UserFacingError, Equatable {
    /// The card answered with a `91 xx` error status.
    case status(DESFireStatus, command: DESFireInstruction)
    /// The answer did not end in `91 xx`: not a DESFire card (a bank card answers 6D 00 or 6E 00).
    case notDESFire(StatusWord, command: DESFireInstruction)
    /// More than the allowed number of `91 AF` frames: a card that never ends its answer.
    case tooManyFrames(Int, command: DESFireInstruction)
    /// A structure (version, file settings, IDs, a value) that is too short, too long or malformed.
    case malformed(what: String, reason: String)

    public var message: String {
        switch self {
        case .status(let s, let c): return "\(c) answered \(s)"
        case .notDESFire(let sw, let c): return "\(c) answered \(sw), not a DESFire status (91 xx): not a DESFire card"
        case .tooManyFrames(let n, let c): return "\(c) sent more than \(n) frames (91 AF): answer abandoned"
        case .malformed(let what, let reason): return "DESFire \(what): \(reason)"
        }
    }

    public var hint: String? {
        switch self {
        case .status(let s, _) where s.needsKey: return "the file or list needs a key: cardscan reads only what is free to read"
        case .status: return "a trace (--trace) shows the exchange"
        case .notDESFire: return "the card may be another ISO 14443-4 card: try `cardscan` without a DESFire profile"
        case .tooManyFrames: return "a real card ends its answer in a few frames; this looks like a faulty card or reader"
        case .malformed: return "the card's answer does not have the layout of the MIFARE DESFire data sheet"
        }
    }
}
