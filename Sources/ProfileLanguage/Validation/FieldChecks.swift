/// Checks of fields: the answer each reads exists and is the right shape, the bytes or bits are
/// inside it, the layout values it names exist, derived fields name fields and have no cycle.
struct FieldChecks {
    let checks: ProfileValidator.Checks
    var p: Profile { checks.profile }

    func all() {
        for f in p.privateFields { read(f.spec, "let.\(f.name)") }
        for f in p.card { read(f.spec, "card.\(f.name)") }
        if let b = p.balance {
            read(b, "balance")
            if case .derived = b.source {
            } else if !b.type.givesNumber || b.map != nil || b.numberText != nil || b.decimalText {
                checks.issue(b.line, "balance", "the balance must decode to a number (type uint, int, bcd or money, no map or text)")
            }
        }
        let scope =
            p.privateFields.map { ($0.name, $0.spec) } + p.card.map { ($0.name, $0.spec) } + (p.balance.map { [("balance", $0)] } ?? [])
        derived(scope, scope: "card", allowOlder: false)
        for f in p.privateFields where p.card.contains(where: { $0.name == f.name }) {
            checks.issue(f.spec.line, "let.\(f.name)", "'\(f.name)' is also a card field: a private field needs a name of its own")
        }
        epochs()
    }

    /// `epoch: NAME` names a card or `let` value that is read from the card (not counted from
    /// another's date itself): the one every field counting from it needs first.
    func epochs() {
        let cardLevel = p.privateFields + p.card
        var everywhere: [(String, FieldSpec)] = cardLevel.map { ("\($0.name)", $0.spec) }
        if let t = p.trips { everywhere += ([t] + t.more).flatMap { s in s.fields.map { ("trips.fields.\($0.name)", $0.spec) } } }
        if let c = p.contracts { everywhere += ([c] + c.more).flatMap { s in s.fields.map { ("\(s.path).fields.\($0.name)", $0.spec) } } }
        for (path, spec) in everywhere {
            guard let name = spec.layout.epochField else { continue }
            guard let target = cardLevel.first(where: { $0.name == name }) else {
                let near = Spelling.nearest(name, among: cardLevel.map(\.name))
                checks.issue(
                    spec.line, "\(path).epoch",
                    "'\(name)' is not a card or let value (the date counting starts from)" + (near.map { ": did you mean '\($0)'?" } ?? ""))
                continue
            }
            if target.spec.layout.epochField != nil || { if case .derived = target.spec.source { return true } else { return false } }() {
                checks.issue(spec.line, "\(path).epoch", "'\(name)' must be read from the card, not worked out from other values")
            } else if !target.spec.type.isDate, target.spec.type != .days, target.spec.type != .seconds {
                checks.issue(spec.line, "\(path).epoch", "'\(name)' is not a date (its type is \(target.spec.type.rawValue))")
            }
        }
    }

    /// A field that reads an answer: the step exists, is of the right shape, and holds the bytes.
    func read(_ f: FieldSpec, _ path: String) {
        guard case .answer(let name, let tlv) = f.source else { return }
        guard let s = checks.step(name) else {
            checks.issue(f.line, "\(path).from", "no step is named '\(name)' (steps: \(checks.stepList))")
            return
        }
        if s.isRecords && f.record == nil {
            checks.issue(
                f.line, "\(path).from",
                "answer '\(name)' holds records: read it in trips (trips.from: \(name)), or pick one with record: N (1 = the first)")
        } else if !s.isRecords, f.record != nil {
            checks.issue(f.line, "\(path).record", "answer '\(name)' is one answer, not records: remove 'record'")
        } else if f.bitSource != nil {
            bits(f, path, s, layout: s.layout, bytes: s.declaredLength)
        } else if tlv == nil, let n = s.declaredLength, f.offset + (f.length ?? 1) > n {
            checks.issue(
                f.line, path,
                "reads bytes \(f.offset)…\(f.offset + (f.length ?? 1) - 1) but answer '\(name)' is \(n) bytes (Le of step '\(name)')")
        }
    }

    /// A field read by bits: inside the answer, a value its layout has, a width its type holds.
    func bits(_ f: FieldSpec, _ path: String, _ s: Step, layout layoutName: String?, bytes: Int?) {
        switch f.bitSource {
        case .position(let offset, let length)?:
            if let n = bytes, offset + length > n * 8 {
                checks.issue(f.line, path, "reads bits \(offset)…\(offset + length - 1) but answer '\(s.name)' is \(n * 8) bits")
            }
        case .named(let name)?:
            guard let layoutName, let layout = p.layouts[layoutName] else {
                checks.issue(f.line, "\(path).field", "answer '\(s.name)' has no layout to take '\(name)' from: give its step a 'layout'")
                return
            }
            values([name] + (f.timeField.map { [$0] } ?? []) + (f.condition.map { [$0.field] } ?? []), f, path, [layout])
        case nil: break
        }
    }

    /// Each of `names` is a value of one of `layouts` (a field, its time, its `when`), with a
    /// width the field's type holds.
    func values(_ names: [String], _ f: FieldSpec, _ path: String, _ layouts: [BitLayout]) {
        for n in names where !layouts.contains(where: { $0.width(of: n) != nil }) {
            let known = layouts.map { "'\($0.name)'" }.joined(separator: " or ")
            let near = Spelling.nearest(n, among: layouts.flatMap { $0.widths.map(\.name) })
            checks.issue(f.line, path, "layout \(known) has no value '\(n)'" + (near.map { ": did you mean '\($0)'?" } ?? ""))
        }
        if case .named(let name)? = f.bitSource, let width = layouts.lazy.compactMap({ $0.width(of: name) }).first,
            let problem = FieldResolver.widthProblem(f.type, width)
        {
            checks.issue(f.line, path, "'\(name)' is \(width) bits: \(problem)")
        }
    }

    /// Derived fields: their operands are fields of the same scope, and none depends on itself.
    func derived(_ fields: [(String, FieldSpec)], scope: String, allowOlder: Bool) {
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
                        checks.issue(spec.line, "\(scope).\(name)", "'older.' only exists in trip fields")
                        continue
                    }
                }
                guard names.contains(target) else {
                    let near = Spelling.nearest(target, among: Array(names))
                    checks.issue(
                        spec.line, "\(scope).\(name)",
                        "refers to '\(ref)', which is not a field here" + (near.map { ": did you mean '\($0)'?" } ?? ""))
                    continue
                }
                edges.append(target)
            }
            deps[name] = edges
        }
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
                checks.issue(spec.line, "\(scope).\(name)", "derived fields form a cycle: \(cycle[start...].joined(separator: " → "))")
                return
            }
        }
    }
}
