/// A decorator that records every round trip through the channel it wraps, for writing a
/// transcript. Secret command bytes (see ``WireRedaction``) and cardholder data in answers
/// (``CardholderDataRedaction``: a payment card's PAN middle, Track 2's secret part, the
/// holder's name) are kept as `..` unless `redactSecrets` is false (`--record-raw`).
public final class RecordingChannel: CardChannel {
    /// The channel every command is passed on to.
    public let wrapped: CardChannel
    /// Whether secret command bytes and cardholder data are recorded hidden (`..`).
    public let redactSecrets: Bool
    /// Write each answer's time as a `# 0.9 ms` comment.
    public let recordsTimings: Bool
    /// The round trips so far, in order, with what is hidden already zeroed.
    public private(set) var entries: [Transcript.Entry] = []

    /// Records what goes through `channel`; hiding and timings are on unless turned off.
    public init(wrapping channel: CardChannel, redactSecrets: Bool = true, recordsTimings: Bool = true) {
        self.wrapped = channel
        self.redactSecrets = redactSecrets
        self.recordsTimings = recordsTimings
    }

    /// Passes `command` to ``wrapped``, records the exchange or the transport failure, and
    /// returns the answer unchanged (or rethrows the error).
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
            // What is hidden is not kept either: the transcript holds 00 there, as its file does.
            var kept = answer
            for p in hidden { kept[p] = 0 }
            answers.append(answer)
            entries.append(.init(command: pattern, outcome: .response(kept), comment: comment, hidden: hidden))
            return answer
        } catch {
            let failure = (error as? CardTransportError)?.failure ?? .other(String(describing: type(of: error)))
            entries.append(.init(command: pattern, outcome: .failure(failure)))
            answers.append(nil)
            throw error
        }
    }

    /// Each round trip's answer so far as the card gave it, hidden bytes included (nil where
    /// the transport failed): for finding in them what else to hide.
    public private(set) var answers: [[UInt8]?] = []

    /// Hides the bits `masks` gives (entry index → answer position → bits, FF the whole
    /// byte) too: the bits a read's personal values came from. Hidden bits are 0 in the kept
    /// answer, as a replay of the file reads them.
    public func hide(_ masks: [Int: [Int: UInt8]]) {
        for (i, m) in masks where entries.indices.contains(i) {
            guard case .response(var bytes) = entries[i].outcome else { continue }
            var all = entries[i].hiddenMasks
            // Never the status word: a replay needs it (and the format refuses it hidden).
            for (p, bits) in m where p < bytes.count - 2 { all[p, default: 0] |= bits }
            for (p, bits) in all { bytes[p] &= ~bits }
            entries[i].outcome = .response(bytes)
            entries[i].hidden = all.filter { $0.value == 0xFF }.keys.sorted()
            entries[i].hiddenBits = all.filter { $0.value != 0xFF }
        }
    }

    /// The transcript recorded so far, with `headers` (put `technology`, `atr`, … here).
    public func transcript(headers: [Transcript.Header]) -> Transcript {
        Transcript(headers: headers, entries: entries)
    }
}
