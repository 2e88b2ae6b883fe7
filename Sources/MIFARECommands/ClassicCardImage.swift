import APDU

/// A MIFARE Classic card as data (`technology: classic`, docs/dump-formats.md §3.1): its
/// anticollision answers, its size, and each sector's blocks as READ returns them (key A reads
/// as zeros in a trailer) with the keys that open it kept apart, or `unreadable` when no key
/// opened it. A byte nobody knows is `..`, as in transcripts.
public struct ClassicCardImage: Codable, Equatable, Sendable {
    /// Always `classic`.
    public var technology: String
    /// Free text: where the image came from.
    public var note: String?
    /// The UID: 4, 7 or 10 bytes.
    public var uid: String
    /// ATQA (SENS_RES), most significant byte first (`00 04`).
    public var atqa: String
    /// SAK (SEL_RES), one byte.
    public var sak: String
    /// `mini`, `1k`, `2k` or `4k` (``Kind``).
    public var type: String
    /// Every sector of the type, sector 0 first.
    public var sectors: [Sector]

    /// One sector: its blocks and the keys that open it, or `unreadable`.
    public struct Sector: Codable, Equatable, Sendable {
        /// Key A, 6 bytes, when known.
        public var keyA: String?
        /// Key B, 6 bytes, when known.
        public var keyB: String?
        /// The blocks (4, or 16 from sector 32), 16 bytes each, `..` for an unknown byte.
        public var blocks: [String]?
        /// True when no key opened the sector (then there are no blocks).
        public var unreadable: Bool?

        /// A sector read with `blocks`, opened by the keys given.
        public init(keyA: [UInt8]? = nil, keyB: [UInt8]? = nil, blocks: [[UInt8?]]) {
            self.keyA = keyA?.hexString
            self.keyB = keyB?.hexString
            self.blocks = blocks.map(patternText)
        }

        /// A sector no key opened.
        public static let locked = Sector(unreadable: true)

        private init(unreadable: Bool) {
            self.unreadable = unreadable
        }

        enum CodingKeys: String, CodingKey {
            case keyA = "key-a"
            case keyB = "key-b"
            case blocks, unreadable
        }
    }

    /// The card's size: how many sectors of how many blocks.
    public enum Kind: String, Sendable, CaseIterable {
        /// MIFARE Mini: 5 sectors of 4 blocks (320 bytes).
        case mini
        /// MIFARE Classic 1K: 16 sectors of 4 blocks (1024 bytes).
        case k1 = "1k"
        /// MIFARE Classic 2K (or Plus 2K in SL1): 32 sectors of 4 blocks (2048 bytes).
        case k2 = "2k"
        /// MIFARE Classic 4K: 32 sectors of 4 blocks, then 8 of 16 (4096 bytes).
        case k4 = "4k"

        /// How many sectors the card has.
        public var sectorCount: Int {
            switch self {
            case .mini: return 5
            case .k1: return 16
            case .k2: return 32
            case .k4: return 40
            }
        }

        /// How many blocks: 4 a sector, 16 in sectors 32–39 of a 4K.
        public var blockCount: Int { (0..<sectorCount).map(Self.blocks(inSector:)).reduce(0, +) }

        /// How many blocks sector `n` has.
        public static func blocks(inSector n: Int) -> Int { n < 32 ? 4 : 16 }

        /// The absolute number of sector `n`'s first block.
        public static func firstBlock(ofSector n: Int) -> Int { n < 32 ? n * 4 : 128 + (n - 32) * 16 }

        /// The sector and the block in it of absolute block number `block`.
        public static func place(ofBlock block: Int) -> (sector: Int, index: Int) {
            block < 128 ? (block / 4, block % 4) : (32 + (block - 128) / 16, (block - 128) % 16)
        }

        /// The size with `count` blocks (20, 64, 128, 256), if any.
        public init?(blockCount count: Int) {
            guard let k = Self.allCases.first(where: { $0.blockCount == count }) else { return nil }
            self = k
        }
    }

    /// An image of `uid` with `sectors` (each nil when no key opened it).
    public init(note: String? = nil, uid: [UInt8], atqa: [UInt8], sak: UInt8, kind: Kind, sectors: [Sector]) {
        technology = "classic"
        self.note = note
        self.uid = uid.hexString
        self.atqa = atqa.hexString
        self.sak = [sak].hexString
        type = kind.rawValue
        self.sectors = sectors
    }

    /// What the image holds, checked: every sector of its size, blocks of 16 bytes.
    public struct Contents: Sendable, Equatable {
        /// The UID.
        public var uid: [UInt8]
        /// ATQA, most significant byte first.
        public var atqa: [UInt8]
        /// SAK.
        public var sak: UInt8
        /// The size.
        public var kind: Kind
        /// Each sector: its keys and blocks, or nil when unreadable.
        public var sectors: [SectorContents?]
    }

