/// The one abstraction every transport implements: send the bytes of a command, get the
/// bytes of the answer. For ISO 7816 cards that is a command APDU and a response APDU
/// (data, SW1, SW2); for FeliCa it is a whole frame starting with its length byte.
///
/// A channel does no interpretation: T=0 handling, counting and tracing live in
/// ``CardExchange``, which works over any channel.
public protocol CardChannel: AnyObject {
    /// Sends the bytes of one command and returns the bytes of the answer, unchanged. Throws
    /// when the transport fails; a ``CardTransportError`` says how.
    func transmit(_ command: [UInt8]) throws -> [UInt8]
}

/// How a transport failed, in the terms transcripts record (`! removed`, `! error: NAME`).
public enum TransportFailure: Hashable, Sendable {
    /// The card left the field or the reader (SCARD_W_REMOVED_CARD, target lost).
    case removed
    /// The card or reader did not answer in time.
    case timeout
    /// Anything else, named as the transport names it (e.g. `SCARD_E_NO_SERVICE`).
    case other(String)

    /// The transcript spelling: `removed` or `error: NAME`.
    public var transcriptText: String {
        switch self {
        case .removed: return "removed"
        case .timeout: return "error: timeout"
        case .other(let name): return "error: \(name)"
        }
    }
}

/// A transport error that says which ``TransportFailure`` it is, so recording, replay
/// and partial reports treat every transport the same way.
public protocol CardTransportError: UserFacingError {
    /// Which transport failure this is, as a transcript records it.
    var failure: TransportFailure { get }
}

/// A transport failure read back from a transcript.
public struct ReplayedTransportFailure: CardTransportError, Equatable {
    /// The failure the transcript recorded.
    public let failure: TransportFailure
    /// The 1-based transcript line of that exchange: its `>` line, or the `!` line when it has
    /// no command.
    public let line: Int
    /// A failure read at `line` of a transcript.
    public init(failure: TransportFailure, line: Int) {
        self.failure = failure
        self.line = line
    }
    public var message: String {
        switch failure {
        case .removed: return "the card was removed (transcript line \(line))"
        case .timeout: return "the card did not answer in time (transcript line \(line))"
        case .other(ReadInterrupted.name): return "the read was interrupted (Ctrl-C) when it was recorded (transcript line \(line))"
        case .other(let n): return "transport error \(n) (transcript line \(line))"
        }
    }
}

/// The user interrupted the read (Ctrl-C): recorded as `! error: interrupted`, and ending the
/// read as a removed card does (the report of what was read before).
public struct ReadInterrupted: CardTransportError, Equatable {
    /// The name a transcript records it by.
    public static let name = "interrupted"
    /// The interruption of a read.
    public init() {}
    public var failure: TransportFailure { .other(Self.name) }
    public var message: String { "the read was interrupted (Ctrl-C): what was read before is kept" }
}
