import APDU
import ProfileLanguage

/// Turns the answers a read collected into the report a profile describes. It stands alone:
/// no card, no session, no engine — answers in, report out.
///
/// Fields fail soft: a field whose bytes cannot be decoded (a bad BCD digit, a byte outside
/// its text encoding, a value too large, an offset past the answer) is left out and named in
/// the report's `warnings`; the rest of the card is reported. A field whose answer was never
/// read (an optional step the card refused, a read that stopped early) is simply absent.
public struct ReportBuilder {
    public let profile: Profile
    /// The steps, for their layout and byte order by answer name: a handful of short names,
    /// searched in order (faster than hashing them for a dictionary on every report).
    private let steps: [Step]

    /// The values whose bytes the report keeps in ``CardReport/fieldBytes``.
    public var collects: FieldBytes.Scope = .none {
        didSet { log = collects == .none ? nil : FieldBytesLog(scope: collects) }
    }
    private var log: FieldBytesLog?

    public init(profile: Profile) {
        self.profile = profile
        steps = profile.allSteps
    }

    private func step(_ name: String) -> Step? {
        for s in steps where s.name == name { return s }
        return nil
    }

    /// An answer or record as its fields see it: bytes reversed when the step says so, and
    /// decoded once by the step's layout when it has one.
    private struct Source {
        var bytes: [UInt8]
        var decoded: BitLayout.Decoded?
        /// The card sent the bytes in the other order (the step's `reverse-bytes`).
        var reversed = false
    }

    /// How the answer of step `name` is read: its bytes reversed or not, and its layout.
    private func reading(_ name: String) -> (reverse: Bool, layout: BitLayout?) {
        guard let step = step(name) else { return (false, nil) }
        return (step.reverseBytes, step.layout.flatMap { profile.layouts[$0] })
    }

    private func source(_ bytes: [UInt8], _ how: (reverse: Bool, layout: BitLayout?)) -> Source {
        let data = how.reverse ? bytes.reversed() : bytes
        return Source(bytes: data, decoded: how.layout?.decode(data), reversed: how.reverse)
    }

    /// The report of `answers`. Fields marked `personal` (holder name, birth date, ID
    /// number) are left out unless `showPersonal`, and named in the report's `hidden`.
    ///
    /// A read with a `for-each` step (answers with ``Answers/runs``) reports each run as one
    /// of the report's `applications`; the first is also the report's `card`, and the trips of
    /// all are merged newest first, each naming its application (the run's `label` field).
    /// Numbers with `mask-digits` are masked unless `showFullNumbers`.
    public func build(
        from answers: Answers, variant: String? = nil, exchanges: Int = 0, partial: Bool = false, showPersonal: Bool = false,
        showFullNumbers: Bool = false
    ) -> CardReport {
        log?.entries = []
        defer { log?.entries = [] }
        guard !answers.runs.isEmpty else {
            var one = buildOne(
                from: answers, variant: variant, exchanges: exchanges, partial: partial, showPersonal: showPersonal,
                showFullNumbers: showFullNumbers)
            one.fieldBytes = log?.entries ?? []
            return one
        }
        var report = CardReport(profile: profile.id, name: variant ?? profile.name, currency: profile.currency)
        var trips: [(time: String, order: Int, row: [(String, FieldValue)])] = []
        for (k, run) in answers.runs.enumerated() {
            let noted = log?.entries.count ?? 0
            let one = buildOne(
                from: run, variant: variant, exchanges: exchanges, partial: partial, showPersonal: showPersonal,
                showFullNumbers: showFullNumbers)
            // The first application's card values are the report's `card`; other values are
            // named by their run (trips are merged afterwards: a run's own numbering is not the
            // report's).
            if answers.runs.count > 1, let log {
                for i in noted..<log.entries.count where k > 0 || !log.entries[i].field.hasPrefix("card.") {
                    log.entries[i].field = "applications[\(k)]." + log.entries[i].field
                }
            }
            if k == 0 {
                report = one
                report.trips = []
                report.contracts = []
                report.warnings = []
                report.hidden = []
                report.masked = []
                report.skipped = []
            }
            report.applications.append(one.card)
            if report.balance == nil { report.balance = one.balance }
            let label = answers.runs.count > 1 ? profile.eachStep?.label.flatMap { one[card: $0] } : nil
            for row in one.trips {
                var tagged = row
                if let label, !tagged.contains(where: { $0.0 == "application" }) { tagged.append(("application", label)) }
                trips.append((row.first { $0.0 == "time" }?.1.description ?? "", trips.count, tagged))
            }
            report.contracts += one.contracts
            report.warnings += one.warnings.map { ReportWarning(field: "applications[\(k)].\($0.field)", reason: $0.reason) }
            // The first application is the report's `card` too: its fields keep their own names.
            report.hidden += one.hidden.map { k == 0 ? $0 : "applications[\(k)].\($0)" }
            report.masked += one.masked.map { k == 0 ? $0 : "applications[\(k)].\($0)" }
            report.skipped += one.skipped.map { "applications[\(k)]: \($0)" }
        }
        report.trips = trips.sorted { $0.time != $1.time ? $0.time > $1.time : $0.order < $1.order }.map(\.row)
        // Their names are the first run's (a value's bytes are what matters, for hiding them).
        report.fieldBytes = log?.entries ?? []
        return report
    }

