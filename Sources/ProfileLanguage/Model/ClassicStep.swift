/// A step of a MIFARE Classic profile (`technology: classic`).
public enum ClassicStep: Sendable, Equatable {
    /// `read-sector: { sector, key }`: the sector's data blocks (all but its trailer, 16 bytes
    /// each), opened with the user's keys for the card, then the well-known keys; `key` says
    /// which key type to try (`a`, `b`, or nil: A, then B). `last`: the sectors from `sector`
    /// to `last` read into one answer, their data blocks joined in order (a card whose records
    /// run over many sectors); one that no key opens refuses the step.
    case readSector(sector: Int, keyB: Bool?, last: Int? = nil)
    /// `read-sector: { sector: { from, offset, mask, sectors }, key }`: the sector a byte of an
    /// earlier answer names (a card that writes two banks in turn and flags the one in use).
    case readChosenSector(SectorChoice, keyB: Bool?)
    /// `ndef-record: { type }`: the payload of the first record of that type in the card's NDEF
    /// message (NFC Forum MIFARE Classic mapping: the directory in sector 0, the NDEF sectors).
    case ndefRecord(type: [UInt8])

    /// The bytes the answer has: 3 blocks (15 in sectors 32–39 of a 4K), 16 bytes each; a
    /// record's payload has no fixed length.
    var declaredLength: Int? {
        switch self {
        case .readSector(let sector, _, let last): return (sector...(last ?? sector)).reduce(0) { $0 + Self.dataLength($1) }
        case .readChosenSector(let choice, _):
            let lengths = Set(choice.sectors.values.map(Self.dataLength))
            return lengths.count == 1 ? lengths.first : nil
        case .ndefRecord: return nil
        }
    }

    static func dataLength(_ sector: Int) -> Int { (sector < 32 ? 3 : 15) * 16 }
}

/// Which sector a `read-sector` reads, from a byte of an earlier answer: the byte at `offset`
/// of `answer`, ANDed with `mask`, is looked up in `sectors`.
public struct SectorChoice: Sendable, Equatable, CustomStringConvertible {
    /// `from`: the answer holding the byte.
    public var answer: String
    /// `offset`: the byte's place in the answer.
    public var offset: Int
    /// `mask`: ANDed with the byte (FF: all of it).
    public var mask: UInt8
    /// `sectors`: the sector each value (after the mask) names.
    public var sectors: [Int: Int]

    /// The byte at `offset` of `answer`, ANDed with `mask`, names a sector of `sectors`.
    public init(answer: String, offset: Int, mask: UInt8, sectors: [Int: Int]) {
        self.answer = answer
        self.offset = offset
        self.mask = mask
        self.sectors = sectors
    }

    /// The sector the answers name: nil when the answer is absent or too short (the reason
    /// given), or the byte names none.
    public func sector(in answers: Answers) -> Result<Int, Absence> {
        guard let data = answers.data(answer), offset < data.count else {
            return .failure(.missingInput("the sector is named by byte \(offset) of '\(answer)', which the card did not give"))
        }
        let value = Int(data[offset] & mask)
        guard let sector = sectors[value] else {
            let hex = (value < 16 ? "0" : "") + String(value, radix: 16, uppercase: true)
            return .failure(.missingInput("byte \(offset) of '\(answer)' is \(hex) with the mask: no sector is listed for it"))
        }
        return .success(sector)
    }

    public var description: String { "the sector byte \(offset) of '\(answer)' names" }
}
