/// A channel that answers from a transcript.
///
/// - **Strict** (the default, for regression tests): each command must equal the next
///   recorded one (`..` matches any byte). A difference is a ``ReplayChannel/Mismatch``
///   naming the line and both byte strings.
/// - **Lenient** (for simulators): a command gets the answer of the first unused recorded
///   exchange it matches; once all its matches are used, the last of them again; and
///   `6D 00` (instruction not supported) when nothing recorded matches.
public final class ReplayChannel: CardChannel {
    /// How commands are matched to the recorded exchanges.
    public enum Mode: Sendable {
        /// Each command must match the next recorded one, in order (regression tests).
        case strict
        /// A command gets the first unused recorded exchange it matches, then the last of its
        /// matches again; `6D 00` when nothing matches (simulators).
        case lenient
    }

    /// The transcript the answers come from.
    public let transcript: Transcript
    /// How commands are matched to recorded exchanges.
    public let mode: Mode
    /// The transcript's name in ``Mismatch`` messages.
    public let file: String
    private var next = 0
    private var used: [Bool]
    /// The entries that answered, in the order they did (`6D 00` for a command nothing
    /// recorded matches is none of them): a report tells from them which of its values came
    /// from bytes the recording hid.
    public private(set) var answered: [Transcript.Entry] = []
    /// Whether the transcript hides any answer byte (`..`).
    public var hidesAnswerBytes: Bool { transcript.entries.contains { !$0.hidden.isEmpty || !$0.hiddenBits.isEmpty } }

    /// Replays `transcript` in `mode`; `file` names it in errors.
    public init(_ transcript: Transcript, mode: Mode = .strict, file: String = "<transcript>") {
        self.transcript = transcript
        self.mode = mode
        self.file = file
        self.used = Array(repeating: false, count: transcript.entries.count)
    }

    /// Strict replay: exchanges not yet replayed.
    public var remaining: Int { transcript.entries.count - next }

    /// Forget what was used (a simulated card powered on again).
    public func reset() {
        next = 0
        answered = []
        for i in used.indices { used[i] = false }
    }

    /// Why strict replay stopped.
    public enum Mismatch: UserFacingError, Equatable {
        /// `actual` was sent where the exchange at `line` of `file` expects `expected` (spaced hex,
        /// `..` for any byte).
        case differs(file: String, line: Int, expected: String, actual: [UInt8])
        /// `actual` was sent after every recorded exchange of `file` was replayed.
        case exhausted(file: String, actual: [UInt8])
        public var message: String {
            switch self {
            case .differs(let f, let l, let e, let a):
                return "\(f):\(l): replay diverged\n  expected: \(Self.short(e))\n  actual:   \(Self.short(a.hexString))"
            case .exhausted(let f, let a):
                return "\(f): replay ran past the end of the transcript; unrecorded command: \(Self.short(a.hexString))"
            }
        }
        /// Spaced hex cut to its first 96 bytes: a message stays readable whatever a
        /// transcript holds (a 10 MB line is named, not printed).
        static func short(_ hex: String) -> String {
            let limit = 96 * 3
            guard hex.utf8.count > limit else { return hex }
            return String(hex.prefix(limit)) + "… (\((hex.utf8.count + 1) / 3) bytes)"
        }

        public var hint: String? {
            "the profile sends different commands than were recorded: re-record the card, or replay leniently (any order)"
        }
    }

    /// The recorded answer to `command`, chosen as ``mode`` says. A recorded transport failure
    /// is thrown as ``ReplayedTransportFailure``; in strict mode a command that does not fit
    /// throws ``Mismatch``.
    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        switch mode {
        case .strict:
            guard next < transcript.entries.count else { throw Mismatch.exhausted(file: file, actual: command) }
            let entry = transcript.entries[next]
            guard entry.matches(command) else {
                let expected = entry.command.map { $0.map { $0.map { Hex.format([$0]) } ?? ".." }.joined(separator: " ") } ?? "(any)"
                throw Mismatch.differs(file: file, line: entry.line, expected: expected, actual: command)
            }
            next += 1
            return try answer(entry)
        case .lenient:
            var lastUsed: Int? = nil
            for (i, entry) in transcript.entries.enumerated() where entry.command != nil && entry.matches(command) {
                if !used[i] {
                    used[i] = true
                    return try answer(entry)
                }
                lastUsed = i
            }
            if let i = lastUsed { return try answer(transcript.entries[i]) }
            answered.append(Transcript.Entry(command: command, outcome: .response([0x6D, 0x00])))
            return [0x6D, 0x00]
        }
    }

    private func answer(_ entry: Transcript.Entry) throws -> [UInt8] {
        answered.append(entry)
        switch entry.outcome {
        case .response(let bytes): return bytes
        case .failure(let f): throw ReplayedTransportFailure(failure: f, line: entry.line)
        }
    }
}
