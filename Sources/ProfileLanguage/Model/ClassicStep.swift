/// A step of a MIFARE Classic profile (`technology: classic`).
public enum ClassicStep: Sendable, Equatable {
    /// `read-sector: { sector, key }`: the sector's data blocks (all but its trailer, 16 bytes
    /// each), opened with the user's keys for the card, then the well-known keys; `key` says
    /// which key type to try (`a`, `b`, or nil: A, then B).
    case readSector(sector: Int, keyB: Bool?)

    /// The bytes the answer has: 3 blocks (15 in sectors 32–39 of a 4K), 16 bytes each.
    var declaredLength: Int? {
        switch self {
        case .readSector(let sector, _): return (sector < 32 ? 3 : 15) * 16
        }
    }
}
