import APDU
import Yams

/// Cross-checks a parsed profile: every name refers to something, fields fit the answers
/// they read, derived fields have no cycle, detection names answers that come early enough.
enum ProfileValidator {
    static func validate(_ p: inout Profile, root: Node, reader r: YAMLReader) {
        var stepIndex: [String: Int] = [:]
        for (i, s) in p.steps.enumerated() where stepIndex[s.name] == nil { stepIndex[s.name] = i }
        // Every answer name, those of the steps under a `for-each` too, is used once.
        var named: [String: Step] = [:]
        for s in p.allSteps {
            if named[s.name] != nil {
                r.issues.append(issue(r, s.line, "steps", "answer name '\(s.name)' is used by an earlier step"))
            } else {
                named[s.name] = s
            }
        }
        func step(_ name: String) -> Step? { named[name] }
        // A DESFire card is carried in ISO 7816 APDUs: a desfire profile may also send a
        // `command` (the reader's GET DATA for the UID).
        func carried(_ s: Step) -> Bool {
            if p.technology == .desfire, case .iso7816(.command) = s.action { return true }
            return false
        }
        for (i, s) in p.steps.enumerated() where s.action.technology != p.technology && !carried(s) {
            r.issues.append(
                issue(
                    r, s.line, "steps[\(i)]",
                    {
                        switch (p.technology, s.action.technology) {
                        case (.felica, _): return "a felica profile reads with poll and read-blocks, not ISO 7816 or DESFire commands"
                        case (.desfire, _): return "a desfire profile reads with desfire-select, desfire-read and command"
                        case (_, .felica): return "poll and read-blocks are FeliCa steps: set technology: felica"
                        default: return "desfire-select and desfire-read are DESFire steps: set technology: desfire"
                        }
                    }()))
        }
        for (i, s) in p.steps.enumerated() {
            if let u = s.useIfPresent, (stepIndex[u.answer] ?? Int.max) >= i {
                r.issues.append(issue(r, s.line, "steps[\(i)].use-if-present", "'\(u.answer)' must name an earlier step"))
            }
        }

        // Detection: which steps it needs.
        // Detection runs up to the last step a check names; with no checks, up to the first
        // step that is not optional (its success recognises the card).
        var last = p.detect.require.isEmpty ? (p.steps.firstIndex { !$0.optional } ?? -1) : 0
        for (i, q) in p.detect.require.enumerated() {
            guard let idx = stepIndex[q.answer] else {
                r.issues.append(issue(r, q.line, "detect.require[\(i)].answer", "no step is named '\(q.answer)'"))
                continue
            }
            last = max(last, idx)
            if let field = q.field {
                let s = p.steps[idx]
                if let l = s.layout, let layout = p.layouts[l] {
                    if layout.width(of: field) == nil {
                        r.issues.append(issue(r, q.line, "detect.require[\(i)].field", "layout '\(l)' has no field '\(field)'"))
                    }
                } else {
                    r.issues.append(
                        issue(r, q.line, "detect.require[\(i)].field", "answer '\(q.answer)' has no layout: give its step a 'layout'"))
                }
                continue
            }
            if p.steps[idx].isRecords != (q.record != nil) {
                r.issues.append(
                    issue(
                        r, q.line, "detect.require[\(i)]",
                        p.steps[idx].isRecords
                            ? "answer '\(q.answer)' holds records: say which with record: N (1 = the first)"
                            : "answer '\(q.answer)' is one answer, not records: remove 'record'"))
            }
            if let n = p.steps[idx].declaredLength, q.offset + q.equals.count > n {
                r.issues.append(
                    issue(
                        r, q.line, "detect.require[\(i)]",
                        "checks bytes \(q.offset)…\(q.offset + q.equals.count - 1) but answer '\(q.answer)' is \(n) bytes"))
            }
        }
        p.detect.lastStep = last

        // What steps that depend on earlier answers name: a step read before them.
        var before: Set<String> = []
        func checkReferences(_ steps: [Step], path: String) {
            for (i, s) in steps.enumerated() {
                var refs: [ValueReference] = s.onlyIf.map { [$0] } ?? []
                switch s.action {
                case .iso7816(.dependent(.select(let r, _))): refs.append(r)
                case .iso7816(.dependent(.dolCommand(_, let r, _))): refs.append(r)
                case .iso7816(.dependent(.locatedRecords(let rs))): refs += rs
                case .iso7816(.dependent(.records(let r, let l, _))): refs += [r] + (l.map { [$0] } ?? [])
                case .each(let e): refs.append(e.list)
                default: break
                }
                for ref in refs {
                    guard let a = ref.answerName, !before.contains(a) else { continue }
                    r.issues.append(
                        issue(
                            r, ref.line, "\(path)[\(i)]",
                            named[a] == nil ? "no step is named '\(a)'" : "'\(a)' is read after this step: name an earlier answer"))
                }
                if case .each(let e) = s.action {
                    before.insert(s.name)
                    checkReferences(e.steps, path: "\(path)[\(i)].steps")
                }
                before.insert(s.name)
            }
        }
        checkReferences(p.steps, path: "steps")

        for (i, s) in p.steps.enumerated() {
            if let l = s.layout, p.layouts[l] == nil {
                r.issues.append(
                    issue(
                        r, s.line, "steps[\(i)].layout",
                        "no layout is named '\(l)' (layouts: \(p.layouts.keys.sorted().joined(separator: ", ")))"))
            }
        }
        /// A field read by bits: inside the answer, a value its layout has, a width its type holds.
        func checkBits(_ f: FieldSpec, _ path: String, _ s: Step, bytes: Int?) {
            switch f.bitSource {
            case .position(let offset, let length)?:
                if let n = bytes, offset + length > n * 8 {
                    r.issues.append(
                        issue(r, f.line, path, "reads bits \(offset)…\(offset + length - 1) but answer '\(s.name)' is \(n * 8) bits"))
                }
            case .named(let name)?:
                guard let layoutName = s.layout, let layout = p.layouts[layoutName] else {
                    r.issues.append(
                        issue(
                            r, f.line, "\(path).field", "answer '\(s.name)' has no layout to take '\(name)' from: give its step a 'layout'")
                    )
                    return
                }
                for n in [name] + (f.timeField.map { [$0] } ?? []) where layout.width(of: n) == nil {
                    r.issues.append(issue(r, f.line, path, "layout '\(layoutName)' has no field '\(n)'"))
                }
                if let width = layout.width(of: name), let problem = FieldParser.widthProblem(f.type, width) {
                    r.issues.append(issue(r, f.line, path, "'\(name)' is \(width) bits: \(problem)"))
                }
            case nil: break
            }
        }
        // Fields that read answers.
        func checkRead(_ f: FieldSpec, _ path: String) {
            guard case .answer(let name, let tlv) = f.source else { return }
            guard let s = step(name) else {
                r.issues.append(
                    issue(
                        r, f.line, "\(path).from", "no step is named '\(name)' (steps: \(p.allSteps.map(\.name).joined(separator: ", ")))"))
                return
            }
            if s.isRecords && f.record == nil {
                r.issues.append(
                    issue(
                        r, f.line, "\(path).from",
                        "answer '\(name)' holds records: read it in trips (trips.from: \(name)), or pick one with record: N (1 = the first)"
                    ))
            } else if !s.isRecords, f.record != nil {
                r.issues.append(issue(r, f.line, "\(path).record", "answer '\(name)' is one answer, not records: remove 'record'"))
            } else if f.bitSource != nil {
                checkBits(f, path, s, bytes: s.declaredLength)
            } else if tlv == nil, let n = s.declaredLength, f.offset + (f.length ?? 1) > n {
                r.issues.append(
                    issue(
                        r, f.line, "\(path)",
                        "reads bytes \(f.offset)…\(f.offset + (f.length ?? 1) - 1) but answer '\(name)' is \(n) bytes (Le of step '\(name)')"
                    ))
            }
        }
        for f in p.card { checkRead(f.spec, "card.\(f.name)") }
        if let b = p.balance {
            checkRead(b, "balance")
            if case .derived = b.source {
            } else if !b.type.isInteger || b.map != nil || b.checkDigit != nil || b.type == .days || b.type == .seconds {
                r.issues.append(issue(r, b.line, "balance", "the balance must decode to a number (type uint, int or bcd, no map)"))
            }
        }
        checkDerived(p.card.map { ($0.name, $0.spec) } + (p.balance.map { [("balance", $0)] } ?? []), scope: "card", allowOlder: false, r)

        if let main = p.trips {
            for t in [main] + main.more {
                let P = t.path
                var recordLength = t.recordLength
                if let s = step(t.from) {
                    if s.isRecords {
                        recordLength = recordLength ?? s.declaredLength
                    } else if t.recordLength == nil {
                        r.issues.append(
                            issue(
                                r, t.line, "\(P).record-length",
                                "answer '\(t.from)' is one block of bytes: say how long each record is with record-length"))
                    }
                } else {
                    r.issues.append(issue(r, t.line, "\(P).from", "no step is named '\(t.from)'"))
                }
                for (i, j) in t.join.enumerated() {
                    if let s = step(j) {
                        if !s.isRecords {
                            r.issues.append(
                                issue(r, t.line, "\(P).join[\(i)]", "answer '\(j)' is not a list of records (use read-records)"))
                        }
                    } else {
                        r.issues.append(issue(r, t.line, "\(P).join[\(i)]", "no step is named '\(j)'"))
                    }
                    if j == t.from { r.issues.append(issue(r, t.line, "\(P).join[\(i)]", "'\(j)' is the trips' own answer")) }
                }
                if let d = t.dol, let a = d.answerName, step(a) == nil {
                    r.issues.append(issue(r, d.line, "\(P).dol", "no step is named '\(a)'"))
                }
                for f in t.fields {
                    if case .answer(let a, _) = f.spec.source, !t.join.contains(a) {
                        r.issues.append(
                            issue(
                                r, f.spec.line, "\(P).fields.\(f.name).from",
                                "trip fields read the current record; 'from' may only name an answer listed in \(P).join (record i pairs with record i)"
                            ))
                    }
                    if f.spec.bitSource != nil, let s = step(t.from) {
                        checkBits(f.spec, "\(P).fields.\(f.name)", s, bytes: recordLength)
                    } else if let n = recordLength, case .record = f.spec.source, f.spec.offset + (f.spec.length ?? 1) > n {
                        r.issues.append(
                            issue(
                                r, f.spec.line, "\(P).fields.\(f.name)",
                                "reads bytes \(f.spec.offset)…\(f.spec.offset + (f.spec.length ?? 1) - 1) but a record is \(n) bytes"))
                    }
                }
                let names = Set(t.fields.map(\.name))
                for z in t.skipWhenZero where !names.contains(z) {
                    r.issues.append(issue(r, t.line, "\(P).skip-when-zero", "no trip field is named '\(z)'"))
                }
                checkDerived(t.fields.map { ($0.name, $0.spec) }, scope: "\(P).fields", allowOlder: true, r)
            }
            let names = Set(([main] + main.more).flatMap { $0.fields.map(\.name) })
            if !main.creditKinds.isEmpty, !names.contains("kind") {
                r.issues.append(issue(r, main.line, "trips.credit-kinds", "credit-kinds needs a trip field named 'kind'"))
            }
            if !main.creditKinds.isEmpty, !names.contains("amount") {
                r.issues.append(issue(r, main.line, "trips.credit-kinds", "credit-kinds needs a trip field named 'amount'"))
            }
        }
        if let main = p.contracts {
            for c in [main] + main.more { checkContracts(c, p, step, checkRead, r) }
        }
        checkVariants(p, r)
    }