    /// The report of one set of answers (a read, or one run of a `for-each`).
    private func buildOne(
        from answers: Answers, variant: String?, exchanges: Int, partial: Bool, showPersonal: Bool, showFullNumbers: Bool
    ) -> CardReport {
        let p = profile
        var report = CardReport(profile: p.id, name: variant ?? p.name, currency: p.currency)
        report.exchanges = exchanges
        report.partial = partial
        report.notes = p.reportNotes
        // The card's fields, then the balance, then the private fields (worked out alike, never reported).
        var cardFields = p.card
        if let b = p.balance { cardFields.append(.init(name: "balance", spec: b)) }
        cardFields += p.privateFields
        var values = [FieldValue?](repeating: nil, count: cardFields.count)
        let names = p.card.map { "card." + $0.name } + (p.balance == nil ? [] : ["balance"]) + p.privateFields.map { "let." + $0.name }
        var sources: [String: Source] = [:]
        for name in answers.names where step(name).map({ $0.layout != nil || $0.reverseBytes }) == true {
            if let bytes = answers.data(name) { sources[name] = source(bytes, reading(name)) }
        }
        let index = TLVIndex(answers)  // parsed only if a field asks for a tag
        for (i, f) in cardFields.enumerated() where !f.spec.isDerived {
            values[i] = value(
                f.spec, answers, sources: sources, context: Context(record: nil, index: index),
                warn: { report.warnings.append(.init(field: names[i], reason: $0)) }, origin: log?.sink(names[i], f.spec))
        }
        if cardFields.contains(where: { $0.spec.isDerived }) {
            let refs = DerivedReferences(cardFields)
            for (i, f) in cardFields.enumerated() where f.spec.isDerived {
                values[i] = refs.derive(i, f.spec, values, older: nil) { report.warnings.append(.init(field: names[i], reason: $0)) }
            }
        }
        for (i, f) in p.card.enumerated() {
            guard var v = values[i] else {
                // Personal data the card keeps unset is named all the same: whether it is set
                // tells something too.
                if f.spec.personal, !showPersonal, f.spec.layout.unset != nil, Self.holds(f.spec, answers) {
                    report.hidden.append("card." + f.name)
                }
                continue
            }
            if let m = f.spec.maskDigits, !showFullNumbers, case .string(let text) = v {
                v = .string(Self.masked(text, keeping: m))
                report.hidden.append("card." + f.name)
                report.masked.append("card." + f.name)
            }
            if f.spec.personal && !showPersonal { report.hidden.append("card." + f.name) } else { report.card.append((f.name, v)) }
        }
        if p.balance != nil { report.balance = values[p.card.count]?.intValue }
        if variant == nil, let key = p.nameFrom, let i = p.card.firstIndex(where: { $0.name == key }), let v = values[i] {
            report.name = v.description
        }
        if let t = p.trips { report.trips = trips(t, answers, warnings: &report.warnings, skipped: &report.skipped) }
        if let c = p.contracts {
            for source in [c] + c.more {
                report.contracts += contracts(source, answers, first: report.contracts.count, warnings: &report.warnings)
            }
        }
        if !showPersonal {
            var tripFields: [Profile.NamedField] = []
            if let t = p.trips { for s in [t] + t.more { tripFields += s.fields } }
            var contractFields: [Profile.NamedField] = []
            if let c = p.contracts { for s in [c] + c.more { contractFields += s.fields } }
            let lists: [(String, [[(String, FieldValue)]], [Profile.NamedField])] = [
                ("trips", report.trips, tripFields), ("contracts", report.contracts, contractFields),
            ]
            for (kind, rows, fields) in lists {
                let personal = Set(fields.filter(\.spec.personal).map(\.name))
                guard !personal.isEmpty else { continue }
                var kept = rows
                for (n, row) in rows.enumerated() {
                    for (k, _) in row where personal.contains(k) { report.hidden.append("\(kind)[\(n)].\(k)") }
                    kept[n] = row.filter { !personal.contains($0.0) }
                }
                if kind == "trips" { report.trips = kept } else { report.contracts = kept }
            }
        }
        return report
    }

