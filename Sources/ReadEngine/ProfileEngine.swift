import APDU
import CardReports
import FeliCaCommands
import MIFARECommands
import ProfileLanguage

/// Runs profiles over a card session: detection (which profile fits) and reading (the
/// answers, then the report). The steps themselves are run by one `StepRunner` per
/// technology; the report is built from the answers by `ReportBuilder`.
public final class ProfileEngine {
    /// The session with the card: every command of detection and reading goes through it.
    public let session: CardSession
    /// The answers of the last detection attempt or read.
    public private(set) var answers = Answers()
    private lazy var iso7816 = ISO7816StepRunner(session: session)
    private lazy var felica = FeliCaStepRunner(session: session)
    private lazy var desfire = DESFireStepRunner(session: session)
    private lazy var ultralight = UltralightStepRunner(session: session)
    private lazy var classic = ClassicStepRunner(session: session)

    /// Report personal data (fields marked `personal`) instead of naming them in `hidden`.
    public var showsPersonalData = false
    /// Report masked numbers (`mask-digits`: a payment card's PAN) in full.
    public var showsFullNumbers = false
    /// Which values' bytes the report notes (`CardReport.fieldBytes`): the personal ones to
    /// hide them in a transcript or trace, all of them to check a replay against what its
    /// recording hid.
    public var collectsFieldBytes: FieldBytes.Scope = .none
    /// What the engine answers a card asking for terminal data (`dol` steps); after a read,
    /// the changing values it used (``TerminalSettings/used``).
    public var terminal = TerminalSettings()

    /// An engine for the card of `session`.
    public init(session: CardSession) { self.session = session }

    private func runner(_ technology: Profile.Technology) -> StepRunner {
        switch technology {
        case .iso7816: return iso7816
        case .felica: return felica
        case .desfire: return desfire
        case .ultralight: return ultralight
        case .classic: return classic
        }
    }

    // MARK: Detection

    /// The order profiles are tried in: ATR matches first, then `detect.priority`, then the
    /// profile with more `require` checks (more specific), then id.
    public static func detectionOrder(_ profiles: [Profile], atr: [UInt8]?) -> [Profile] {
        detectionIndices(profiles, atr: atr).map { profiles[$0] }
    }

    /// ``detectionOrder(_:atr:)`` as positions in `profiles`: small keys are sorted, not the
    /// profiles themselves (a profile is a large value; sorting them moved and counted references
    /// to every field on each comparison: a fifth of a detected replay's time).
    static func detectionIndices(_ profiles: [Profile], atr: [UInt8]?) -> [Int] {
        func atrRank(_ p: Profile) -> Int { atr.map { p.matchesATR($0) } == true ? 0 : 1 }
        let keys = profiles.indices.map { i in (atrRank(profiles[i]), profiles[i].detect.priority, -profiles[i].detect.require.count, i) }
        return keys.sorted { a, b in
            if (a.0, a.1, a.2) != (b.0, b.1, b.2) { return (a.0, a.1, a.2) < (b.0, b.1, b.2) }
            return profiles[a.3].id < profiles[b.3].id
        }.map(\.3)
    }

    /// The first profile (in ``detectionOrder(_:atr:)``) whose detection steps succeed and
    /// whose `require` checks hold. Transport failures propagate.
    public func detect(among profiles: [Profile]) throws(ReadError) -> Profile {
        var tried: [String] = []
        for i in Self.detectionIndices(profiles, atr: session.atr) where profiles[i].technology.carrier == session.technology {
            answers = Answers()
            if try recognises(profiles[i]) == nil { return profiles[i] }
            tried.append(profiles[i].id)
        }
        throw .unrecognised(tried: tried, atr: session.atr)
    }