    /// Contracts: a records answer, a list whose layout has the repeat and pointer, layouts
    /// that exist, and fields that name values those layouts (or the list entry) have.
    static func checkContracts(
        _ c: ContractSpec, _ p: Profile, _ step: (String) -> Step?, _ checkRead: (FieldSpec, String) -> Void, _ r: YAMLReader
    ) {
        guard let s = step(c.from) else {
            r.issues.append(issue(r, c.line, "\(c.path).from", "no step is named '\(c.from)'"))
            return
        }
        if !s.isRecords {
            r.issues.append(issue(r, c.line, "\(c.path).from", "answer '\(c.from)' is not a list of records (use read-records)"))
        }
        var entryLayout: BitLayout?
        var entryPrefix = ""
        if let l = c.list {
            if let ls = step(l.from), let name = ls.layout, let layout = p.layouts[name] {
                entryLayout = layout
                entryPrefix = "\(l.repeatName)[]."
                if layout.width(of: "\(l.repeatName).count") == nil {
                    r.issues.append(issue(r, c.line, "\(c.path).list.repeat", "layout '\(name)' has no repeat '\(l.repeatName)'"))
                } else if layout.width(of: entryPrefix + l.pointer) == nil {
                    r.issues.append(
                        issue(r, c.line, "\(c.path).list.pointer", "the entries of '\(l.repeatName)' have no value '\(l.pointer)'"))
                }
            } else {
                r.issues.append(
                    issue(r, c.line, "\(c.path).list.from", "'\(l.from)' must name a step with a layout (the list is bit-packed)"))
            }
        }
        var layouts: [String] = []
        if let choice = c.layoutBy {
            if !choice.field.hasPrefix("entry.") || c.list == nil {
                r.issues.append(
                    issue(r, c.line, "\(c.path).layout.by", "the layout is chosen by a value of the list entry: entry.NAME, with a list"))
            } else if let el = entryLayout, el.width(of: entryPrefix + choice.field.dropFirst(6)) == nil {
                r.issues.append(issue(r, c.line, "\(c.path).layout.by", "the list's entries have no value '\(choice.field.dropFirst(6))'"))
            }
            layouts = Array(choice.cases.values) + (choice.defaultLayout.map { [$0] } ?? [])
        } else if let l = s.layout {
            layouts = [l]
        }
        for l in layouts where p.layouts[l] == nil {
            r.issues.append(issue(r, c.line, "\(c.path).layout", "no layout is named '\(l)'"))
        }
        let known = layouts.compactMap { p.layouts[$0] }
        for f in c.fields {
            let path = "\(c.path).fields.\(f.name)"
            if case .answer = f.spec.source {
                if f.spec.slice == nil { checkRead(f.spec, path) }
                continue
            }
            guard case .named(let name)? = f.spec.bitSource else { continue }
            if name.hasPrefix("entry.") {
                if entryLayout == nil {
                    r.issues.append(issue(r, f.spec.line, path, "'entry.' values come from the contract list: give contracts a list"))
                } else if entryLayout!.width(of: entryPrefix + name.dropFirst(6)) == nil {
                    r.issues.append(issue(r, f.spec.line, path, "the list's entries have no value '\(name.dropFirst(6))'"))
                }
            } else if !known.isEmpty, !known.contains(where: { $0.width(of: name) != nil }) {
                r.issues.append(
                    issue(r, f.spec.line, path, "no contract layout (\(layouts.joined(separator: ", "))) has a field '\(name)'"))
            } else if known.isEmpty {
                r.issues.append(issue(r, f.spec.line, path, "the contract records have no layout to take '\(name)' from"))
            }
        }
        checkDerived(c.fields.map { ($0.name, $0.spec) }, scope: "\(c.path).fields", allowOlder: false, r)
    }

