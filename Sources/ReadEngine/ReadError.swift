import APDU
import CardReports
import ProfileLanguage

/// Why reading a card with a profile did not complete. Library terms only: the command line
/// decides what each means for its exit status.
public enum ReadError: UserFacingError {
    /// The card is not one this profile reads.
    case notThisCard(profile: String, reason: String)
    /// No profile recognised the card.
    case unrecognised(tried: [String], atr: [UInt8]?)
    /// There was no profile to try: none in any of the folders `searched`.
    case noProfiles(searched: [String])
    /// A step the profile needs was refused by the card (the report so far is partial).
    case stepFailed(profile: String, step: String, line: Int, command: String?, reason: Absence)
    /// A step's answer does not check out (a FeliCa frame with the wrong length or IDm), or the
    /// step cannot run (read-blocks before any poll). The report so far is partial.
    case badAnswer(profile: String, step: String, line: Int, reason: String)
    /// The transport failed: card removed, timeout, reader gone (partial).
    case transport(any CardTransportError)
    /// A transcript replay diverged from what the profile sends; `at`: the profile and the step
    /// that sent the command (nil when no step was running: an NDEF read after detection).
    case replay(ReplayChannel.Mismatch, at: StepPlace?)
    /// Anything else the exchange layer reported (a malformed answer).
    case exchange(any UserFacingError)

    public var message: String {
        switch self {
        case .notThisCard(let p, let reason): return "this card is not read by profile '\(p)': \(reason)"
        case .unrecognised(let tried, let atr):
            return "no profile recognises this card\(atr.map { " (ATR \($0.hexString))" } ?? "") — "
                + (tried.isEmpty ? "no profile reads its kind of card" : "tried \(tried.joined(separator: ", "))")
        case .noProfiles(let searched):
            return "no profile to recognise the card with: none found in \(searched.joined(separator: ", "))"
        case .stepFailed(let p, let step, let line, let command, let reason):
            let what = command.map { "the card answered \($0) with \(reason)" } ?? reason.description
            return "profile '\(p)' step '\(step)' (line \(line)): \(what)"
        case .badAnswer(let p, let step, let line, let reason): return "profile '\(p)' step '\(step)' (line \(line)): \(reason)"
        case .transport(let e): return e.message
        case .replay(let e, let at): return e.message + (at.map { "\n  sent by: \($0)" } ?? "")
        case .exchange(let e): return e.message
        }
    }

    public var hint: String? {
        switch self {
        case .notThisCard: return "let detection choose among all the profiles, or pick another one"
        case .unrecognised:
            return "write a profile for it (docs/writing-a-profile.md); ISO7816Dump, DESFireDump and FeliCaSurvey show what it holds"
        case .noProfiles:
            return "set CARDSCAN_BUILTIN_PROFILES to the folder of cardscan's built-in profiles, or give profile folders to ProfileRegistry"
        case .stepFailed(_, _, _, _, .status):
            return "the card may lock this file; mark the step `optional: true` if the profile can do without it"
        case .stepFailed:
            return "the card may not have this system, service or block; mark the step `optional: true` if the profile can do without it"
        case .badAnswer: return "the card or reader answered something the standard does not allow; a trace of the exchanges shows it"
        case .transport(let e):
            if e.failure == ReadInterrupted().failure { return nil }  // the user stopped it
            return e.hint ?? "hold the card still on the reader until the read completes"
        case .replay(let e, _): return e.hint
        case .exchange(let e): return e.hint
        }
    }

    /// What an exchange failure means for a read: the card or reader failed, a replay
    /// diverged, or the exchange layer refused an answer.
    public init(_ error: any Error) {
        switch error {
        case let e as ReadError: self = e
        case let e as CardTransportError: self = .transport(e)
        case let e as ReplayChannel.Mismatch: self = .replay(e, at: nil)
        case let e as UserFacingError: self = .exchange(e)
        default: self = .exchange(ReplayedTransportFailure(failure: .other("\(error)"), line: 0))
        }
    }

    /// The card was not one the profile (or any profile) reads: nothing was read.
    public var isNotRecognised: Bool {
        switch self {
        case .notThisCard, .unrecognised, .noProfiles: return true
        default: return false
        }
    }
}

/// Where in a profile a command was sent from: for a message that says which profile and step
/// sent a command a replay did not expect.
public struct StepPlace: Sendable, Equatable, CustomStringConvertible {
    /// The profile's id.
    public var profile: String
    /// The step's name.
    public var step: String
    /// The line of the step in the profile.
    public var line: Int
    public var description: String { "profile '\(profile)', step '\(step)' (line \(line))" }
}

/// A finished (or partly finished) read.
public struct ReadResult: Sendable {
    /// The report: complete, or `partial` when `error` is set. Nil when nothing was read.
    public var report: CardReport?
    /// Why the read did not complete; nil when it did.
    public var error: ReadError?

    /// A result of `report` and `error`.
    public init(report: CardReport?, error: ReadError?) {
        self.report = report
        self.error = error
    }
}

extension ReadError: @unchecked Sendable {}
