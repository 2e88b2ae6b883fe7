import APDU

/// A FeliCa frame that could not be built or does not check out.
public enum FeliCaError: UserFacingError, Equatable, Sendable {
    /// `field` must be `expected` bytes but was `actual` (an IDm not 8 bytes, block data not 16).
    case badLength(field: String, expected: Int, actual: Int)
    /// A value a command cannot carry (a count, index or mode out of range; a frame over 255 bytes), in words.
    case invalidArgument(String)
    /// The response to command code `command` ended early; `length` is the frame's length in bytes.
    case truncated(command: UInt8, length: Int)
    /// The frame's length byte says `declared` bytes, but the frame has `actual`.
    case lengthByteMismatch(declared: Int, actual: Int)
    /// The response code is `actual`, not the command code + 1 (`expected`).
    case wrongResponseCode(expected: UInt8, actual: UInt8)
    /// The response echoes another IDm (`actual`) than the command carried (`expected`).
    case wrongIDm(expected: [UInt8], actual: [UInt8])
    /// Status flags other than 00 00 (JIS X 6319-4 §7.4.7.3).
    case status(StatusFlags)
    /// That many bytes follow the response's last field.
    case trailingBytes(Int)
    /// A Read Without Encryption answered with another number of blocks than it asked for.
    case wrongBlockCount(asked: Int, got: Int)

    public var message: String {
        switch self {
        case .badLength(let f, let e, let a): return "\(f) must be \(e) bytes, not \(a)"
        case .invalidArgument(let s): return s
        case .truncated(let c, let n): return "response to command \(String(c, radix: 16)) truncated at \(n) byte(s)"
        case .lengthByteMismatch(let d, let a): return "length byte says \(d) but the frame has \(a) byte(s)"
        case .wrongResponseCode(let e, let a): return "response code \(String(a, radix: 16)), expected \(String(e, radix: 16))"
        case .wrongIDm: return "the response carries another card's IDm"
        case .status(let f): return f.description
        case .trailingBytes(let n): return "\(n) unexpected byte(s) after the response"
        case .wrongBlockCount(let asked, let got): return "asked for \(asked) block(s), got \(got)"
        }
    }

    public var hint: String? {
        switch self {
        case .status: return "the card refused: the service may need a key, or the block may not exist"
        case .badLength, .invalidArgument: return "check the values given for the command (JIS X 6319-4 §7.4)"
        default: return "the card or reader answered a frame the standard does not allow; hold the card still and try again"
        }
    }

    /// The message alone (no hint), for use inside other messages.
    public var description: String { message }
}

/// Status flag 1 and 2 of a FeliCa response (meanings as proprietary tools list them).
public struct StatusFlags: Hashable, Sendable, CustomStringConvertible {
    /// Status flag 1: 00 success, FF an error not tied to a list element, else the (1-based)
    /// position of the list element that failed.
    public let flag1: UInt8
    /// Status flag 2: what went wrong (A8 illegal block number, A5 access not allowed, …; ``meaning``).
    public let flag2: UInt8
    /// The two flags, in the order a response carries them after the IDm.
    public init(_ flag1: UInt8, _ flag2: UInt8) {
        self.flag1 = flag1
        self.flag2 = flag2
    }

    /// Whether flag 1 is 00 (flag 2 is not looked at).
    public var isSuccess: Bool { flag1 == 0 }

    /// SF1: FF = an error not tied to a list element; otherwise the failing element's position.
    public var failingElement: Int? { flag1 == 0 || flag1 == 0xFF ? nil : Int(flag1) }

    static let meanings: [UInt8: String] = [
        0x01: "purse data under/overflow", 0x02: "cashback data exceeded", 0x70: "memory error",
        0x71: "memory rewrite-limit warning", 0xA1: "illegal number of services", 0xA2: "illegal number of blocks",
        0xA3: "illegal block list (service order)", 0xA4: "illegal service type", 0xA5: "access not allowed",
        0xA6: "illegal service code list", 0xA7: "illegal block list (access mode)", 0xA8: "illegal block number",
        0xA9: "data write failure", 0xAA: "key-change failure", 0xAB: "illegal package parity or MAC",
        0xAC: "illegal parameter", 0xAD: "service exists already", 0xAE: "illegal system code",
        0xAF: "too many simultaneous cyclic writes", 0xC0: "issuance ID error", 0xC1: "issuance parameter error",
        0xC2: "issuance error",
    ]

    /// Flag 2 in words (`illegal block number`), or `unknown status XX` for a value not in the table.
    public var meaning: String { Self.meanings[flag2] ?? "unknown status \([flag2].hexString)" }

    public var description: String {
        let hex = [flag1, flag2].hexString
        if let i = failingElement { return "status \(hex): \(meaning) (block list element \(i))" }
        return "status \(hex): \(meaning)"
    }
}
