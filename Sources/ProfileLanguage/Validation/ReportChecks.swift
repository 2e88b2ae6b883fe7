/// Checks of `trips` and `contracts`: their answers are records, their layouts exist, and every
/// name their fields use is a value of the record's layout, a field or a joined answer.
struct ReportChecks {
    let checks: ProfileValidator.Checks
    var p: Profile { checks.profile }
    var fields: FieldChecks { FieldChecks(checks: checks) }

    func all() {
        if let main = p.trips {
            for t in [main] + main.more { trips(t) }
            let names = Set(([main] + main.more).flatMap { $0.fields.map(\.name) })
            for key in ["kind", "amount"] where !main.creditKinds.isEmpty && !names.contains(key) {
                checks.issue(main.line, "trips.credit-kinds", "credit-kinds needs a trip field named '\(key)'")
            }
        }
        if let main = p.contracts { for c in [main] + main.more { contracts(c) } }
    }

    /// The records' layout: the source's own, else its step's; nil (with the problem) when named but missing.
    private func layout(_ name: String?, of s: Step, _ line: Int, _ path: String) -> BitLayout? {
        if let name {
            guard let l = p.layouts[name] else {
                checks.issue(line, path, "no layout is named '\(name)' (layouts: \(p.layouts.keys.sorted().joined(separator: ", ")))")
                return nil
            }
            return l
        }
        return s.layout.flatMap { p.layouts[$0] }
    }

    func trips(_ t: TripSpec) {
        let P = t.path
        guard let s = checks.step(t.from) else {
            checks.issue(t.line, "\(P).from", "no step is named '\(t.from)' (steps: \(checks.stepList))")
            return
        }
        if !s.isRecords {
            checks.issue(
                t.line, "\(P).from", "answer '\(t.from)' is one block of bytes: cut it into records on its step (records: { size: N })")
        }
        let record = layout(t.layout, of: s, t.line, "\(P).layout")
        for j in t.join {
            if let js = checks.step(j) {
                if !js.isRecords { checks.issue(t.line, "\(P).join", "answer '\(j)' is not a list of records") }
            } else {
                checks.issue(t.line, "\(P).join", "no step is named '\(j)'")
            }
            if j == t.from { checks.issue(t.line, "\(P).join", "'\(j)' is the trips' own answer") }
        }
        if let d = t.dol, let a = d.answerName, checks.step(a) == nil { checks.issue(d.line, "\(P).dol", "no step is named '\(a)'") }
        for f in t.fields {
            let path = "\(P).fields.\(f.name)"
            if case .answer(let a, _) = f.spec.source {
                guard t.join.contains(a) else {
                    checks.issue(
                        f.spec.line, "\(path).from",
                        "trip fields read the current record; 'from' may only name an answer listed in \(P).join (record i pairs with record i)"
                    )
                    continue
                }
                // The joined answer's record i, read by its own step's layout.
                if let js = checks.step(a) {
                    let own = js.layout.flatMap { p.layouts[$0] }
                    recordField(f.spec, path, js, layouts: own.map { [$0] } ?? [], bytes: js.declaredLength)
                }
                continue
            }
            recordField(f.spec, path, s, layouts: record.map { [$0] } ?? [], bytes: s.declaredLength)
        }
        let names = t.fields.map(\.name)
        for z in t.skipZero where !names.contains(z) {
            let near = Spelling.nearest(z, among: names)
            checks.issue(t.line, "\(P).skip", "no trip field is named '\(z)'" + (near.map { ": did you mean '\($0)'?" } ?? ""))
        }
        fields.derived(t.fields.map { ($0.name, $0.spec) }, scope: "\(P).fields", allowOlder: true)
    }

