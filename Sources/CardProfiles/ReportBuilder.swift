import APDU

extension ProfileEngine {
    /// Builds the report from the answers read. With `lenient`, fields that cannot be
    /// decoded are left out (used for partial reports, where answers may be missing).
    func buildReport(_ p: Profile, lenient: Bool = false) throws(ReadError) -> CardReport {
        var report = CardReport(profile: p.id, name: p.name, currency: p.currency)
        var cardValues: [String: FieldValue] = [:]
        let cardFields = p.card.map { ($0.name, $0.spec) } + (p.balance.map { [("balance", $0)] } ?? [])
        for (name, spec) in cardFields where !isDerived(spec) {
            if let v = try value(spec, name: name, p, record: nil, lenient: lenient) { cardValues[name] = v }
        }
        for (name, spec) in cardFields where isDerived(spec) {
            if let v = derive(spec, values: cardValues, older: nil) { cardValues[name] = v }
        }
        report.card = p.card.compactMap { f in cardValues[f.name].map { (f.name, $0) } }
        report.balance = cardValues["balance"]?.intValue
        if let t = p.trips { report.trips = try trips(t, p, lenient: lenient) }
        return report
    }

    private func isDerived(_ spec: FieldSpec) -> Bool { if case .derived = spec.source { return true } else { return false } }

    private func value(_ spec: FieldSpec, name: String, _ p: Profile, record: [UInt8]?, lenient: Bool) throws(ReadError) -> FieldValue? {
        let data: [UInt8]
        let answerName: String
        switch spec.source {
        case .record:
            guard let record else { return nil }
            data = record; answerName = "record"
        case .answer(let a, let tlvPath):
            answerName = a
            guard case .data(let bytes) = answers[a] else { return nil }      // not read (optional, partial)
            if let tlvPath {
                guard let node = try? BERTLV.parse(bytes), let hit = node.first(path: tlvPath) else {
                    if spec.optional || lenient { return nil }
                    throw .field(FieldDecodeError(profile: p.source, line: spec.line, field: name,
                                                  reason: "answer '\(a)' has no BER-TLV object at \(tlvPath)"))
                }
                data = hit.value
            } else { data = bytes }
        case .derived: return nil
        }
        do {
            return try FieldDecoder.decode(spec, from: data, answer: answerName)
        } catch {
            if spec.optional || lenient { return nil }
            throw .field(FieldDecodeError(profile: p.source, line: spec.line, field: name, reason: error.reason))
        }
    }

    private func derive(_ spec: FieldSpec, values: [String: FieldValue], older: [String: FieldValue]?) -> FieldValue? {
        guard case .derived(let op, let refs) = spec.source, refs.count == 2 else { return nil }
        func lookup(_ ref: String) -> Int? {
            if ref.hasPrefix("older.") { return older?[String(ref.dropFirst(6))]?.intValue }
            return values[ref]?.intValue
        }
        guard let a = lookup(refs[0]), let b = lookup(refs[1]) else { return nil }
        return .int(op == .difference ? a - b : a + b)
    }

    private func trips(_ t: TripSpec, _ p: Profile, lenient: Bool) throws(ReadError) -> [[(String, FieldValue)]] {
        var records: [[UInt8]]
        switch answers[t.from] {
        case .records(let r)?: records = r
        case .data(let d)?:
            guard let n = t.recordLength else { return [] }
            if d.count % n != 0, !lenient {
                throw .field(FieldDecodeError(profile: p.source, line: t.line, field: "trips",
                                              reason: "answer '\(t.from)' has \(d.count) bytes, not a multiple of record-length \(n)"))
            }
            records = stride(from: 0, to: d.count - d.count % n, by: n).map { Array(d[$0..<($0 + n)]) }
        default: return []
        }
        if t.skipEmpty { records.removeAll { r in r.allSatisfy { $0 == 0 } || r.allSatisfy { $0 == 0xFF } } }

        var rows: [[String: FieldValue]] = []
        for r in records {
            var values: [String: FieldValue] = [:]
            for f in t.fields where !isDerived(f.spec) {
                if let v = try value(f.spec, name: "trips.\(f.name)", p, record: r, lenient: lenient) { values[f.name] = v }
            }
            if !t.skipWhenZero.isEmpty, t.skipWhenZero.allSatisfy({ values[$0] == nil || values[$0] == .int(0) }) { continue }
            rows.append(values)
        }
        switch t.order {
        case .asRead: break
        case .reverse: rows.reverse()
        case .byTime:
            rows = rows.enumerated().sorted { a, b in
                let ta = a.element["time"]?.description ?? "", tb = b.element["time"]?.description ?? ""
                return ta != tb ? ta > tb : a.offset < b.offset
            }.map(\.element)
        }
        for i in rows.indices {
            for f in t.fields where isDerived(f.spec) {
                if let v = derive(f.spec, values: rows[i], older: i + 1 < rows.count ? rows[i + 1] : nil) { rows[i][f.name] = v }
            }
        }
        if !t.creditKinds.isEmpty {
            for i in rows.indices {
                guard case .int(let amount)? = rows[i]["amount"] else { continue }
                let credit = rows[i]["kind"].map { t.creditKinds.contains($0.description) } ?? false
                rows[i]["amount"] = .int(credit ? abs(amount) : -abs(amount))
            }
        }
        return rows.map { values in t.fields.compactMap { f in values[f.name].map { (f.name, $0) } } }
    }
}
