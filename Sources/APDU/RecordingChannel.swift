/// A decorator that records every round trip through the channel it wraps, for writing a
/// transcript. Secret command bytes (see ``WireRedaction``) and cardholder data in answers
/// (``CardholderDataRedaction``: a payment card's PAN middle, Track 2's secret part, the
/// holder's name) are kept as `..` unless `redactSecrets` is false (`--record-raw`).
public final class RecordingChannel: CardChannel {
    public let wrapped: CardChannel
    public let redactSecrets: Bool
    /// Write each answer's time as a `# 0.9 ms` comment.
    public let recordsTimings: Bool
    public private(set) var entries: [Transcript.Entry] = []

    public init(wrapping channel: CardChannel, redactSecrets: Bool = true, recordsTimings: Bool = true) {
        self.wrapped = channel
        self.redactSecrets = redactSecrets
        self.recordsTimings = recordsTimings
    }

    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        var pattern: Transcript.Pattern = command.map { $0 }
        if redactSecrets, let secret = WireRedaction.secretRange(in: command) {
            for i in secret { pattern[i] = nil }
        }
        let start = ContinuousClock.now
        do {
            let answer = try wrapped.transmit(command)
            let comment = recordsTimings ? formatMilliseconds(ContinuousClock.now - start) : nil
            let hidden = redactSecrets && answer.count > 2 ? CardholderDataRedaction.positions(in: Array(answer.dropLast(2))) : []
            entries.append(.init(command: pattern, outcome: .response(answer), comment: comment, hidden: hidden))
            return answer
        } catch {
            let failure = (error as? CardTransportError)?.failure ?? .other(String(describing: type(of: error)))
            entries.append(.init(command: pattern, outcome: .failure(failure)))
            throw error
        }
    }

    /// The transcript recorded so far, with `headers` (put `technology`, `atr`, … here).
    public func transcript(headers: [Transcript.Header]) -> Transcript {
        Transcript(headers: headers, entries: entries)
    }
}
