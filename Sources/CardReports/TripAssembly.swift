import APDU
import ProfileLanguage

/// The trips: each source's records decoded into rows of one merged field list, put in order,
/// their derived values worked out over that order, amounts signed by kind, and written as
/// ``Trip``s with `amount` as money.
extension ReportBuilder {
    /// One trip row: its values by position in the merged field list, the fields that did not
    /// decode, and which source (0 = `trips`, 1… = `trips.more`) it came from.
    struct TripRow {
        var values: [FieldValue?]
        var problems: [(Int, String)]
        /// The bytes of values, by position, when the report notes them (named once the rows
        /// are in their final order).
        var origins: [(Int, FieldBytes)] = []
        var source: Int
    }

    /// The merged field list of trip sources: `trips`' fields, then each further source's new
    /// names; and each name's position in it.
    struct TripColumns {
        var names: [String] = []
        var position: [String: Int] = [:]
        /// The columns of `type: money` (a balance after the trip, a fare's full price).
        var money: Set<Int> = []
        init(_ sources: [TripSpec]) {
            for s in sources {
                for f in s.fields where position[f.name] == nil {
                    position[f.name] = names.count
                    if f.spec.type == .money { money.insert(names.count) }
                    names.append(f.name)
                }
            }
            // A paired trip's end, after its own fields.
            if sources.first?.pair != nil {
                for (name, from) in [("endTime", "time"), ("endStation", "station")] where position[from] != nil && position[name] == nil {
                    position[name] = names.count
                    names.append(name)
                }
            }
        }
    }

    func trips(
        _ t: TripSpec, _ answers: Answers, epochs: [String: CivilDate] = [:], warnings: inout [ReportWarning], skipped: inout [String]
    ) -> [Trip] {
        let sources = [t] + t.more
        let columns = TripColumns(sources)
        var rows: [TripRow] = []
        for (n, s) in sources.enumerated() {
            rows += tripRows(s, source: n, columns, answers, epochs: epochs, warnings: &warnings, skipped: &skipped)
        }
        switch t.order {
        case .asRead: break
        case .reverse: rows.reverse()
        case .byTime:
            guard let ti = columns.position["time"] else { break }
            rows = TripOrder.newestFirst(rows) { $0.values[ti] }
        }
        derive(&rows, sources, columns)
        if !t.creditKinds.isEmpty, let ai = columns.position["amount"] {
            sign(&rows, amount: ai, kind: columns.position["kind"], credits: t.creditKinds)
        }
        if let p = t.pair { rows = paired(rows, p, columns) }
        for (n, row) in rows.enumerated() {
            for (i, reason) in row.problems { warnings.append(.init(field: "trips[\(n)].\(columns.names[i])", reason: reason)) }
        }
        if let log {
            for (n, row) in rows.enumerated() {
                for (i, var bytes) in row.origins {
                    bytes.field = "trips[\(n)].\(columns.names[i])"
                    log.entries.append(bytes)
                }
            }
        }
        let amount = columns.position["amount"], currency = columns.position["currency"]
        return rows.map { row in
            var trip = Trip()
            trip.fields.reserveCapacity(columns.names.count)
            for (i, name) in columns.names.enumerated() {
                guard var v = row.values[i] else { continue }
                if i == amount || columns.money.contains(i), let minor = v.intValue {
                    // A payment card's log gives each entry its own currency (`currency`).
                    let own = currency.flatMap { row.values[$0] }?.description
                    let code = own.flatMap { $0.utf8.count == 3 && $0.allSatisfy(\.isUppercase) ? $0 : nil } ?? profile.currency
                    v = .money(Money(minorUnits: minor, currency: code))
                }
                trip.fields.append((name, v))
            }
            return trip
        }
    }

    /// Derived fields, each source's own, over the merged order (`older` = the next row).
    private func derive(_ rows: inout [TripRow], _ sources: [TripSpec], _ columns: TripColumns) {
        let refs = sources.map { s -> DerivedReferences? in
            guard s.fields.contains(where: { $0.spec.isDerived }) else { return nil }
            // One source: its fields are the merged list, position for position.
            if sources.count == 1 { return DerivedReferences(s.fields) }
            return DerivedReferences(columns.names.map { n in s.fields.first { $0.name == n } ?? placeholder(n) })
        }
        let derivedFields = sources.map { s in s.fields.filter(\.spec.isDerived).map { ($0, columns.position[$0.name]!) } }
        for i in rows.indices {
            guard let r = refs[rows[i].source] else { continue }
            for (f, j) in derivedFields[rows[i].source] {
                rows[i].values[j] = r.derive(j, f.spec, rows[i].values, older: i + 1 < rows.count ? rows[i + 1].values : nil) {
                    rows[i].problems.append((j, $0))
                }
            }
        }
    }

    /// Amounts signed by kind: a credit kind's positive, any other's negative.
    private func sign(_ rows: inout [TripRow], amount ai: Int, kind ki: Int?, credits: [String]) {
        for i in rows.indices {
            guard case .int(let amount)? = rows[i].values[ai] else { continue }
            let credit = ki.flatMap { rows[i].values[$0] }.map { credits.contains($0.description) } ?? false
            // |Int.min| does not exist: such an amount is a decoding problem, not a trap.
            guard amount != .min else {
                rows[i].values[ai] = nil
                rows[i].problems.append((ai, "amount \(amount) has no positive counterpart"))
                continue
            }
            rows[i].values[ai] = .int(credit ? abs(amount) : -abs(amount))
        }
    }

