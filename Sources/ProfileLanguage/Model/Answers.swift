import APDU
import FeliCaCommands

/// What one step of a profile got from the card.
public enum Answer: Sendable, Equatable {
    /// The bytes of one answer (an ISO 7816 response's data, a FeliCa Polling answer, blocks).
    case data([UInt8])
    /// One entry per record (READ RECORD loops, FeliCa blocks read as records).
    case records([[UInt8]])
    /// The card has no such thing, or refused it: why, in the technology's own terms.
    case absent(Absence)
}

/// Why a step has no answer. Each technology says "not there" its own way; none is made up
/// as another's status word.
public enum Absence: Error, Sendable, Equatable, CustomStringConvertible {
    /// ISO 7816: the card answered with an error status word (no such file, security status…).
    case status(StatusWord)
    /// FeliCa: no system with this code answered Polling.
    case noSuchSystem(SystemCode)
    /// FeliCa: the card answered with error status flags (no such service, illegal block…).
    case feliCaStatus(StatusFlags)
    /// The answer does not check out (a FeliCa frame with the wrong length, IDm or block count).
    case invalidAnswer(String)
    /// ISO 7816: not sent — it reads the current file, and the SELECT before it failed, so the
    /// current file is not the one the profile means.
    case notSelected
    /// Not sent: the value it is built from (an AID, a file locator, an SFI) is not in the
    /// answers read before it.
    case missingInput(String)
    /// Ultralight: the tag refused to read this page (a protected area, or past its end).
    case pageRefused(Int)
    /// MIFARE Classic: no key the user has opens the first sector, so the sectors from it to
    /// `through` (the end of the step's run) are not read.
    case sectorLocked(Int, through: Int)

    public var description: String {
        switch self {
        case .status(let sw): return sw.description
        case .noSuchSystem(let code): return "no system \(code) on the card (Polling got no answer)"
        case .feliCaStatus(let flags): return flags.description
        case .invalidAnswer(let why): return "an answer that does not check out (\(why))"
        case .notSelected: return "not sent: it reads the current file, and the SELECT before it failed"
        case .missingInput(let why): return "not sent: \(why)"
        case .pageRefused(let page): return "the tag refused to read page \(page) (a protected area, or past its end)"
        case .sectorLocked(let sector, _): return "sector \(sector) is locked: no key the user has opens it"
        }
    }
}

/// The answers a read collected, by step name, in the order the steps ran. A value: the
/// engine fills it, `ReportBuilder` turns it into a report, a test can write one by hand.
///
/// A profile has a handful of steps with short names: a linear search compares small strings
/// faster than a dictionary hashes them.
public struct Answers: Sendable, Equatable {
    /// The names of the answers held, in the order they were first set.
    public private(set) var names: [String] = []
    private var values: [Answer] = []
    /// The answers of each run of a `for-each` step's steps (one per application a directory
    /// listed), each holding the answers before the loop too.
    public var runs: [Answers] = []

    /// No answers.
    public init() {}

    /// The answer named `name`, or nil. Setting a new name appends it; setting nil removes it.
    public subscript(name: String) -> Answer? {
        get {
            for i in names.indices where names[i] == name { return values[i] }
            return nil
        }
        set {
            if let i = names.firstIndex(of: name) {
                if let newValue {
                    values[i] = newValue
                } else {
                    names.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }

    /// The bytes of answer `name`, when it is a single answer that was read.
    public func data(_ name: String) -> [UInt8]? {
        if case .data(let bytes)? = self[name] { return bytes }
        return nil
    }
}
