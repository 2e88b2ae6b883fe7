/// A response APDU (ISO/IEC 7816-4 §5.1): response data followed by the status word SW1 SW2.
public struct ResponseAPDU: Hashable, Sendable {
    /// The response data, without the status word; may be empty.
    public var data: [UInt8]
    /// The status word SW1 SW2 that ends the response.
    public var statusWord: StatusWord

    /// A response from its parts.
    public init(data: [UInt8], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Why bytes are not a response APDU.
    public enum ParseError: UserFacingError, Equatable {
        /// Fewer than the 2 status bytes (the count given).
        case tooShort(Int)
        public var message: String {
            switch self {
            case .tooShort(0): return "the card sent an empty response (0 bytes): no status word"
            case .tooShort(let n): return "a response needs at least the 2 status bytes, got \(n)"
            }
        }
        public var hint: String? { "the card or reader lost the answer: hold the card still and try again" }
    }

    /// Splits wire bytes into data and status word; fewer than 2 bytes is an error.
    public init(bytes: [UInt8]) throws(ParseError) {
        let n = bytes.count
        guard n >= 2 else { throw .tooShort(n) }
        data = Array(bytes[0..<(n - 2)])
        statusWord = StatusWord(bytes[n - 2], bytes[n - 1])
    }

    /// Splits wire bytes into data and status word; fewer than 2 bytes is an error.
    public init(bytes: some Collection<UInt8>) throws(ParseError) {
        let n = bytes.count
        guard n >= 2 else { throw .tooShort(n) }
        let all = Array(bytes)
        data = Array(all[0..<(n - 2)])
        statusWord = StatusWord(all[n - 2], all[n - 1])
    }

    /// Data then SW1 SW2, as on the wire.
    public var bytes: [UInt8] { data + [statusWord.sw1, statusWord.sw2] }
}

extension ResponseAPDU: CustomStringConvertible {
    public var description: String { bytes.hexString }
}