    /// A stand-in for a merged field a source does not have (never derived, never read).
    private func placeholder(_ name: String) -> Profile.NamedField {
        .init(name: name, spec: FieldSpec(FieldSpec.Layout(source: .constant(.int(0)), line: 0)))
    }

    /// The records of `t` that are trips, in the card's order, with the joined answers' record
    /// at the same position; the unused ones (all 00 or FF) left out when `skip.unused`.
    private func tripRecords(
        _ t: TripSpec, _ answers: Answers, skipped: inout [String]
    )
        -> (records: [[UInt8]], positions: [Int], joined: [(name: String, records: [[UInt8]])])?
    {
        guard case .records(var records)? = answers[t.from] else { return nil }
        // Joined answers pair by position in the card's order, before unused slots are left out.
        var joined: [(name: String, records: [[UInt8]])] = []
        for j in t.join {
            if case .records(let list)? = answers[j] { joined.append((j, list)) } else { joined.append((j, [])) }
        }
        var positions = Array(records.indices)
        if t.skipUnused {
            positions.removeAll { Self.isUnused(records[$0]) }
            if positions.count < records.count {
                skipped.append("\(t.path): \(records.count - positions.count) unused record(s) of '\(t.from)' skipped (all 00 or all FF)")
            }
            records = positions.map { records[$0] }
        }
        return (records, positions, joined)
    }

    /// The data object list that lays out each record (`dol`): nil when there is none; a
    /// failure (with its warning) when the card gave none or it does not parse.
    private func recordList(_ t: TripSpec, _ answers: Answers, count: Int, warnings: inout [ReportWarning]) -> DataObjectList?? {
        guard let ref = t.dol else { return .some(nil) }
        guard let bytes = ref.bytes(in: answers) else {
            // Records without their layout: nothing can be said of them (cardpeek shows them raw).
            if count > 0 {
                warnings.append(
                    .init(field: "trips", reason: "\(count) record(s) of '\(t.from)' left out: the card gave no layout for them (\(ref))"))
            }
            return nil
        }
        do { return .some(try DataObjectList(bytes)) } catch {
            warnings.append(.init(field: "trips", reason: "\(ref) is not a data object list (\(error.message)): the records are left out"))
            return nil
        }
    }

    /// The rows of one trip source, its values placed at their merged `position`.
    private func tripRows(
        _ t: TripSpec, source n: Int, _ columns: TripColumns, _ answers: Answers, epochs: [String: CivilDate],
        warnings: inout [ReportWarning], skipped: inout [String]
    ) -> [TripRow] {
        guard let (records, positions, joined) = tripRecords(t, answers, skipped: &skipped) else { return [] }
        guard let dol = recordList(t, answers, count: records.count, warnings: &warnings) else { return [] }
        // The fields read from the record, each with its place in the merged row (looked up once,
        // not for every record).
        let readFields = t.fields.filter { !$0.spec.isDerived }.map { ($0, columns.position[$0.name]!) }
        let skipIndexes = t.skipZero.compactMap { columns.position[$0] }
        var rows: [TripRow] = []
        rows.reserveCapacity(records.count)
        var recordReading = reading(t.from)
        if let l = t.layout { recordReading.layout = profile.layouts[l] }
        for (k, r) in records.enumerated() {
            var row = TripRow(values: [FieldValue?](repeating: nil, count: columns.names.count), problems: [], source: n)
            var rowAnswers = answers
            var rowSources: [String: Source] = [:]
            for j in joined {
                // Record i of a joined answer stands in for the whole answer in this row, read by
                // its own step's layout and byte order.
                let p = positions[k]
                rowAnswers[j.name] = p < j.records.count ? .data(j.records[p]) : nil
                if p < j.records.count { rowSources[j.name] = source(j.records[p], reading(j.name)) }
            }
            let context = Context(record: source(r, recordReading), dol: dol?.split(r), epochs: epochs)
            for (f, i) in readFields {
                var noted: [FieldBytes] = []
                let personal = f.spec.personal
                row.values[i] = value(
                    f.spec, joined.isEmpty ? answers : rowAnswers, sources: rowSources, context: context,
                    warn: { row.problems.append((i, $0)) },
                    origin: log?.wants(f.spec) == true
                        ? { noted.append(FieldBytes(field: "", unit: $0, positions: $1, masks: $2, personal: personal)) } : nil)
                for bytes in noted { row.origins.append((i, bytes)) }
            }
            if !skipIndexes.isEmpty, skipIndexes.allSatisfy({ row.values[$0] == nil || row.values[$0] == .int(0) }) {
                let verb = t.skipZero.count == 1 ? "decodes" : "decode"
                skipped.append(
                    "\(t.path): record \(positions[k] + 1) of '\(t.from)' skipped: \(t.skipZero.joined(separator: ", ")) \(verb) to 0 or nothing (skip.zero) — \(r.hexString)"
                )
                continue
            }
            rows.append(row)
        }
        return rows
    }
}