    /// Runs the detection steps; nil when the card fits, else why not — told only when asked:
    /// a detection that tries many profiles shows none of the reasons (building each was a
    /// tenth of a detected replay's time).
    func recognises(_ p: Profile) throws(ReadError) -> (() -> String)? {
        // A check is made as soon as its answer is there: a card that fails one is not sent the
        // steps after it (a Classic profile's sector 0 check spares the sectors it would read).
        var checked = Set<Int>()
        for step in p.steps.prefix(p.detect.lastStep + 1) {
            if let why = try run(step, in: p, detecting: true), !step.optional {
                let name = step.name
                if case .noSuchSystem(let code) = why {
                    return { "the card has no system \(code) (step '\(name)': Polling got no answer)" }
                }
                return { "step '\(name)' answered \(why)" }
            }
            for (i, q) in p.detect.require.enumerated() where q.answer == step.name {
                checked.insert(i)
                if let why = failure(of: q, in: p) { return why }
            }
        }
        for (i, q) in p.detect.require.enumerated() where !checked.contains(i) {
            if let why = failure(of: q, in: p) { return why }
        }
        return nil
    }

    /// Why the check does not hold on the answers read so far; nil when it holds.
    private func failure(of q: Profile.Requirement, in p: Profile) -> (() -> String)? {
        if !q.keyDigests.isEmpty { return keyHashFailure(of: q, in: p) }
        let bytes: [UInt8]
        if let n = q.record {
            guard case .records(let list)? = answers[q.answer], n <= list.count else {
                return { "answer '\(q.answer)' has no record \(n) (line \(q.line))" }
            }
            bytes = list[n - 1]
        } else {
            guard let data = answers.data(q.answer) else { return { "answer '\(q.answer)' is missing" } }
            bytes = data
        }
        if let field = q.field {
            guard let value = p.decode(bytes, of: q.answer, until: field)?.values[field]?.integer else {
                return { "'\(q.answer)' has no value '\(field)' (line \(q.line))" }
            }
            let masked = q.fieldMask.map { value & $0 } ?? value
            if masked != q.fieldValue {
                return {
                    "'\(field)' of '\(q.answer)' is 0x\(String(value, radix: 16, uppercase: true)), not 0x\(String(q.fieldValue, radix: 16, uppercase: true)) (line \(q.line))"
                }
            }
            return nil
        }
        if q.equals.isEmpty { return nil }
        guard bytes.count >= q.offset + q.equals.count else {
            return { "answer '\(q.answer)' has \(bytes.count) bytes, too short for the check at line \(q.line)" }
        }
        let got = Array(bytes[q.offset..<(q.offset + q.equals.count)])
        let masked = q.mask.map { m in zip(got, m).map { $0 & $1 } } ?? got
        if q.oneOf.isEmpty ? masked != q.equals : !q.oneOf.contains(masked) {
            let wanted = q.oneOf.isEmpty ? q.equals.hexString : "one of " + q.oneOf.map(\.hexString).joined(separator: ", ")
            return { "bytes \(q.offset)… of '\(q.answer)' are \(got.hexString), not \(wanted) (line \(q.line))" }
        }
        return nil
    }

    /// Why a `key-md5` check does not hold: no key opened the answer's sector, or none of the
    /// keys that did has one of the digests. A replay's keys are stand-ins: the check holds for
    /// the profile the recording names, and no other.
    private func keyHashFailure(of q: Profile.Requirement, in p: Profile) -> (() -> String)? {
        // The answer must be there: a step skipped or refused leaves no key of its own.
        let read: Bool
        if case .absent? = answers[q.answer] { read = false } else { read = answers[q.answer] != nil }
        guard read, let keys = session.classicOpeningKeys[q.answer], !keys.isEmpty else {
            return { "no key opened the sector of '\(q.answer)' (line \(q.line))" }
        }
        if let recorded = session.keyHashesHoldFor {
            return recorded == p.id ? nil : { "a recording's keys are written '..': the key check at line \(q.line) cannot be made" }
        }
        if keys.contains(where: { q.keyDigests.contains(ClassicKeyHash.digest(key: $0, salt: q.salt)) }) { return nil }
        return { "the key that opened the sector of '\(q.answer)' is not one the profile knows by its hash (line \(q.line))" }
    }