    /// Variants are told apart by FeliCa services: they need a felica profile with a poll,
    /// distinct names, and no service claimed by two of them (it could not tell them apart).
    static func checkVariants(_ p: Profile, _ r: YAMLReader) {
        guard let first = p.variants.first else { return }
        if p.technology != .felica {
            r.issues.append(issue(r, first.line, "variants", "variants are told apart by FeliCa services: set technology: felica"))
        } else if !p.steps.contains(where: { if case .felica(.poll) = $0.action { return true } else { return false } }) {
            r.issues.append(issue(r, first.line, "variants", "variants are asked of the polled system: add a poll step"))
        }
        var owner: [UInt16: String] = [:]
        var names: Set<String> = []
        for (i, v) in p.variants.enumerated() {
            if !names.insert(v.name).inserted {
                r.issues.append(issue(r, v.line, "variants[\(i)].name", "variant '\(v.name)' is listed twice"))
            }
            for s in v.services {
                if let other = owner[s], other != v.name {
                    r.issues.append(
                        issue(
                            r, v.line, "variants[\(i)].services",
                            "service \(hex16(s)) is also listed for '\(other)': a service two variants share cannot tell them apart"))
                } else {
                    owner[s] = v.name
                }
            }
        }
    }

    /// Derived fields: references must exist, and no field may depend on itself.
    static func checkDerived(_ fields: [(String, FieldSpec)], scope: String, allowOlder: Bool, _ r: YAMLReader) {
        var deps: [String: [String]] = [:]
        let names = Set(fields.map(\.0))
        for (name, spec) in fields {
            guard case .derived(_, let refs) = spec.source else { continue }
            var edges: [String] = []
            for ref in refs {
                var target = ref
                if ref.hasPrefix("older.") {
                    target = String(ref.dropFirst("older.".count))
                    if !allowOlder {
                        r.issues.append(issue(r, spec.line, "\(scope).\(name)", "'older.' only exists in trip fields"))
                        continue
                    }
                }
                if !names.contains(target) {
                    r.issues.append(issue(r, spec.line, "\(scope).\(name)", "refers to '\(ref)', which is not a field here"))
                    continue
                }
                edges.append(target)
            }
            deps[name] = edges
        }
        // Depth-first search for a cycle.
        var state: [String: Int] = [:]  // 1 = visiting, 2 = done
        func visit(_ n: String, _ trail: [String]) -> [String]? {
            if state[n] == 2 { return nil }
            if state[n] == 1 { return trail + [n] }
            state[n] = 1
            for d in deps[n] ?? [] { if let c = visit(d, trail + [n]) { return c } }
            state[n] = 2
            return nil
        }
        for (name, spec) in fields where deps[name] != nil {
            if let cycle = visit(name, []) {
                let start = cycle.firstIndex(of: cycle.last!)!
                r.issues.append(
                    issue(r, spec.line, "\(scope).\(name)", "derived fields form a cycle: \(cycle[start...].joined(separator: " → "))"))
                return
            }
        }
    }

    /// `0x1CC8`, as an author writes a service code.
    static func hex16(_ v: UInt16) -> String { "0x" + Hex.format(v) }

    static func issue(_ r: YAMLReader, _ line: Int, _ path: String, _ reason: String) -> ProfileIssue {
        ProfileIssue(file: r.file(of: path), line: line, column: 1, path: path, reason: reason)
    }
}
