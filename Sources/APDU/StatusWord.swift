/// The status word SW1 SW2 that ends every response (ISO/IEC 7816-4 §5.1.3, table 5-6).
///
/// A status word is data, not a transport error: decode it, then decide.
public struct StatusWord: Hashable, Sendable {
    /// The first status byte (SW1).
    public let sw1: UInt8
    /// The second status byte (SW2).
    public let sw2: UInt8

    /// A status word from SW1 and SW2.
    public init(_ sw1: UInt8, _ sw2: UInt8) {
        self.sw1 = sw1
        self.sw2 = sw2
    }
    /// A status word from its 16-bit value, SW1 the high byte: `StatusWord(0x6A82)`.
    public init(_ value: UInt16) { self.init(UInt8(value >> 8), UInt8(value & 0xFF)) }

    /// SW1 SW2 as one 16-bit value, SW1 the high byte.
    public var value: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }

    /// `90 00`: normal processing, no further qualification.
    public static let success = StatusWord(0x9000)
    /// `6A 83`: record not found.
    public static let recordNotFound = StatusWord(0x6A83)
    /// `6A 82`: file or application not found.
    public static let fileNotFound = StatusWord(0x6A82)
    /// `6D 00`: instruction code not supported or invalid.
    public static let insNotSupported = StatusWord(0x6D00)
    /// `6E 00`: class not supported.
    public static let classNotSupported = StatusWord(0x6E00)

    /// ISO/IEC 7816-4 §5.1.3 groups status words by SW1.
    public enum Category: String, Sendable, CaseIterable {
        /// 9000 and 61xx: normal processing.
        case success
        /// 62xx, 63xx: warning processing.
        case warning
        /// 64xx-66xx: execution error.
        case executionError = "execution error"
        /// 67xx-6Fxx: checking error.
        case checkingError = "checking error"
        /// Anything outside ISO 7816-4 (proprietary, e.g. 91xx for DESFire).
        case proprietary
    }

    /// The group SW1 puts this status word in; 90 with an SW2 other than 00 is proprietary.
    public var category: Category {
        switch sw1 {
        case 0x90 where sw2 == 0x00, 0x61: return .success
        case 0x62, 0x63: return .warning
        case 0x64, 0x65, 0x66: return .executionError
        case 0x67...0x6F: return .checkingError
        default: return .proprietary
        }
    }

    /// True for 9000 and 61xx (more data available), which the exchange layer resolves.
    public var isSuccess: Bool { category == .success }

    /// 61xx: the number of response bytes still available (00 means 256).
    public var bytesAvailable: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// 6Cxx: the exact length the card wants in Le (00 means 256).
    public var correctLength: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// 63Cx: the verification retries remaining.
    public var retriesRemaining: Int? { sw1 == 0x63 && sw2 & 0xF0 == 0xC0 ? Int(sw2 & 0x0F) : nil }

    /// What the status word means, in ISO/IEC 7816-4's words (docs/cards/README.md, status words).
    public var meaning: String {
        if let n = bytesAvailable { return "\(n) more bytes available (GET RESPONSE)" }
        if let n = correctLength { return "wrong Le: the card has exactly \(n) bytes" }
        if let n = retriesRemaining { return "verification failed: \(n) \(n == 1 ? "retry" : "retries") left" }
        if let text = Self.table[value] { return text }
        switch sw1 {
        case 0x62: return "warning: non-volatile memory unchanged"
        case 0x63: return "warning: non-volatile memory changed"
        case 0x64: return "execution error: non-volatile memory unchanged"
        case 0x65: return "execution error: non-volatile memory changed"
        case 0x66: return "execution error: security-related issue"
        case 0x67: return "wrong length"
        case 0x68: return "functions in CLA not supported"
        case 0x69: return "command not allowed"
        case 0x6A: return "wrong parameters P1-P2"
        default: return "unknown status word"
        }
    }

    static let table: [UInt16: String] = [
        0x9000: "success",
        0x6200: "warning: no information given (memory unchanged)",
        0x6281: "warning: part of the returned data may be corrupted",
        0x6282: "warning: end of file or record reached before reading Le bytes",
        0x6283: "warning: selected file invalidated",
        0x6284: "warning: FCI not formatted correctly",
        0x6300: "warning: verification failed (memory changed)",
        0x6381: "warning: file filled up by the last write",
        0x6400: "execution error: memory unchanged",
        0x6581: "memory failure",
        0x6700: "wrong length (Lc or Le)",
        0x6881: "logical channel not supported",
        0x6882: "secure messaging not supported",
        0x6981: "command incompatible with file structure",
        0x6982: "security status not satisfied",
        0x6983: "authentication method blocked",
        0x6984: "referenced data invalidated",
        0x6985: "conditions of use not satisfied",
        0x6986: "command not allowed (no current EF)",
        0x6987: "expected secure messaging data objects missing",
        0x6988: "secure messaging data objects incorrect",
        0x6A80: "incorrect parameters in the data field",
        0x6A81: "function not supported",
        0x6A82: "file or application not found",
        0x6A83: "record not found",
        0x6A84: "not enough memory space in the file",
        0x6A85: "Lc inconsistent with TLV structure",
        0x6A86: "incorrect parameters P1-P2",
        0x6A87: "Lc inconsistent with P1-P2",
        0x6A88: "referenced data (key) not found",
        0x6B00: "wrong parameters P1-P2 (offset outside the EF)",
        0x6D00: "instruction code not supported or invalid",
        0x6E00: "class not supported",
        0x6F00: "no precise diagnosis",
    ]
}

extension StatusWord: CustomStringConvertible {
    /// `6A 82 (file or application not found)`.
    public var description: String { "\([sw1, sw2].hexString) (\(meaning))" }
}
