/// The MIFARE Application Directory (NXP AN10787): which application each sector holds, kept in
/// sector 0 (MAD1, sectors 1–15) and on a 4K card also sector 16 (MAD2, sectors 17–39). Each
/// entry is a 2-byte application id (AID): a function cluster code and an application code. A
/// pure decoder: blocks in, directory out.
public struct ClassicMAD: Equatable, Sendable {
    /// 1 or 2, from the General Purpose Byte (sector 0's trailer byte 9, bits 0–1).
    public var version: Int
    /// Whether each directory's CRC-8 matches (MAD1, then MAD2 when read).
    public var crcMatches: [Bool]
    /// The sector holding the card publisher's information (the info byte), when there is one.
    public var publisherSector: Int?
    /// Each sector's application, in sector order.
    public var entries: [Entry]

    /// One sector's application.
    public struct Entry: Equatable, Sendable {
        /// The sector.
        public var sector: Int
        /// The application id as the card stores it: the function cluster code (high byte) and
        /// the application code.
        public var aid: UInt16
        /// What AN10787 or the NFC Forum call it, or the function cluster code.
        public var name: String { ClassicMAD.name(aid) }
    }

    /// The directory in sector 0 (its 4 blocks) and, for a 4K card with MAD2, sector 16's first
    /// 3 blocks; nil when the General Purpose Byte says there is none (no DA bit, or a version
    /// other than 1 or 2) or a block is short.
    public static func decode(sector0: [[UInt8]], sector16: [[UInt8]]? = nil) -> ClassicMAD? {
        guard sector0.count == 4, sector0.allSatisfy({ $0.count == 16 }) else { return nil }
        let gpb = sector0[3][9]
        guard gpb & 0x80 != 0, [1, 2].contains(Int(gpb & 0x03)) else { return nil }
        let mad1 = Array(sector0[1] + sector0[2])
        var mad = ClassicMAD(
            version: Int(gpb & 0x03), crcMatches: [crc8(mad1.dropFirst()) == mad1[0]], publisherSector: publisher(mad1[1]),
            entries: entries(mad1.dropFirst(2), firstSector: 1))
        if mad.version == 2, let s16 = sector16, s16.count >= 3, s16.prefix(3).allSatisfy({ $0.count == 16 }) {
            let mad2 = Array(s16[0] + s16[1] + s16[2])
            mad.crcMatches.append(crc8(mad2.dropFirst()) == mad2[0])
            mad.entries += entries(mad2.dropFirst(2), firstSector: 17)
        }
        return mad
    }

    /// The info byte's low 6 bits: the publisher sector (0: none; 0x10 is not allowed, it is MAD2).
    static func publisher(_ info: UInt8) -> Int? {
        let s = Int(info & 0x3F)
        return s == 0 || s == 0x10 ? nil : s
    }

    /// The NFC Forum's NDEF application: the card's `03 E1`.
    public static let ndefAID: UInt16 = 0xE103

    /// Entries of 2 bytes as AN10787 stores them: the application code, then the function
    /// cluster code — the card's `03 E1` is cluster E1 (NFC Forum), application 03: AID `E103`.
    public static func entries(_ bytes: ArraySlice<UInt8>, firstSector: Int) -> [Entry] {
        stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).enumerated().map { i, at in
            Entry(sector: firstSector + i, aid: UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at]))
        }
    }

    /// CRC-8 of AN10787 §3.8: polynomial x⁸+x⁴+x³+x²+1 (0x1D), preset 0xC7, no reflection.
    public static func crc8(_ bytes: some Sequence<UInt8>) -> UInt8 {
        var crc: UInt8 = 0xC7
        for b in bytes {
            crc ^= b
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? crc << 1 ^ 0x1D : crc << 1 }
        }
        return crc
    }

    /// AN10787's administration codes (cluster 00), the NFC Forum's NDEF AID, else the cluster.
    static func name(_ aid: UInt16) -> String {
        switch aid {
        case 0x0000: return "free"
        case 0x0001: return "defect (keys destroyed or unknown)"
        case 0x0002: return "reserved"
        case 0x0003: return "additional directory information"
        case 0x0004: return "card holder information"
        case 0x0005: return "not applicable (above the memory size)"
        case ndefAID: return "NDEF (NFC Forum)"
        default: return "application \(hex(aid, 4)) (function cluster \(hex(aid >> 8, 2)))"
        }
    }

    /// `n` in upper-case hex, zero-padded to `digits`.
    static func hex(_ n: UInt16, _ digits: Int) -> String {
        let s = String(n, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