    /// A field of a record: its bytes inside the record, or its layout values (and `when`'s) there.
    private func recordField(_ f: FieldSpec, _ path: String, _ s: Step, layouts: [BitLayout], bytes: Int?) {
        var names = f.condition.map { [$0.field] } ?? []
        switch f.bitSource {
        case .named(let n)?:
            if n.hasPrefix("entry.") { return }  // checked with the contract list
            names += [n] + (f.timeField.map { [$0] } ?? [])
        case .position(let offset, let length)?:
            if let n = bytes, offset + length > n * 8 {
                checks.issue(f.line, path, "reads bits \(offset)…\(offset + length - 1) but a record is \(n * 8) bits")
            }
        case nil:
            if case .record = f.source, let n = bytes, f.offset + (f.length ?? 1) > n {
                checks.issue(f.line, path, "reads bytes \(f.offset)…\(f.offset + (f.length ?? 1) - 1) but a record is \(n) bytes")
            }
        }
        guard !names.isEmpty else { return }
        guard !layouts.isEmpty else {
            checks.issue(f.line, path, "the records of '\(s.name)' have no layout to take '\(names[0])' from: give its step a 'layout'")
            return
        }
        fields.values(names, f, path, layouts)
    }

    func contracts(_ c: ContractSpec) {
        guard let s = checks.step(c.from) else {
            checks.issue(c.line, "\(c.path).from", "no step is named '\(c.from)' (steps: \(checks.stepList))")
            return
        }
        if !s.isRecords { checks.issue(c.line, "\(c.path).from", "answer '\(c.from)' is not a list of records") }
        var entryLayout: BitLayout?
        var entryPrefix = ""
        if let l = c.list {
            if let ls = checks.step(l.from), let name = ls.layout, let layout = p.layouts[name] {
                entryLayout = layout
                entryPrefix = "\(l.repeatName)[]."
                if layout.width(of: "\(l.repeatName).count") == nil {
                    checks.issue(c.line, "\(c.path).list.repeat", "layout '\(name)' has no repeat '\(l.repeatName)'")
                } else if layout.width(of: entryPrefix + l.pointer) == nil {
                    checks.issue(c.line, "\(c.path).list.pointer", "the entries of '\(l.repeatName)' have no value '\(l.pointer)'")
                }
            } else {
                checks.issue(c.line, "\(c.path).list.from", "'\(l.from)' must name a step with a layout (the list is bit-packed)")
            }
        }
        var names: [String] = c.layout.map { [$0] } ?? s.layout.map { [$0] } ?? []
        if let choice = c.layoutBy {
            if !choice.field.hasPrefix("entry.") || c.list == nil {
                checks.issue(c.line, "\(c.path).layout.by", "the layout is chosen by a value of the list entry: entry.NAME, with a list")
            } else if let el = entryLayout, el.width(of: entryPrefix + choice.field.dropFirst(6)) == nil {
                checks.issue(c.line, "\(c.path).layout.by", "the list's entries have no value '\(choice.field.dropFirst(6))'")
            }
            names = Array(choice.cases.values).sorted() + (choice.otherwise.map { [$0] } ?? [])
        }
        for l in names where p.layouts[l] == nil { checks.issue(c.line, "\(c.path).layout", "no layout is named '\(l)'") }
        let known = names.compactMap { p.layouts[$0] }
        for f in c.fields {
            let path = "\(c.path).fields.\(f.name)"
            if case .answer = f.spec.source {
                if f.spec.slice == nil { fields.read(f.spec, path) }
                // Its `when` still looks at the contract's record.
                if let when = f.spec.condition, !known.isEmpty { fields.values([when.field], f.spec, path, known) }
                continue
            }
            if case .named(let name)? = f.spec.bitSource, name.hasPrefix("entry.") {
                if let entryLayout {
                    if entryLayout.width(of: entryPrefix + name.dropFirst(6)) == nil {
                        checks.issue(f.spec.line, path, "the list's entries have no value '\(name.dropFirst(6))'")
                    }
                } else {
                    checks.issue(f.spec.line, path, "'entry.' values come from the contract list: give contracts a list")
                }
            }
            recordField(f.spec, path, s, layouts: known, bytes: s.declaredLength)
        }
        fields.derived(c.fields.map { ($0.name, $0.spec) }, scope: "\(c.path).fields", allowOlder: false)
    }
}
