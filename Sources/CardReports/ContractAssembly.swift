import ProfileLanguage

/// The contracts: in the contract list's order (each entry pointing at its record) or, with
/// no list, every record in use; each decoded by its layout (chosen by the entry's value).
extension ReportBuilder {
    /// Which records are contracts: their numbers, and each one's list entry prefix
    /// (`NAME[i].`) in the decoded list.
    private struct Picks {
        var records: [(number: Int, entry: String?)] = []
        var list: BitLayout.Decoded?
    }

    func contracts(
        _ c: ContractSpec, _ answers: Answers, first: Int = 0, epochs: [String: CivilDate] = [:], warnings: inout [ReportWarning]
    ) -> [Contract] {
        guard case .records(let records)? = answers[c.from], !records.isEmpty else { return [] }
        var how = reading(c.from)
        if let l = c.layout { how.layout = profile.layouts[l] }
        guard let picks = picks(c, records, answers) else { return [] }
        var rows: [Contract] = []
        for pick in picks.records {
            let n = first + rows.count
            guard (1...records.count).contains(pick.number) else {
                warnings.append(
                    .init(
                        field: "contracts[\(n)]", reason: "the contract list points at record \(pick.number), which the card did not give"))
                continue
            }
            var layout = how.layout
            if let choice = c.layoutBy, let entry = pick.entry {
                let key = entry + choice.field.dropFirst("entry.".count)
                var v = Int(clamping: picks.list?.values[key]?.integer ?? 0)
                if let bits = choice.bitRange { v = (v >> bits.lowerBound) & ((1 << bits.count) - 1) }
                layout = (choice.cases[v] ?? choice.otherwise).flatMap { profile.layouts[$0] }
            }
            let bytes = how.reverse ? records[pick.number - 1].reversed() : records[pick.number - 1]
            let record = Source(bytes: bytes, decoded: layout?.decode(bytes), reversed: how.reverse)
            let context = Context(
                record: record, entry: pick.entry.flatMap { e in picks.list.map { ($0, e) } }, recordNumber: pick.number, epochs: epochs)
            rows.append(contract(c, answers, context, number: n, warnings: &warnings))
        }
        return rows
    }

    /// The records the contract list points at, or every record in use when there is no list;
    /// nil when the list was not read.
    private func picks(_ c: ContractSpec, _ records: [[UInt8]], _ answers: Answers) -> Picks? {
        var picks = Picks()
        guard let l = c.list else {
            for (i, r) in records.enumerated() where !Self.isUnused(r) { picks.records.append((i + 1, nil)) }
            return picks
        }
        let bytes: [UInt8]?
        switch answers[l.from] {
        case .records(let r)?: bytes = r.first
        case .data(let d)?: bytes = d
        default: bytes = nil
        }
        guard let bytes, let decoded = source(bytes, reading(l.from)).decoded else { return nil }
        picks.list = decoded
        let count = Int(clamping: decoded.values["\(l.repeatName).count"]?.integer ?? 0)
        for i in 0..<count {
            let prefix = "\(l.repeatName)[\(i)]."
            guard let pointer = decoded.values[prefix + l.pointer]?.integer else { continue }  // absent from the entry's bitmap
            picks.records.append((Int(clamping: pointer), prefix))
        }
        return picks
    }

    /// One contract's values, read and derived; `value` is money in the card's currency.
    private func contract(
        _ c: ContractSpec, _ answers: Answers, _ context: Context, number n: Int, warnings: inout [ReportWarning]
    )
        -> Contract
    {
        var row = [FieldValue?](repeating: nil, count: c.fields.count)
        for (i, f) in c.fields.enumerated() where !f.spec.isDerived {
            var problem: String?
            row[i] = value(
                f.spec, answers, sources: [:], context: context, warn: { problem = $0 },
                origin: log?.sink("contracts[\(n)].\(f.name)", f.spec))
            if let problem { warnings.append(.init(field: "contracts[\(n)].\(f.name)", reason: problem)) }
        }
        if c.fields.contains(where: { $0.spec.isDerived }) {
            let refs = DerivedReferences(c.fields)
            for (i, f) in c.fields.enumerated() where f.spec.isDerived {
                row[i] = refs.derive(i, f.spec, row, older: nil) {
                    warnings.append(.init(field: "contracts[\(n)].\(f.name)", reason: $0))
                }
            }
        }
        var contract = Contract()
        for (i, f) in c.fields.enumerated() {
            guard var v = row[i] else { continue }
            if f.name == "value" || f.spec.type == .money, let minor = v.intValue {
                v = .money(Money(minorUnits: minor, currency: profile.currency))
            }
            contract.append((f.name, v))
        }
        return contract
    }
}
