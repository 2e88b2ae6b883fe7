/// Builders for the interindustry commands of ISO/IEC 7816-4 §11 and the proprietary
/// read commands the transit profiles need. All of them only read, except VERIFY,
/// which changes a retry counter and whose data is a secret.
extension CommandAPDU {
    /// Which occurrence SELECT returns (ISO/IEC 7816-4 §11.2.2, P2 bits 2-1).
    public enum Occurrence: UInt8, Sendable {
        /// The first or only occurrence (P2 bits 2-1 = 00).
        case first = 0b00
        /// The last occurrence (01).
        case last = 0b01
        /// The next occurrence (10).
        case next = 0b10
        /// The previous occurrence (11).
        case previous = 0b11
    }
    /// What SELECT returns (ISO/IEC 7816-4 §11.2.2, P2 bits 4-3).
    public enum SelectResponse: UInt8, Sendable {
        /// The FCI, file control information (P2 bits 4-3 = 00).
        case fci = 0x00
        /// The FCP template (04).
        case fcp = 0x04
        /// The FMD template (08).
        case fmd = 0x08
        /// No response data (0C): the command is sent without Le.
        case none = 0x0C
    }

    private static func select(p1: UInt8, data: [UInt8], occurrence: Occurrence, returning: SelectResponse) -> CommandAPDU {
        CommandAPDU(
            cla: 0x00, ins: 0xA4, p1: p1, p2: returning.rawValue | occurrence.rawValue,
            data: data, le: returning == .none ? nil : 256)
    }

    /// SELECT by DF name (AID), P1 = 04 (ISO/IEC 7816-4 §11.2.2).
    public static func select(aid: [UInt8], occurrence: Occurrence = .first, returning: SelectResponse = .fci) -> CommandAPDU {
        select(p1: 0x04, data: aid, occurrence: occurrence, returning: returning)
    }

    /// SELECT by file identifier, P1 = 00 (ISO/IEC 7816-4 §11.2.2). `3F00` is the MF.
    public static func select(fileID: UInt16, returning: SelectResponse = .fci) -> CommandAPDU {
        select(p1: 0x00, data: [UInt8(fileID >> 8), UInt8(fileID & 0xFF)], occurrence: .first, returning: returning)
    }

    /// SELECT by path from the MF, P1 = 08 (ISO/IEC 7816-4 §11.2.2). The path omits `3F00`.
    public static func select(path: [UInt16], returning: SelectResponse = .fci) -> CommandAPDU {
        select(p1: 0x08, data: path.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, occurrence: .first, returning: returning)
    }

    /// READ BINARY of the current EF at `offset` (0…32767), INS B0 (ISO/IEC 7816-4 §11.3.3).
    public static func readBinary(offset: Int = 0, length: Int = 256) -> CommandAPDU {
        precondition((0...0x7FFF).contains(offset), "READ BINARY offset must be 0…32767")
        return CommandAPDU(cla: 0x00, ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: length)
    }

    /// READ BINARY with a short EF identifier: P1 = 80 | SFI, P2 = offset (0…255)
    /// (ISO/IEC 7816-4 §11.3.3).
    public static func readBinary(sfi: UInt8, offset: UInt8 = 0, length: Int = 256) -> CommandAPDU {
        precondition((1...30).contains(sfi), "an SFI is 1…30")
        return CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0x80 | sfi, p2: offset, le: length)
    }

    /// READ RECORD (ISO/IEC 7816-4 §11.4.3): record `number` of the EF with short identifier
    /// `sfi` (or the current EF when nil). `allFromNumber` sets P2 bits 3-1 to `101`
    /// ("all records from P1 up to the last").
    public static func readRecord(_ number: UInt8, sfi: UInt8? = nil, allFromNumber: Bool = false, length: Int = 256) -> CommandAPDU {
        let mode: UInt8 = allFromNumber ? 0b101 : 0b100
        let p2 = (sfi.map { $0 << 3 } ?? 0) | mode
        return CommandAPDU(cla: 0x00, ins: 0xB2, p1: number, p2: p2, le: length)
    }

    /// GET RESPONSE, INS C0 (ISO/IEC 7816-4 §11.7.1), as sent after `61 xx`.
    public static func getResponse(length: Int) -> CommandAPDU {
        CommandAPDU(cla: 0x00, ins: 0xC0, p1: 0x00, p2: 0x00, le: length)
    }

    /// GET DATA, INS CA (ISO/IEC 7816-4 §11.5.1), for a BER-TLV tag of one or two bytes.
    public static func getData(tag: UInt16, length: Int = 256) -> CommandAPDU {
        CommandAPDU(cla: 0x00, ins: 0xCA, p1: UInt8(tag >> 8), p2: UInt8(tag & 0xFF), le: length)
    }

    /// VERIFY, INS 20 (ISO/IEC 7816-4 §11.5.6). The PIN is marked secret: traces and
    /// transcripts write `..` in its place.
    public static func verify(reference: UInt8, pin: [UInt8]) -> CommandAPDU {
        CommandAPDU(cla: 0x00, ins: 0x20, p1: 0x00, p2: reference, data: pin, dataIsSecret: true)
    }

    /// GET CHALLENGE, INS 84 (ISO/IEC 7816-4 §11.5.3).
    public static func getChallenge(length: Int = 8) -> CommandAPDU {
        CommandAPDU(cla: 0x00, ins: 0x84, p1: 0x00, p2: 0x00, le: length)
    }

    /// PBOC / JT/T 978 GET BALANCE, `80 5C P1 P2 04`: P2 = 02 electronic purse (EP),
    /// 01 electronic deposit (ED). The answer is a 4-byte big-endian amount.
    public static func getBalance(p1: UInt8 = 0x00, purse: Bool = true) -> CommandAPDU {
        CommandAPDU(cla: 0x80, ins: 0x5C, p1: p1, p2: purse ? 0x02 : 0x01, le: 4)
    }

    /// CEPAS READ PURSE, `90 32 PP 00 00` (SS 518): purse `purse` (0…15; EZ-Link uses 3).
    public static func cepasReadPurse(_ purse: UInt8) -> CommandAPDU {
        CommandAPDU(cla: 0x90, ins: 0x32, p1: purse, p2: 0x00, le: 256)
    }
}
