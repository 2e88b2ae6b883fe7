/// The Capability Container file (E103) of an NFC Forum Type 4 Tag (T4T 2.0/3.0 §5.1):
/// mapping version, MLe, MLc and the NDEF File Control TLV.
public struct Type4CapabilityContainer: Hashable, Sendable {
    /// NDEF application names: mapping v2 (and v3), and v1.
    public static let applicationV2: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The NDEF application name of mapping v1: `D2 76 00 00 85 01 00`.
    public static let applicationV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// The Capability Container's file identifier, E103.
    public static let fileID: UInt16 = 0xE103

    /// CC byte 2: the mapping version, major in the high nibble (0x20 is 2.0).
    public var mappingVersion: UInt8
    /// The most data READ BINARY may return (MLe) and UPDATE BINARY may take (MLc).
    public var maxLe: Int
    /// MLc (CC bytes 5–6): the most data one UPDATE BINARY may take.
    public var maxLc: Int
    /// The NDEF file's identifier, from the NDEF File Control TLV.
    public var ndefFileID: UInt16
    /// The NDEF file's size in bytes, NLEN included (2 bytes long in the `04` TLV, 4 in the `06`).
    public var maxNDEFSize: Int
    /// The NDEF file's read access condition: `00` grants reading; any other value makes
    /// ``status`` not supported.
    public var readAccess: UInt8
    /// The NDEF file's write access condition: `00` grants writing; any other value (`FF`:
    /// none) makes ``status`` read-only.
    public var writeAccess: UInt8
    /// 2 for the `04` TLV (2-byte NLEN), 4 for the `06` TLV of mapping 3.0.
    public var nlenSize: Int

    /// The longest message READ BINARY and UPDATE BINARY can reach: their offset in P1-P2 is
    /// 15 bits, up to byte 32767 (ISO/IEC 7816-4 §11.3.3: with P1's top bit set they name a
    /// short file identifier instead), and the message starts after NLEN.
    public var addressableNLEN: Int { 0x8000 - nlenSize }

    /// Parses the CC file from byte 0 (CCLEN first): 15 bytes at least (17 with the `06` TLV),
    /// MLe not 0, and an NDEF File Control TLV (`04 06` or `06 08`) at byte 7.
    public init(parsing b: [UInt8]) throws(NDEFError) {
        guard b.count >= 15 else { throw .truncated(offset: b.count, what: "capability container (15 bytes at least)") }
        let cclen = Int(b[0]) << 8 | Int(b[1])
        guard cclen <= b.count else { throw .lengthPastEnd(offset: 0, declared: cclen, available: b.count) }
        mappingVersion = b[2]
        maxLe = Int(b[3]) << 8 | Int(b[4])
        maxLc = Int(b[5]) << 8 | Int(b[6])
        guard maxLe > 0 else { throw .malformedPayload("MLe is 0") }
        switch (b[7], b[8]) {
        case (0x04, 0x06):
            ndefFileID = UInt16(b[9]) << 8 | UInt16(b[10])
            maxNDEFSize = Int(b[11]) << 8 | Int(b[12])
            readAccess = b[13]
            writeAccess = b[14]
            nlenSize = 2
        case (0x06, 0x08):
            guard b.count >= 17 else { throw .truncated(offset: b.count, what: "extended NDEF File Control TLV") }
            ndefFileID = UInt16(b[9]) << 8 | UInt16(b[10])
            maxNDEFSize = Int(b[11]) << 24 | Int(b[12]) << 16 | Int(b[13]) << 8 | Int(b[14])
            readAccess = b[15]
            writeAccess = b[16]
            nlenSize = 4
        default:
            throw .malformedPayload("no NDEF File Control TLV (found \(String(b[7], radix: 16)) \(String(b[8], radix: 16)))")
        }
    }

    /// Read chunks of at most MLe bytes: (offset, length) pairs covering `total` bytes from `start`.
    public func chunks(from start: Int, total: Int) -> [(offset: Int, length: Int)] {
        let step = min(maxLe, 255)
        return stride(from: start, to: start + total, by: step).map { ($0, min(step, start + total - $0)) }
    }

    /// Not supported when read access is not `00`, read/write when write access is `00`,
    /// else read-only; capacity is the NDEF file's size less NLEN.
    public var status: NDEFStatus {
        let access: NDEFStatus.Access = readAccess != 0 ? .notSupported : (writeAccess == 0 ? .readWrite : .readOnly)
        return NDEFStatus(access: access, capacity: maxNDEFSize - nlenSize)
    }
}