    // MARK: Reading

    /// Reads the card with `profile`: detection steps first (a mismatch is `notThisCard`),
    /// then every step, then the report. A failure keeps what was read (`partial`).
    public func read(_ p: Profile) -> ReadResult {
        answers = Answers()
        if p.technology.carrier != session.technology {
            // An ISO 7816 profile on a FeliCa card (or the reverse) would send commands the card
            // cannot understand: not this card, before anything is sent.
            return ReadResult(
                report: nil,
                error: .notThisCard(
                    profile: p.id, reason: "the card speaks \(session.technology.words) and the profile reads \(p.technology.words) cards"))
        }
        do {
            if let why = try recognises(p) { return ReadResult(report: nil, error: .notThisCard(profile: p.id, reason: why())) }
        } catch {
            if case .notThisCard = error { return ReadResult(report: nil, error: error) }
            return ReadResult(report: report(p, variant: nil, partial: true), error: error)
        }
        return readAfterDetection(p)
    }

    /// What looking for one more application on the card found (``readIfPresent(_:)``).
    public enum Presence {
        /// The profile's detection does not fit the card.
        case absent
        /// The card could not be asked (it left, the replay ended): look no further.
        case unreachable
        /// The profile recognised the card: its read, complete or partial.
        case read(ReadResult)
    }

    /// Reads the card with `p` if its detection fits — another application on a card already
    /// read with one profile. Commands sent before (the session's cache) are not sent again.
    public func readIfPresent(_ p: Profile) -> Presence {
        answers = Answers()
        guard p.technology.carrier == session.technology else { return .absent }
        do {
            if try recognises(p) != nil { return .absent }
        } catch {
            if case .notThisCard = error { return .absent }
            return .unreachable
        }
        return .read(readAfterDetection(p))
    }

    /// The steps after detection, then the report.
    private func readAfterDetection(_ p: Profile) -> ReadResult {
        var failure: ReadError? = nil
        for step in p.steps.dropFirst(p.detect.lastStep + 1) {
            do { _ = try run(step, in: p, detecting: false) } catch {
                failure = error
                break
            }
        }
        var variant: String? = nil
        if failure == nil, !p.variants.isEmpty {
            do { variant = try runner(p.technology).identifyVariant(p) } catch { failure = error }
        }
        return ReadResult(report: report(p, variant: variant, partial: failure != nil), error: failure)
    }

    private func report(_ p: Profile, variant: String?, partial: Bool) -> CardReport {
        var builder = ReportBuilder(profile: p)
        builder.collects = collectsFieldBytes
        return builder.build(
            from: answers, variant: variant, exchanges: session.exchanges, partial: partial, showPersonal: showsPersonalData,
            showFullNumbers: showsFullNumbers)
    }

    /// Whether `only-if` names a whole answer of records that kept at least one (RKF's purse,
    /// kept only when its block 0 says it is one).
    static func keptRecords(_ condition: ValueReference, _ answers: Answers) -> Bool {
        guard case .answer(let name, nil) = condition.place, case .records(let r)? = answers[name] else { return false }
        return !r.isEmpty
    }