    /// A readable sector's keys and blocks (nil bytes unknown).
    public struct SectorContents: Sendable, Equatable {
        /// Key A, when known.
        public var keyA: [UInt8]?
        /// Key B, when known.
        public var keyB: [UInt8]?
        /// The blocks, the trailer last.
        public var blocks: [[UInt8?]]
    }

    /// The image's contents, or an error naming the first thing wrong by its place
    /// (`sectors[3].blocks[1]`).
    public func contents() throws(ImageError) -> Contents {
        guard technology == "classic" else { throw ImageError("technology: '\(technology)' is not classic") }
        let uidBytes = try imageHex(uid, "uid")
        guard [4, 7, 10].contains(uidBytes.count) else { throw ImageError("uid: \(uidBytes.count) bytes; a UID is 4, 7 or 10") }
        let atqaBytes = try imageHex(atqa, "atqa")
        guard atqaBytes.count == 2 else { throw ImageError("atqa: \(atqaBytes.count) bytes; ATQA is 2") }
        let sakBytes = try imageHex(sak, "sak")
        guard sakBytes.count == 1 else { throw ImageError("sak: \(sakBytes.count) bytes; SAK is 1") }
        guard let kind = Kind(rawValue: type) else { throw ImageError("type: '\(type)' is not mini, 1k, 2k or 4k") }
        guard sectors.count == kind.sectorCount else {
            throw ImageError("sectors: \(sectors.count); a \(kind.rawValue) card has \(kind.sectorCount)")
        }
        var out: [SectorContents?] = []
        for (n, s) in sectors.enumerated() {
            let at = "sectors[\(n)]"
            if s.unreadable == true {
                guard s.blocks == nil else { throw ImageError("\(at): an unreadable sector has no blocks") }
                out.append(nil)
                continue
            }
            guard let blocks = s.blocks else { throw ImageError("\(at): give its blocks, or \"unreadable\": true") }
            guard blocks.count == Kind.blocks(inSector: n) else {
                throw ImageError("\(at).blocks: \(blocks.count); sector \(n) has \(Kind.blocks(inSector: n))")
            }
            var parsed: [[UInt8?]] = []
            for (i, b) in blocks.enumerated() {
                let p = try imagePattern(b, "\(at).blocks[\(i)]")
                guard p.count == 16 else { throw ImageError("\(at).blocks[\(i)]: \(p.count) bytes; a block is 16") }
                parsed.append(p)
            }
            let keyA = try s.keyA.map { k throws(ImageError) in try imageKey(k, "\(at).key-a") }
            let keyB = try s.keyB.map { k throws(ImageError) in try imageKey(k, "\(at).key-b") }
            out.append(SectorContents(keyA: keyA, keyB: keyB, blocks: parsed))
        }
        return Contents(uid: uidBytes, atqa: atqaBytes, sak: sakBytes[0], kind: kind, sectors: out)
    }
}

/// A Classic card's manufacturer block (block 0, NXP's layout): the UID, then for a 4-byte UID
/// the BCC, SAK and ATQA least significant byte first; for a 7-byte UID, SAK and ATQA after it.
public enum ManufacturerBlock {
    /// UID, ATQA (most significant byte first) and SAK read from `block`, when it has NXP's
    /// layout (a 4-byte UID whose BCC matches, else 7 bytes); nil otherwise.
    public static func identity(_ block: [UInt8?]) -> (uid: [UInt8], atqa: [UInt8], sak: UInt8)? {
        let b = block.compactMap { $0 }
        guard b.count == 16, block.count == 16 else { return nil }
        if b[0] ^ b[1] ^ b[2] ^ b[3] == b[4] {
            return (Array(b[0..<4]), [b[7], b[6]], b[5])
        }
        guard b[0] != 0x88 else { return nil }  // a cascade tag starts no 7-byte UID in block 0
        return (Array(b[0..<7]), [b[9], b[8]], b[7])
    }
}

/// Why a card image was refused, naming the place (`sectors[3].blocks[1]: …`).
public struct ImageError: UserFacingError, Equatable {
    /// The place and what is wrong.
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    /// The place and what is wrong.
    public var message: String { reason }
    /// Where the image formats are described.
    public var hint: String? { "see docs/dump-formats.md for the card image formats" }
}

func imageHex(_ text: String, _ at: String) throws(ImageError) -> [UInt8] {
    do { return try Hex.parse(text) } catch { throw ImageError("\(at): \(error.message)") }
}

func imagePattern(_ text: String, _ at: String) throws(ImageError) -> [UInt8?] {
    do { return try Transcript.parsePattern(text) } catch { throw ImageError("\(at): \(error.reason)") }
}

func imageKey(_ text: String, _ at: String) throws(ImageError) -> [UInt8] {
    let k = try imageHex(text, at)
    guard k.count == 6 else { throw ImageError("\(at): \(k.count) bytes; a key is 6") }
    return k
}

/// Bytes as spaced hex, `..` for an unknown one.
public func patternText(_ bytes: [UInt8?]) -> String {
    bytes.map { $0.map { [$0].hexString } ?? ".." }.joined(separator: " ")
}
