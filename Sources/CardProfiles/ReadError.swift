import APDU

/// Why reading a card with a profile did not complete.
public enum ReadError: UserFacingError {
    /// The card is not one this profile reads (exit 76).
    case notThisCard(profile: String, reason: String)
    /// No profile recognised the card (exit 76).
    case unrecognised(tried: [String], atr: [UInt8]?)
    /// A step got an error status word (the report so far is partial, exit 74).
    case unexpectedStatus(profile: String, step: String, line: Int, command: String, status: StatusWord)
    /// A FeliCa step failed: status flags, or a frame that does not check out (partial, exit 74).
    case felica(profile: String, step: String, line: Int, reason: String)
    /// The transport failed: card removed, timeout, reader gone (partial, exit 74).
    case transport(any CardTransportError)
    /// The card's bytes do not fit a field of the profile (exit 65).
    case field(FieldDecodeError)
    /// A transcript replay diverged from what the profile sends (exit 65).
    case replay(ReplayChannel.Mismatch)
    /// Anything else the exchange layer reported (a malformed answer).
    case exchange(any UserFacingError)

    public var message: String {
        switch self {
        case .notThisCard(let p, let reason): return "this card is not read by profile '\(p)': \(reason)"
        case .unrecognised(let tried, let atr):
            return "no profile recognises this card\(atr.map { " (ATR \($0.hexString))" } ?? "") — tried \(tried.joined(separator: ", "))"
        case .unexpectedStatus(let p, let step, let line, let cmd, let sw):
            return "profile '\(p)' step '\(step)' (line \(line)): the card answered \(cmd) with \(sw)"
        case .felica(let p, let step, let line, let reason): return "profile '\(p)' step '\(step)' (line \(line)): \(reason)"
        case .transport(let e): return e.message
        case .field(let e): return e.message
        case .replay(let e): return e.message
        case .exchange(let e): return e.message
        }
    }

    public var hint: String? {
        switch self {
        case .notThisCard: return "run without --profile to let cardscan detect the card, or list profiles with `cardscan profiles list`"
        case .unrecognised: return "write a profile for it (docs/profile-format.md) and pass it with --profile FILE; `cardscan apdu` sends raw commands to explore"
        case .unexpectedStatus: return "the card may lock this file; mark the step `optional: true` if the profile can do without it"
        case .felica: return "the card may not have this service or block; mark the step `optional: true` if the profile can do without it"
        case .transport(let e): return e.hint ?? "hold the card still on the reader until the read completes"
        case .field(let e): return e.hint
        case .replay(let e): return e.hint
        case .exchange(let e): return e.hint
        }
    }

    /// The exit code of docs/architecture (sysexits).
    public var exitCode: Int32 {
        switch self {
        case .notThisCard, .unrecognised: return 76
        case .unexpectedStatus, .felica, .transport, .exchange: return 74
        case .field, .replay: return 65
        }
    }
}

/// A finished (or partly finished) read.
public struct ReadResult: Sendable {
    /// The report: complete, or `partial` when `error` is set. Nil when nothing was read.
    public var report: CardReport?
    public var error: ReadError?

    public init(report: CardReport?, error: ReadError?) {
        self.report = report; self.error = error
    }
}

extension ReadError: @unchecked Sendable {}
