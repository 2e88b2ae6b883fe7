import APDU

extension ProfileEngine {
    /// Builds the report from the answers read. With `lenient`, fields that cannot be
    /// decoded are left out (used for partial reports, where answers may be missing).
    func buildReport(_ p: Profile, lenient: Bool = false) throws(ReadError) -> CardReport {
        var report = CardReport(profile: p.id, name: variantName ?? p.name, currency: p.currency)
        var cardFields = p.card
        if let b = p.balance { cardFields.append(.init(name: "balance", spec: b)) }
        var values = [FieldValue?](repeating: nil, count: cardFields.count)
        for (i, f) in cardFields.enumerated() where !f.spec.isDerived {
            values[i] = try value(f.spec, name: f.name, inTrips: false, p, record: nil, lenient: lenient)
        }
        if cardFields.contains(where: { $0.spec.isDerived }) {
            let refs = DerivedReferences(cardFields)
            for (i, f) in cardFields.enumerated() where f.spec.isDerived {
                values[i] = refs.derive(i, f.spec, values, older: nil)
            }
        }
        for (i, f) in p.card.enumerated() { if let v = values[i] { report.card.append((f.name, v)) } }
        if p.balance != nil { report.balance = values[cardFields.count - 1]?.intValue }
        if let t = p.trips { report.trips = try trips(t, p, lenient: lenient) }
        return report
    }

    /// `inTrips`: the field is a trip field (its name in messages is `trips.NAME`; built only
    /// when there is an error to report, not once per record).
    private func value(_ spec: FieldSpec, name: String, inTrips: Bool, _ p: Profile, record: [UInt8]?, lenient: Bool) throws(ReadError) -> FieldValue? {
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
                    throw .field(FieldDecodeError(profile: p.source, line: spec.line, field: inTrips ? "trips." + name : name,
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
            throw .field(FieldDecodeError(profile: p.source, line: spec.line, field: inTrips ? "trips." + name : name, reason: error.reason))
        }
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

        let fields = t.fields
        let index = Dictionary(fields.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let skipIndexes = t.skipWhenZero.compactMap { index[$0] }
        let timeIndex = index["time"], kindIndex = index["kind"], amountIndex = index["amount"]
        var rows: [[FieldValue?]] = []
        rows.reserveCapacity(records.count)
        for r in records {
            var row = [FieldValue?](repeating: nil, count: fields.count)
            for (i, f) in fields.enumerated() where !f.spec.isDerived {
                row[i] = try value(f.spec, name: f.name, inTrips: true, p, record: r, lenient: lenient)
            }
            if !skipIndexes.isEmpty, skipIndexes.allSatisfy({ row[$0] == nil || row[$0] == .int(0) }) { continue }
            rows.append(row)
        }
        switch t.order {
        case .asRead: break
        case .reverse: rows.reverse()
        case .byTime:
            guard let ti = timeIndex else { break }
            rows = rows.enumerated().sorted { a, b in
                let ta = a.element[ti]?.description ?? "", tb = b.element[ti]?.description ?? ""
                return ta != tb ? ta > tb : a.offset < b.offset
            }.map(\.element)
        }
        if fields.contains(where: { $0.spec.isDerived }) {
            let refs = DerivedReferences(fields)
            for i in rows.indices {
                for (j, f) in fields.enumerated() where f.spec.isDerived {
                    rows[i][j] = refs.derive(j, f.spec, rows[i], older: i + 1 < rows.count ? rows[i + 1] : nil)
                }
            }
        }
        if !t.creditKinds.isEmpty, let ai = amountIndex {
            for i in rows.indices {
                guard case .int(let amount)? = rows[i][ai] else { continue }
                let credit = kindIndex.flatMap { rows[i][$0] }.map { t.creditKinds.contains($0.description) } ?? false
                rows[i][ai] = .int(credit ? abs(amount) : -abs(amount))
            }
        }
        return rows.map { row in fields.indices.compactMap { i in row[i].map { (fields[i].name, $0) } } }
    }
}

/// Derived fields' references, resolved to positions once per read.
struct DerivedReferences {
    /// Per field position: the two operands as (position, from the older record).
    private var operands: [[(index: Int, older: Bool)]?]

    init(_ fields: [Profile.NamedField]) {
        var position: [String: Int] = [:]
        for (i, f) in fields.enumerated() where position[f.name] == nil { position[f.name] = i }
        operands = fields.map { f in
            guard case .derived(_, let refs) = f.spec.source else { return nil }
            return refs.compactMap { ref in
                let older = ref.hasPrefix("older.")
                return position[older ? String(ref.dropFirst(6)) : ref].map { ($0, older) }
            }
        }
    }

    func derive(_ i: Int, _ spec: FieldSpec, _ row: [FieldValue?], older: [FieldValue?]?) -> FieldValue? {
        guard case .derived(let op, _) = spec.source, let ops = operands[i], ops.count == 2 else { return nil }
        func get(_ o: (index: Int, older: Bool)) -> Int? {
            let v: FieldValue?? = o.older ? older?[o.index] : row[o.index]
            return v??.intValue
        }
        guard let a = get(ops[0]), let b = get(ops[1]) else { return nil }
        return .int(op == .difference ? a - b : a + b)
    }
}

extension FieldSpec {
    var isDerived: Bool { if case .derived = source { return true } else { return false } }
}