    /// `text` with its digits past the first `keeping.first` and before the last
    /// `keeping.last` written `*` (a payment card's PAN: 6 and 4, PCI DSS req. 3.4).
    public static func masked(_ text: String, keeping: (first: Int, last: Int)) -> String {
        let digitCount = text.filter(\.isNumber).count
        var seen = 0
        return String(
            text.map { c -> Character in
                guard c.isNumber else { return c }
                seen += 1
                return seen <= keeping.first || seen > digitCount - keeping.last ? c : "*"
            })
    }

    /// The contracts: in the contract list's order (each entry pointing at its record) or, with
    /// no list, every record in use; each decoded by its layout (chosen by the entry's value).
    private func contracts(
        _ c: ContractSpec, _ answers: Answers, first: Int = 0, warnings: inout [ReportWarning]
    ) -> [[(String, FieldValue)]] {
        guard case .records(let records)? = answers[c.from], !records.isEmpty else { return [] }
        var how = reading(c.from)
        if let l = c.layout { how.layout = profile.layouts[l] }
        var picks: [(number: Int, entry: String?)] = []
        var listDecoded: BitLayout.Decoded?
        if let l = c.list {
            let bytes: [UInt8]?
            switch answers[l.from] {
            case .records(let r)?: bytes = r.first
            case .data(let d)?: bytes = d
            default: bytes = nil
            }
            guard let bytes, let decoded = source(bytes, reading(l.from)).decoded else { return [] }
            listDecoded = decoded
            let count = Int(clamping: decoded.values["\(l.repeatName).count"]?.integer ?? 0)
            for i in 0..<count {
                let prefix = "\(l.repeatName)[\(i)]."
                guard let pointer = decoded.values[prefix + l.pointer]?.integer else { continue }  // absent from the entry's bitmap
                picks.append((Int(clamping: pointer), prefix))
            }
        } else {
            for (i, r) in records.enumerated() where !Self.isUnused(r) {
                picks.append((i + 1, nil))
            }
        }
        var rows: [[(String, FieldValue)]] = []
        for pick in picks {
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
                var v = Int(clamping: listDecoded?.values[key]?.integer ?? 0)
                if let bits = choice.bitRange { v = (v >> bits.lowerBound) & ((1 << bits.count) - 1) }
                layout = (choice.cases[v] ?? choice.otherwise).flatMap { profile.layouts[$0] }
            }
            let bytes = how.reverse ? records[pick.number - 1].reversed() : records[pick.number - 1]
            let record = Source(bytes: bytes, decoded: layout?.decode(bytes), reversed: how.reverse)
            var row = [FieldValue?](repeating: nil, count: c.fields.count)
            let context = Context(record: record, entry: pick.entry.flatMap { e in listDecoded.map { ($0, e) } }, recordNumber: pick.number)
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
            rows.append(c.fields.indices.compactMap { i in row[i].map { (c.fields[i].name, $0) } })
        }
        return rows
    }

    /// Whether the answers hold what `spec` reads (its answer, record or tag), whatever its value.
    static func holds(_ spec: FieldSpec, _ answers: Answers) -> Bool {
        switch spec.source {
        case .answer(let a, _): return answers[a].map { if case .absent = $0 { return false } else { return true } } ?? false
        case .tags(let tags): return answers.tlvValue(tags) != nil
        default: return false
        }
    }

    /// A record slot in no use: all 00 or all FF.
    static func isUnused(_ r: [UInt8]) -> Bool { r.allSatisfy { $0 == 0 } || r.allSatisfy { $0 == 0xFF } }

    /// The answers parsed as BER-TLV once per report, for `tag` fields (``Answers/tlvTrees()``).
    private final class TLVIndex {
        let answers: Answers
        lazy var trees: [[BERTLV]] = answers.tlvTrees()
        init(_ answers: Answers) { self.answers = answers }
    }

    /// What a field of a record sees besides the answers: the record, and for a contract its
    /// list entry (decoded list, `NAME[i].` prefix) and record number.
    private struct Context {
        var record: Source?
        var index: TLVIndex? = nil
        /// The record cut by the trips' `dol` (tag, value), for `tag` fields.
        var dol: [(tag: TLVTag, value: [UInt8])]? = nil
        var entry: (decoded: BitLayout.Decoded, prefix: String)?
        var recordNumber: Int?
    }

    private func value(
        _ spec: FieldSpec, _ answers: Answers, sources: [String: Source], record: Source?, warn: (String) -> Void
    ) -> FieldValue? {
        value(spec, answers, sources: sources, context: Context(record: record), warn: warn)
    }

    /// One field's value; `warn` gets the reason when the bytes are there but do not decode.
    /// `origin`, when given, is told the bytes the value came from (``FieldBytes``).
    private func value(
        _ spec: FieldSpec, _ answers: Answers, sources: [String: Source], context: Context, warn: (String) -> Void,
        origin: FieldOrigin? = nil
    ) -> FieldValue? {
        let record = context.record
        var reversed = false
        var notedAlready = false
        if let condition = spec.condition, !condition.holds(in: record?.decoded) { return nil }
        let data: [UInt8]
        let answerName: String
        var decoded: BitLayout.Decoded?
        switch spec.source {
        case .record:
            guard let record else { return nil }
            data = record.bytes
            answerName = "record"
            decoded = record.decoded
            reversed = record.reversed
        case .answer(let a, let tlvPath):
            answerName = a
            let bytes: [UInt8]
            if let n = spec.record {
                // One record of a records answer (the first the card gave is 1).
                guard case .records(let list)? = answers[a] else { return nil }
                guard n <= list.count else {
                    if !spec.optional { warn("answer '\(a)' has \(list.count) record(s): no record \(n)") }
                    return nil
                }
                bytes = list[n - 1]
            } else {
                guard let raw = answers.data(a) else { return nil }  // not read (optional, partial)
                bytes = sources[a]?.bytes ?? raw
                decoded = sources[a]?.decoded
                reversed = sources[a]?.reversed ?? false
            }
            if let tlvPath {
                guard let node = try? BERTLV.parse(bytes), let hit = node.first(path: tlvPath) else {
                    if !spec.optional { warn("answer '\(a)' has no BER-TLV object at \(tlvPath)") }
                    return nil
                }
                data = hit.value
            } else if let n = spec.slice, let number = context.recordNumber {
                // The contract's own part of the answer: n bytes at n·(number − 1).
                let (start, o1) = n.multipliedReportingOverflow(by: number - 1)
                guard !o1, start >= 0, start + n <= bytes.count else {
                    if !spec.optional { warn("answer '\(a)' has \(bytes.count) bytes: no \(n)-byte slice for record \(number)") }
                    return nil
                }
                data = Array(bytes[start..<(start + n)])
            } else {
                data = bytes
            }
        case .derived: return nil
        case .constant(let v): return v
        case .tags(let tags):
            answerName = "tag " + tags.map(\.description).joined(separator: "/")
            guard let v = Self.tagged(tags, answers, context) else { return nil }  // the card does not have it
            data = v
            if spec.type == .track2, let origin {  // only the part's digits
                if let used = FieldDecoder.track2Bytes(spec.track2Part, v) { origin(v, used.positions, used.masks) }
                notedAlready = true
            }
            if let timeTag = spec.timeTag, let t = Self.tagged([timeTag], answers, context) {
                guard t.count == 3, t.allSatisfy({ $0 >> 4 <= 9 && $0 & 0x0F <= 9 }) else {
                    if !spec.optional { warn("the time \(timeTag) is \(t.hexString), not BCD hhmmss") }
                    return nil
                }
                let hms = t.map { Int($0 >> 4) * 10 + Int($0 & 0x0F) }
                guard hms[0] < 24, hms[1] < 60, hms[2] < 60 else {
                    if !spec.optional { warn("the time \(timeTag) is \(t.hexString), not a time of day") }
                    return nil
                }
                do throws(FieldDecoder.Failure) {
                    return try FieldDecoder.decode(spec, from: data, answer: answerName, timeOfDay: hms[0] * 3600 + hms[1] * 60 + hms[2])
                } catch {
                    if !spec.optional { warn(error.reason) }
                    return nil
                }
            }
        }
        /// Tells `origin` which bytes of `data` the value comes from (and which of their bits),
        /// in the card's own order.
        func note(_ used: Range<Int>, masks: [UInt8]? = nil) {
            guard let origin, !notedAlready else { return }
            let kept = used.clamped(to: data.indices)
            let bits = masks.map { m in kept.map { m[$0 - used.lowerBound] } } ?? Array(repeating: 0xFF, count: kept.count)
            if reversed {
                origin(data.reversed(), kept.map { data.count - 1 - $0 }.reversed(), bits.reversed())
            } else {
                origin(data, Array(kept), bits)
            }
        }
        func note(_ bits: BitValue) {
            guard origin != nil, bits.offset >= 0 else { return }
            let span = FieldBytes.bitSpan(offset: bits.offset, count: bits.width)
            note(span.positions, masks: span.masks)
        }
        do throws(FieldDecoder.Failure) {
            switch spec.bitSource {
            case nil:
                note(spec.offset..<(spec.offset + max(0, spec.length ?? (data.count - spec.offset))))
                return try FieldDecoder.decode(spec, from: data, answer: answerName)
            case .position(let offset, let length)?:
                let bits: BitValue
                do throws(BitReader.Failure) {
                    bits = try BitReader.slice(data, at: offset, count: length, for: "the field", in: "answer '\(answerName)'")
                } catch { throw FieldDecoder.Failure(reason: error.reason) }
                note(bits)
                return try FieldDecoder.decode(spec, bits: bits)
            case .named(var name)?:
                var fromEntry = false
                if name.hasPrefix("entry.") {
                    guard let entry = context.entry else { return nil }
                    decoded = entry.decoded
                    name = entry.prefix + name.dropFirst("entry.".count)
                    fromEntry = true
                }
                guard let decoded else { return nil }
                guard let bits = decoded.values[name] else {
                    // Not in the record: absent from its bitmap (nothing to say), or past its end.
                    if let problem = decoded.problem, !decoded.isAbsent(name) {
                        throw FieldDecoder.Failure(reason: "\(name) not read: \(problem)")
                    }
                    return nil
                }
                if !fromEntry { note(bits) }
                if !fromEntry, let t = spec.timeField, let time = decoded.values[t] { note(time) }
                var seconds: Int? = nil
                if let t = spec.timeField, let m = decoded.values[t]?.integer {
                    // Minutes of the day, an hour (top 5 of 11 bits) and a minute (low 6), or seconds.
                    switch spec.timeFieldKind {
                    // (A time-field up to 64 bits wide: a value whose seconds Int cannot hold is
                    // no time of day, -1, not a trap.)
                    case .minutes: seconds = m <= UInt64(Int.max / 60) ? Int(m) * 60 : -1
                    case .packedTime:
                        seconds = m & 0x3F < 60 && m >> 6 < UInt64(Int.max / 3600) ? (Int(m >> 6) * 60 + Int(m & 0x3F)) * 60 : -1
                    case .seconds: seconds = Int(exactly: m) ?? -1
                    }
                }
                return try FieldDecoder.decode(spec, bits: bits, minutes: seconds)
            }
        } catch {
            if !spec.optional { warn(error.reason) }
            return nil
        }
    }

    /// The value of the first object with one of `tags`: in a record laid out by a DOL, that
    /// record's; in another record, the record's own BER-TLV; else any answer's.
    private static func tagged(_ tags: [TLVTag], _ answers: Answers, _ context: Context) -> [UInt8]? {
        if let dol = context.dol {
            for t in tags { if let hit = dol.first(where: { $0.tag == t }) { return hit.value } }
            return nil
        }
        if let record = context.record {
            guard let nodes = try? BERTLV.parseAll(record.bytes) else { return nil }
            for t in tags { if let hit = Answers.find(t, in: nodes) { return hit.value } }
            return nil
        }
        if let index = context.index { return Answers.tlvValue(tags, in: index.trees) }
        return answers.tlvValue(tags)
    }

    /// One trip row: its values by position in the merged field list, the fields that did not
    /// decode, and which source (0 = `trips`, 1… = `trips.more`) it came from.
    private struct TripRow {
        var values: [FieldValue?]
        var problems: [(Int, String)]
        /// The bytes of values, by position, when the report notes them (named once the rows
        /// are in their final order).
        var origins: [(Int, FieldBytes)] = []
        var source: Int
    }

    private func trips(
        _ t: TripSpec, _ answers: Answers, warnings: inout [ReportWarning], skipped: inout [String]
    ) -> [[(String, FieldValue)]] {
        // The merged field list: `trips`' fields, then each further source's new names.
        let sources = [t] + t.more
        var names: [String] = []
        var position: [String: Int] = [:]
        for s in sources {
            for f in s.fields where position[f.name] == nil {
                position[f.name] = names.count
                names.append(f.name)
            }
        }
        var rows: [TripRow] = []
        for (n, s) in sources.enumerated() {
            rows += tripRows(s, source: n, position, width: names.count, answers, warnings: &warnings, skipped: &skipped)
        }
        let timeIndex = position["time"], kindIndex = position["kind"], amountIndex = position["amount"]
        switch t.order {
        case .asRead: break
        case .reverse: rows.reverse()
        case .byTime:
            guard let ti = timeIndex else { break }
            rows = rows.enumerated().sorted { a, b in
                let ta = a.element.values[ti]?.description ?? "", tb = b.element.values[ti]?.description ?? ""
                return ta != tb ? ta > tb : a.offset < b.offset
            }.map(\.element)
        }
        // Derived fields, each source's own, over the merged order (`older` = the next row).
        let refs = sources.map { s -> DerivedReferences? in
            guard s.fields.contains(where: { $0.spec.isDerived }) else { return nil }
            // One source: its fields are the merged list, position for position.
            if sources.count == 1 { return DerivedReferences(s.fields) }
            return DerivedReferences(names.map { n in s.fields.first { $0.name == n } ?? placeholder(n) })
        }
        let derivedFields = sources.map { s in s.fields.filter(\.spec.isDerived).map { ($0, position[$0.name]!) } }
        for i in rows.indices {
            guard let r = refs[rows[i].source] else { continue }
            for (f, j) in derivedFields[rows[i].source] {
                rows[i].values[j] = r.derive(j, f.spec, rows[i].values, older: i + 1 < rows.count ? rows[i + 1].values : nil) {
                    rows[i].problems.append((j, $0))
                }
            }
        }
        if !t.creditKinds.isEmpty, let ai = amountIndex {
            for i in rows.indices {
                guard case .int(let amount)? = rows[i].values[ai] else { continue }
                let credit = kindIndex.flatMap { rows[i].values[$0] }.map { t.creditKinds.contains($0.description) } ?? false
                // |Int.min| does not exist: such an amount is a decoding problem, not a trap.
                guard amount != .min else {
                    rows[i].values[ai] = nil
                    rows[i].problems.append((ai, "amount \(amount) has no positive counterpart"))
                    continue
                }
                rows[i].values[ai] = .int(credit ? abs(amount) : -abs(amount))
            }
        }
        for (n, row) in rows.enumerated() {
            for (i, reason) in row.problems { warnings.append(.init(field: "trips[\(n)].\(names[i])", reason: reason)) }
        }
        if let log {
            for (n, row) in rows.enumerated() {
                for (i, var bytes) in row.origins {
                    bytes.field = "trips[\(n)].\(names[i])"
                    log.entries.append(bytes)
                }
            }
        }
        return rows.map { row in names.indices.compactMap { i in row.values[i].map { (names[i], $0) } } }
    }

    /// A stand-in for a merged field a source does not have (never derived, never read).
    private func placeholder(_ name: String) -> Profile.NamedField {
        .init(name: name, spec: FieldSpec(FieldSpec.Layout(source: .constant(.int(0)), line: 0)))
    }

    /// The rows of one trip source, its values placed at their merged `position`.
    private func tripRows(
        _ t: TripSpec, source n: Int, _ position: [String: Int], width: Int, _ answers: Answers, warnings: inout [ReportWarning],
        skipped: inout [String]
    ) -> [TripRow] {
        guard case .records(var records)? = answers[t.from] else { return [] }
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
        let fields = t.fields
        // The fields read from the record, each with its place in the merged row (looked up once,
        // not for every record).
        let readFields = fields.filter { !$0.spec.isDerived }.map { ($0, position[$0.name]!) }
        let skipIndexes = t.skipZero.compactMap { position[$0] }
        var rows: [TripRow] = []
        rows.reserveCapacity(records.count)
        var recordReading = reading(t.from)
        if let l = t.layout { recordReading.layout = profile.layouts[l] }
        var dol: DataObjectList? = nil
        if let ref = t.dol {
            guard let bytes = ref.bytes(in: answers) else {
                // Records without their layout: nothing can be said of them (cardpeek shows them raw).
                if !records.isEmpty {
                    warnings.append(
                        .init(
                            field: "trips",
                            reason: "\(records.count) record(s) of '\(t.from)' left out: the card gave no layout for them (\(ref))"))
                }
                return []
            }
            do { dol = try DataObjectList(bytes) } catch {
                warnings.append(
                    .init(field: "trips", reason: "\(ref) is not a data object list (\(error.message)): the records are left out"))
                return []
            }
        }
        for (k, r) in records.enumerated() {
            var row = TripRow(values: [FieldValue?](repeating: nil, count: width), problems: [], source: n)
            let record = source(r, recordReading)
            var rowAnswers = answers
            for j in joined {
                // Record i of a joined answer stands in for the whole answer in this row.
                let p = positions[k]
                rowAnswers[j.name] = p < j.records.count ? .data(j.records[p]) : nil
            }
            let context = Context(record: record, dol: dol?.split(r))
            for (f, i) in readFields {
                var noted: [FieldBytes] = []
                let personal = f.spec.personal
                row.values[i] = value(
                    f.spec, joined.isEmpty ? answers : rowAnswers, sources: [:], context: context, warn: { row.problems.append((i, $0)) },
                    origin: log?.wants(f.spec) == true
                        ? { noted.append(FieldBytes(field: "", unit: $0, positions: $1, masks: $2, personal: personal)) } : nil)
                for bytes in noted { row.origins.append((i, bytes)) }
            }
            if !skipIndexes.isEmpty, skipIndexes.allSatisfy({ row.values[$0] == nil || row.values[$0] == .int(0) }) {
                skipped.append(
                    "\(t.path): record \(positions[k] + 1) of '\(t.from)' skipped: \(t.skipZero.joined(separator: ", ")) \(t.skipZero.count == 1 ? "decodes" : "decode") to 0 or nothing (skip.zero) — \(r.hexString)"
                )
                continue
            }
            rows.append(row)
        }
        return rows
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

    /// a − b or a + b; nil when an operand is missing; `warn` when the result overflows.
    func derive(_ i: Int, _ spec: FieldSpec, _ row: [FieldValue?], older: [FieldValue?]?, warn: (String) -> Void) -> FieldValue? {
        guard case .derived(let op, _) = spec.source, let ops = operands[i], ops.count == 2 else { return nil }
        func get(_ o: (index: Int, older: Bool)) -> Int? {
            let v: FieldValue?? = o.older ? older?[o.index] : row[o.index]
            return v??.intValue
        }
        guard let a = get(ops[0]), let b = get(ops[1]) ?? (spec.layout.absentIsZero ? 0 : nil) else { return nil }
        let (result, overflow) = op == .difference ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
        guard !overflow else {
            warn("\(a) \(op == .difference ? "−" : "+") \(b) does not fit a 64-bit signed integer")
            return nil
        }
        return .int(result)
    }
}

extension FieldSpec {
    var isDerived: Bool { if case .derived = source { return true } else { return false } }
}
