import APDU

/// A command a PC/SC contactless reader was asked to carry to a card that speaks no ISO 7816
/// (a FeliCa frame, a Type 2 page read), and that did not make it: the card stayed silent
/// (`timeout`), or the reader refused the pseudo-APDU.
public struct PseudoAPDUError: CardTransportError, Equatable {
    /// What was being carried: `FeliCa frame`, `Type 2 READ BINARY`, …
    public let operation: String
    /// The reader's whole answer (empty when there was none to show).
    public let answer: [UInt8]
    /// `timeout` when the card stayed silent; `other`, with a reason, when the reader refused
    /// or the command could not be carried.
    public let failure: TransportFailure

    /// An error carrying `operation`, with the reader's `answer` and how it failed.
    public init(operation: String, answer: [UInt8], failure: TransportFailure) {
        self.operation = operation
        self.answer = answer
        self.failure = failure
    }

    public var message: String {
        let said = answer.isEmpty ? "" : " (the reader answered \(answer.hexString))"
        return failure == .timeout
            ? "the card did not answer the \(operation)\(said)"
            : "the reader did not pass the \(operation)\(said)"
    }

    public var hint: String? {
        failure == .timeout
            ? "hold the card still on the reader until the read completes"
            : "this reader may use another pseudo-APDU convention; a PN53x-based reader can be used through libnfc instead (docs/felica.md)"
    }
}
