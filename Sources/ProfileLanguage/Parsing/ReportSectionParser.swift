/// `trips` and `contracts` (docs/profile-format.md §Trips, §Contracts): which answer holds the
/// records, how they are taken, and their fields — as drafts, finished once the layouts are read.
enum ReportSectionParser {
    /// A trips or contracts source with its fields not yet finished.
    struct Source<Spec> {
        var spec: Spec
        var fields: [(name: String, draft: FieldDraft)]
        var more: [Source<Spec>] = []
        var cursor: Cursor
    }

    static func fields(_ c: Cursor, _ scope: FieldScope) -> [(name: String, draft: FieldDraft)] {
        (c.section(allowed: nil)?.entries ?? []).compactMap { name, v in FieldParser.parse(v, scope).map { (name, $0) } }
    }

    static func trips(_ c: Cursor, nested: Bool = false) -> Source<TripSpec>? {
        guard let s = c.section(nested ? .tripSource : .trips), let from = s.required("from", "the answer whose records are trips")?.name()
        else {
            return nil
        }
        var spec = TripSpec(from: from, fields: [], line: c.line)
        spec.path = c.path
        spec.layout = s.has("layout") ? s["layout"].name() : nil
        spec.join = (s["join"].sequence() ?? []).compactMap { $0.name() }
        spec.dol = s.has("dol") ? ReferenceParser.reference(s["dol"]) : nil
        if let skip = s["skip"].section(.tripSkip) {
            spec.skipUnused = skip["unused"].bool() ?? true
            spec.skipZero = (skip["zero"].sequence() ?? []).compactMap { $0.name() }
        }
        if !nested {
            spec.creditKinds = (s["credit-kinds"].sequence() ?? []).compactMap { $0.text() }
            if let called = s["called"].choice(["trips", "transactions", "payments", "events"]) { spec.called = called }
            if let o = s["order"].choice(TripSpec.Order.allCases.map(\.rawValue)) { spec.order = TripSpec.Order(rawValue: o)! }
            if let p = s["pair"].section(.tripPair) {
                let kinds = { (k: String) in (p.required(k, "the kinds, e.g. [tap-on]")?.sequence() ?? []).compactMap { $0.text() } }
                var pairing = TripPairing(first: kinds("first"), second: kinds("second"))
                pairing.same = (p["same"].sequence() ?? []).compactMap { $0.name() }
                pairing.within = p.has("within") ? p["within"].int(1...100_000) : nil
                pairing.amountFromSecond = p["amount"].choice(["sum", "second"]) == "second"
                spec.pair = pairing
                if spec.order != .byTime { s["pair"].issue("a tap-on pairs with the tap-off after it in time: say order: by-time") }
            }
        }
        var out = Source(spec: spec, fields: fields(s.required("fields") ?? s["fields"], .trip), cursor: c)
        out.more = (s["more"].sequence() ?? []).compactMap { trips($0, nested: true) }
        if let p = spec.pair {
            let names = Set(out.fields.map(\.name) + out.more.flatMap { $0.fields.map(\.name) })
            for needed in ["kind", "time"] + p.same where !names.contains(needed) {
                s["pair"].issue("pairing needs the trips' field '\(needed)'")
            }
        }
        if !out.more.isEmpty, spec.order != .byTime { s["more"].issue("trips from several answers are merged by time: say order: by-time") }
        return out
    }

    static func contracts(_ c: Cursor, nested: Bool = false) -> Source<ContractSpec>? {
        guard let s = c.section(nested ? .contractSource : .contracts),
            let from = s.required("from", "the answer holding the contract records")?.name()
        else { return nil }
        var spec = ContractSpec(from: from, fields: [], line: c.line)
        spec.path = c.path
        if let ls = s["list"].section(.contractList),
            let f = ls.required("from")?.name(), let rep = ls.required("repeat")?.name(), let ptr = ls.required("pointer")?.name()
        {
            spec.list = .init(from: f, repeatName: rep, pointer: ptr)
        }
        if s["layout"].isMapping {
            spec.layoutBy = layoutChoice(s["layout"])
        } else if s.has("layout") {
            spec.layout = s["layout"].name()
        }
        var out = Source(spec: spec, fields: fields(s.required("fields") ?? s["fields"], .contract), cursor: c)
        if !nested { out.more = (s["more"].sequence() ?? []).compactMap { contracts($0, nested: true) } }
        return out
    }

    /// `layout: { by: entry.tariff, bit-range: 4-11, cases: { 0xFF: contract-ff }, otherwise: contract }`.
    private static func layoutChoice(_ c: Cursor) -> ContractSpec.LayoutChoice? {
        guard let s = c.section(.contractLayout), let by = s.required("by", "e.g. entry.tariff")?.text() else { return nil }
        var choice = ContractSpec.LayoutChoice(
            field: by, bitRange: nil, cases: [:], otherwise: s.has("otherwise") ? s["otherwise"].name() : nil)
        if s.has("bit-range") { choice.bitRange = FieldSettingsParser.bitRange(s["bit-range"], below: 64) }
        for (k, v) in s["cases"].section(allowed: nil)?.entries ?? [] {
            guard let code = Cursor.parseInt(k) else {
                v.issue("cases are numbers (e.g. 0xFF), not '\(k)'")
                continue
            }
            if let name = v.name() { choice.cases[code] = name }
        }
        return choice
    }
}
