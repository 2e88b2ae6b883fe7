import APDU

/// Cross-checks a parsed profile, every problem at the line of what it names: every name
/// refers to something (answers, layouts, layout values, fields), fields fit the answers they
/// read, derived fields have no cycle, detection names answers that come early enough.
enum ProfileValidator {
    static func validate(_ p: inout Profile, context: ParseContext) {
        let v = Checks(profile: p, context: context)
        v.stepNames()
        v.technology()
        p.detect.lastStep = v.detection()
        v.references()
        v.layoutsOfSteps()
        FieldChecks(checks: v).all()
        ReportChecks(checks: v).all()
        VariantChecks.check(p, context)
    }

    /// What every check needs: the profile, its steps by name, where to put problems.
    struct Checks {
        let profile: Profile
        let context: ParseContext
        /// Every answer name (those of the steps under a `for-each` too), the first step of each.
        let named: [String: Step]
        /// Top-level steps' positions by name.
        let index: [String: Int]

        init(profile: Profile, context: ParseContext) {
            self.profile = profile
            self.context = context
            var named: [String: Step] = [:]
            for s in profile.allSteps where named[s.name] == nil { named[s.name] = s }
            self.named = named
            var index: [String: Int] = [:]
            for (i, s) in profile.steps.enumerated() where index[s.name] == nil { index[s.name] = i }
            self.index = index
        }

        func step(_ name: String) -> Step? { named[name] }
        func issue(_ line: Int, _ path: String, _ reason: String) { context.issue(line: line, path, reason) }
        var stepList: String { profile.allSteps.map(\.name).joined(separator: ", ") }

        /// Every answer name is used once.
        func stepNames() {
            var seen: Set<String> = []
            for s in profile.allSteps where !seen.insert(s.name).inserted {
                issue(s.line, "steps", "answer name '\(s.name)' is used by an earlier step")
            }
        }

        /// Each step speaks the profile's technology (a DESFire profile may also send a `command`:
        /// the reader's GET DATA for the UID).
        func technology() {
            for (i, s) in profile.steps.enumerated() where s.action.technology != profile.technology {
                if profile.technology == .desfire, case .iso7816(.command) = s.action { continue }
                let reason: String
                switch (profile.technology, s.action.technology) {
                case (.felica, _): reason = "a felica profile reads with poll and read-blocks, not ISO 7816 or DESFire commands"
                case (.desfire, _): reason = "a desfire profile reads with desfire-select, desfire-read and command"
                case (.ultralight, _): reason = "an ultralight profile reads with read-pages"
                case (.classic, _): reason = "a classic profile reads with read-sector and ndef-record"
                case (_, .felica): reason = "poll and read-blocks are FeliCa steps: set technology: felica"
                case (_, .ultralight): reason = "read-pages is an Ultralight step: set technology: ultralight"
                case (_, .classic): reason = "read-sector and ndef-record are Classic steps: set technology: classic"
                default: reason = "desfire-select and desfire-read are DESFire steps: set technology: desfire"
                }
                issue(s.line, "steps[\(i)]", reason)
            }
        }

        /// The last step detection runs: up to the last a check names; with no checks, up to
        /// the first that is not optional (its success recognises the card).
        func detection() -> Int {
            let d = profile.detect
            var last = d.require.isEmpty ? (profile.steps.firstIndex { !$0.optional } ?? -1) : 0
            for (i, q) in d.require.enumerated() {
                let path = "detect.require[\(i)]"
                guard let idx = index[q.answer] else {
                    issue(q.line, "\(path).from", "no step is named '\(q.answer)' (steps: \(stepList))")
                    continue
                }
                last = max(last, idx)
                let s = profile.steps[idx]
                if let field = q.field {
                    if let l = s.layout, let layout = profile.layouts[l] {
                        if layout.width(of: field) == nil { issue(q.line, "\(path).field", "layout '\(l)' has no value '\(field)'") }
                    } else {
                        issue(q.line, "\(path).field", "answer '\(q.answer)' has no layout: give its step a 'layout'")
                    }
                    continue
                }
                if !q.keyDigests.isEmpty {
                    // The key that opened a sector: a Classic read-sector step's (records or not).
                    switch s.action {
                    case .classic(.readSector), .classic(.readChosenSector): break
                    default:
                        issue(q.line, "\(path).key-md5", "a key's hash is checked on a read-sector step's answer; '\(q.answer)' is not one")
                    }
                    continue
                }
                if s.isRecords != (q.record != nil) {
                    issue(
                        q.line, path,
                        s.isRecords
                            ? "answer '\(q.answer)' holds records: say which with record: N (1 = the first)"
                            : "answer '\(q.answer)' is one answer, not records: remove 'record'")
                }
                if let n = s.declaredLength, q.offset + q.equals.count > n {
                    issue(q.line, path, "checks bytes \(q.offset)…\(q.offset + q.equals.count - 1) but answer '\(q.answer)' is \(n) bytes")
                }
            }
            return last
        }

        /// Steps that use earlier answers name a step read before them.
        func references() {
            var before: Set<String> = []
            func walk(_ steps: [Step], path: String) {
                for (i, s) in steps.enumerated() {
                    var refs: [ValueReference] = s.onlyIf.map { [$0] } ?? []
                    switch s.action {
                    case .iso7816(.dependent(.select(let r, _))): refs.append(r)
                    case .iso7816(.dependent(.dolCommand(_, let r, _))): refs.append(r)
                    case .iso7816(.dependent(.locatedRecords(let rs))): refs += rs
                    case .iso7816(.dependent(.records(let r, let l, _))): refs += [r] + (l.map { [$0] } ?? [])
                    case .each(let e): refs.append(e.list)
                    case .classic(.readChosenSector(let c, _)): refs.append(ValueReference(place: .answer(c.answer, nil), line: s.line))
                    default: break
                    }
                    if let u = s.useIfPresent { refs.append(ValueReference(place: .answer(u.answer, nil), line: s.line)) }
                    refs += (s.records?.keep ?? []).compactMap { k in k.by.map { ValueReference(place: .answer($0, nil), line: k.line) } }
                    for ref in refs {
                        guard let a = ref.answerName, !before.contains(a) else { continue }
                        issue(
                            ref.line, "\(path)[\(i)]",
                            named[a] == nil
                                ? "no step is named '\(a)' (steps: \(stepList))" : "'\(a)' is read after this step: name an earlier answer")
                    }
                    if case .each(let e) = s.action {
                        before.insert(s.name)
                        walk(e.steps, path: "\(path)[\(i)].steps")
                    }
                    before.insert(s.name)
                }
            }
            walk(profile.steps, path: "steps")
        }

        /// A step's layout exists.
        func layoutsOfSteps() {
            for (i, s) in profile.steps.enumerated() {
                if let l = s.layout, profile.layouts[l] == nil {
                    issue(
                        s.line, "steps[\(i)].layout",
                        "no layout is named '\(l)' (layouts: \(profile.layouts.keys.sorted().joined(separator: ", ")))")
                }
            }
        }
    }
}
