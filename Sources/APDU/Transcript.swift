/// A recorded conversation with a card, in the cardscan transcript format
/// (docs/transcripts.md): header lines `# key: value`, then one exchange per two lines,
/// `> command` and `< answer`, or `! removed` / `! error: NAME` for a transport failure.
public struct Transcript: Hashable, Sendable {
    /// The first line of every transcript: the format and its version.
    public static let magicLine = "# cardscan transcript 1"

    /// Header entries in file order; unknown keys are kept.
    public var headers: [Header]
    /// The exchanges, in file order.
    public var entries: [Entry]

    /// One `# key: value` header line.
    public struct Header: Hashable, Sendable {
        /// The key, before the colon: `atr`.
        public var key: String
        /// The text after the colon (the parser trims spaces and tabs around it).
        public var value: String
        /// A header with any key.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// A command byte pattern: a byte, or `..` (any byte on replay; a redacted secret).
    public typealias Pattern = [UInt8?]

    /// One exchange: the command, what came back, and where it is in the file.
    public struct Entry: Hashable, Sendable {
        /// What was sent; nil for a failure recorded between commands (it meets the next command).
        public var command: Pattern?
        /// The card's answer, or how the transport failed.
        public var outcome: Outcome
        /// 1-based line of the `>` line (or of the `!` line when there is no command).
        public var line: Int
        /// Text after ` #` on the answer line (timings), without the `#`.
        public var comment: String?
        /// Positions of the answer's bytes written `..`: data the recording hid (cardholder
        /// data, ``CardholderDataRedaction``; a profile's personal values). They replay as 00.
        public var hidden: [Int]
        /// Bytes of the answer only some of whose bits the recording hid (a personal value
        /// packed in bits beside others), written `HH/MM`: position → the hidden bits, which
        /// replay as 0.
        public var hiddenBits: [Int: UInt8]

        /// An entry from its parts; `line` 0 means it was not read from a file.
        public init(
            command: Pattern?, outcome: Outcome, line: Int = 0, comment: String? = nil, hidden: [Int] = [],
            hiddenBits: [Int: UInt8] = [:]
        ) {
            self.command = command
            self.outcome = outcome
            self.line = line
            self.comment = comment
            self.hidden = hidden
            self.hiddenBits = hiddenBits
        }

        /// The hidden bits of each answer byte that has any (0xFF: the whole byte).
        public var hiddenMasks: [Int: UInt8] {
            var out = hiddenBits
            for p in hidden { out[p] = 0xFF }
            return out
        }

        /// Whether `bytes` fits the command pattern (`..` matches anything).
        public func matches(_ bytes: [UInt8]) -> Bool {
            guard let command else { return true }
            guard command.count == bytes.count else { return false }
            for (p, b) in zip(command, bytes) where p != nil && p! != b { return false }
            return true
        }
    }

    /// What a command got.
    public enum Outcome: Hashable, Sendable {
        /// The answer, status word included (`<` line); hidden bits are 0.
        case response([UInt8])
        /// A transport failure (`! removed`, `! error: NAME`).
        case failure(TransportFailure)
    }

    /// A transcript from its parts.
    public init(headers: [Header] = [], entries: [Entry] = []) {
        self.headers = headers
        self.entries = entries
    }

    /// The value of the first header named `key`.
    public subscript(header key: String) -> String? {
        headers.first { $0.key == key }?.value
    }
}