    /// Runs one step and records its answer. Returns why the card had nothing when the step
    /// may go without (`detecting`, or the step is optional); throws when it may not.
    @discardableResult
    func run(_ step: Step, in p: Profile, detecting: Bool) throws(ReadError) -> Absence? {
        if let condition = step.onlyIf, condition.bytes(in: answers) == nil, !Self.keptRecords(condition, answers) {
            answers[step.name] = .absent(.missingInput("only if \(condition), and the card did not give it"))
            return nil
        }
        if case .each(let each) = step.action { return try runEach(each, step, in: p, detecting: detecting) }
        if case .classic(.readChosenSector(let choice, let keyB)) = step.action {
            switch choice.sector(in: answers) {
            case .success(let sector):
                var resolved = step
                resolved.action = .classic(.readSector(sector: sector, keyB: keyB))
                return try runResolved(resolved, in: p, detecting: detecting)
            case .failure(let why):
                answers[step.name] = .absent(why)
                if detecting || step.optional { return why }
                throw .stepFailed(profile: p.id, step: step.name, line: step.line, command: nil, reason: why)
            }
        }
        if case .iso7816(.dependent(let d)) = step.action {
            switch d.resolve(in: answers, terminal: { self.terminal.value(for: $0, length: $1, in: p) }) {
            case .success(let plain):
                var resolved = step
                resolved.action = .iso7816(plain)
                return try runResolved(resolved, in: p, detecting: detecting)
            case .failure(let why):
                answers[step.name] = .absent(why)
                if detecting || step.optional { return why }
                throw .stepFailed(profile: p.id, step: step.name, line: step.line, command: nil, reason: why)
            }
        }
        return try runResolved(step, in: p, detecting: detecting)
    }

    /// ``run(_:in:detecting:)`` for a step whose command is known (a dependent step resolved):
    /// the step is copied only when it had to be resolved (a step is a large value).
    private func runResolved(_ step: Step, in p: Profile, detecting: Bool) throws(ReadError) -> Absence? {
        if let u = step.useIfPresent, let outer = answers.data(u.answer),
            let node = try? BERTLV.parse(outer), let hit = node.first(path: u.tlvPath)
        {
            answers[step.name] = .data(hit.value)
            return nil
        }
        let result: StepResult
        do { result = try runner(step.action.technology).run(step, in: p) } catch {
            // A replay that diverged: say which profile and step sent the command.
            if case .replay(let m, nil) = error { throw .replay(m, at: StepPlace(profile: p.id, step: step.name, line: step.line)) }
            throw error
        }
        answers[step.name] = step.shaped(result.answer, answers: answers)
        if let interrupted = result.interrupted { throw interrupted }
        guard let refusal = result.refusal else { return nil }
        if detecting || step.optional {
            // Records read before the card refused still count.
            if case .records(let r) = result.answer, !r.isEmpty { return nil }
            return refusal
        }
        throw .stepFailed(profile: p.id, step: step.name, line: step.line, command: result.command?(), reason: refusal)
    }

    /// A `for-each` step: its steps once per entry, each run in its own copy of the answers
    /// (the entry under the step's name), kept in ``Answers/runs``. A failure keeps the runs
    /// so far (the one that failed included) and ends the read.
    private func runEach(_ each: EachStep, _ step: Step, in p: Profile, detecting: Bool) throws(ReadError) -> Absence? {
        guard let entries = each.entries(in: answers) else {
            let why = Absence.missingInput("\(each.list) is not in the answers")
            if detecting || step.optional { return why }
            throw .stepFailed(profile: p.id, step: step.name, line: step.line, command: nil, reason: why)
        }
        let outer = answers
        var runs: [Answers] = []
        for entry in entries {
            answers = outer
            answers[step.name] = .data(entry)
            do {
                for s in each.steps { try run(s, in: p, detecting: false) }
            } catch {
                runs.append(answers)
                answers = outer
                answers.runs = runs
                throw error
            }
            runs.append(answers)
        }
        answers = outer
        answers.runs = runs
        return nil
    }

}

extension Profile.Technology {
    /// `ISO 7816`, `FeliCa`: as messages name the technology.
    public var words: String {
        switch self {
        case .iso7816: return "ISO 7816"
        case .felica: return "FeliCa"
        case .desfire: return "MIFARE DESFire"
        case .ultralight: return "MIFARE Ultralight"
        case .classic: return "MIFARE Classic"
        }
    }
}

extension Profile {
    /// Whether one of the profile's `detect.atr` patterns matches `atr` (`..` any byte).
    public func matchesATR(_ atr: [UInt8]) -> Bool {
        detect.atr.contains { pattern in pattern.count == atr.count && zip(pattern, atr).allSatisfy { $0 == nil || $0! == $1 } }
    }
}
