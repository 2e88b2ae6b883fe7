import APDU
import ProfileLanguage

/// Turns the answers a read collected into the report a profile describes. It stands alone:
/// no card, no session, no engine — answers in, report out.
///
/// Fields fail soft: a field whose bytes cannot be decoded (a bad BCD digit, a byte outside
/// its text encoding, a value too large, an offset past the answer) is left out and named in
/// the report's `warnings`; the rest of the card is reported. A field whose answer was never
/// read (an optional step the card refused, a read that stopped early) is simply absent.
///
/// The parts: reading one value (FieldReading.swift), the trips (TripAssembly.swift), the
/// contracts (ContractAssembly.swift), values worked out from others (DerivedReferences.swift).
public struct ReportBuilder {
    /// The profile whose reports this builds.
    public let profile: Profile
    /// The steps, for their layout and byte order by answer name: a handful of short names,
    /// searched in order (faster than hashing them for a dictionary on every report).
    let steps: [Step]

    /// The values whose bytes the report keeps in ``CardReport/fieldBytes``.
    public var collects: FieldBytes.Scope = .none {
        didSet { log = collects == .none ? nil : FieldBytesLog(scope: collects) }
    }
    var log: FieldBytesLog?

    /// A builder of `profile`'s reports that notes no bytes (``collects`` is `.none`).
    public init(profile: Profile) {
        self.profile = profile
        steps = profile.allSteps
    }

    /// The Classic sectors steps did not read because one was locked, in order, each once.
    static func locked(_ answers: Answers, _ steps: [Step]) -> [Int] {
        var sectors: Set<Int> = []
        for s in steps {
            if case .absent(.sectorLocked(let n, let last))? = answers[s.name] { sectors.formUnion(n...max(n, last)) }
        }
        return sectors.sorted()
    }

    func step(_ name: String) -> Step? {
        for s in steps where s.name == name { return s }
        return nil
    }

    /// What to show that a read would otherwise keep back.
    struct Showing {
        var personal: Bool
        var fullNumbers: Bool
    }

    /// The report of `answers`. Fields marked `personal` (holder name, birth date, ID
    /// number) are left out unless `showPersonal`, and named in the report's `hidden`.
    ///
    /// A read with a `for-each` step (answers with `Answers.runs`) reports each run as one
    /// of the report's `applications`; the first is also the report's `card`, and the trips of
    /// all are merged newest first, each naming its application (the run's `label` field).
    /// Numbers with `mask-digits` are masked unless `showFullNumbers`.
    public func build(
        from answers: Answers, variant: String? = nil, exchanges: Int = 0, partial: Bool = false, showPersonal: Bool = false,
        showFullNumbers: Bool = false
    ) -> CardReport {
        if let choice = profile.zoneBy, let zone = choice.zone(in: answers) {
            // The card's region names its zone: the same report, its times read there.
            var other = ReportBuilder(profile: profile.rezoned(zone))
            other.collects = collects
            return other.build(
                from: answers, variant: variant, exchanges: exchanges, partial: partial, showPersonal: showPersonal,
                showFullNumbers: showFullNumbers)
        }
        log?.entries = []
        defer { log?.entries = [] }
        let showing = Showing(personal: showPersonal, fullNumbers: showFullNumbers)
        var report: CardReport
        if answers.runs.isEmpty {
            report = buildOne(from: answers, variant: variant, showing)
        } else {
            report = merged(answers.runs, variant: variant, showing)
        }
        report.exchanges = exchanges
        report.partial = partial
        // Named as in the first run (a value's bytes are what matters, for hiding them).
        report.fieldBytes = log?.entries ?? []
        return report
    }

    /// The report of a `for-each` read: one application per run, the first also the `card`,
    /// the trips of all newest first.
    private func merged(_ runs: [Answers], variant: String?, _ showing: Showing) -> CardReport {
        var report = CardReport(profile: profile.id, name: variant ?? profile.name, currency: profile.currency)
        var trips: [Trip] = []
        for (k, run) in runs.enumerated() {
            let noted = log?.entries.count ?? 0
            let one = buildOne(from: run, variant: variant, showing)
            // The first application's card values are the report's `card`; other values are
            // named by their run (trips are merged afterwards: a run's own numbering is not the
            // report's).
            if runs.count > 1, let log {
                for i in noted..<log.entries.count where k > 0 || !log.entries[i].field.hasPrefix("card.") {
                    log.entries[i].field = "applications[\(k)]." + log.entries[i].field
                }
            }
            if k == 0 {
                report.card = one.card
                report.name = one.name
                report.notes = one.notes
                report.labels = one.labels
                report.tripsCalled = one.tripsCalled
            }
            report.applications.append(one.card)
            if report.balance == nil { report.balance = one.balance }
            let label = runs.count > 1 ? profile.eachStep?.label.flatMap { one.card[$0] } : nil
            for var trip in one.trips {
                if let label, trip["application"] == nil { trip.append(("application", label)) }
                trips.append(trip)
            }
            report.contracts += one.contracts
            report.warnings += one.warnings.map { k == 0 ? $0 : ReportWarning(field: "applications[\(k)].\($0.field)", reason: $0.reason) }
            // The first application is the report's `card` too: its fields keep their own names.
            report.hidden += one.hidden.map { k == 0 ? $0 : "applications[\(k)].\($0)" }
            report.masked += one.masked.map { k == 0 ? $0 : "applications[\(k)].\($0)" }
            report.skipped += one.skipped.map { "applications[\(k)]: \($0)" }
        }
        report.trips = TripOrder.newestFirst(trips, time: { $0.time })
        return report
    }

    /// The report of one set of answers (a read, or one run of a `for-each`).
    private func buildOne(from answers: Answers, variant: String?, _ showing: Showing) -> CardReport {
        let p = profile
        var report = CardReport(profile: p.id, name: variant ?? p.name, currency: p.currency)
        report.notes = p.reportNotes
        report.locked = Self.locked(answers, steps)
        report.labels = Self.labels(p)
        report.tripsCalled = p.trips?.called
        // The card's fields, then the balance, then the private fields (worked out alike, never reported).
        var cardFields = p.card
        if let b = p.balance { cardFields.append(.init(name: "balance", spec: b)) }
        cardFields += p.privateFields
        let names = p.card.map { "card." + $0.name } + (p.balance == nil ? [] : ["balance"]) + p.privateFields.map { "let." + $0.name }
        let (values, epochs) = cardValues(cardFields, names: names, answers, warnings: &report.warnings)
        for (i, f) in p.card.enumerated() {
            guard var v = values[i] else {
                // Personal data the card keeps empty (unset, a date of zeros) is named all the
                // same: whether it is set tells something too.
                if f.spec.personal, !showing.personal, f.spec.layout.unset != nil || f.spec.type.isDate, holds(f.spec, answers) {
                    report.hidden.append("card." + f.name)
                }
                continue
            }
            if let m = f.spec.maskDigits, !showing.fullNumbers, v.intValue != nil || v.isText {
                v = .string(Self.masked(v.description, keeping: m))  // a masked number is text
                report.hidden.append("card." + f.name)
                report.masked.append("card." + f.name)
            }
            if f.spec.type == .money, let minor = v.intValue { v = .money(Money(minorUnits: minor, currency: p.currency)) }
            // A card number is text in every report, whatever type its bytes decode as.
            if f.name == "number", case .int(let n) = v { v = .string(String(n)) }
            if f.spec.personal && !showing.personal { report.hidden.append("card." + f.name) } else { report.card.append((f.name, v)) }
        }
        if p.balance != nil, let minor = values[p.card.count]?.intValue {
            report.balance = Money(minorUnits: minor, currency: p.currency)
        }
        if variant == nil, let key = p.nameFrom, let i = p.card.firstIndex(where: { $0.name == key }), let v = values[i] {
            report.name = v.description
        }
        if let t = p.trips { report.trips = trips(t, answers, epochs: epochs, warnings: &report.warnings, skipped: &report.skipped) }
        if let c = p.contracts {
            for source in [c] + c.more {
                report.contracts += contracts(source, answers, first: report.contracts.count, epochs: epochs, warnings: &report.warnings)
            }
        }
        if !showing.personal { hidePersonalRows(&report) }
        return report
    }

    /// The card's values (and the balance and private values after them), read and derived;
    /// and those that are dates, by name (what `epoch: NAME` counts from).
    private func cardValues(
        _ fields: [Profile.NamedField], names: [String], _ answers: Answers, warnings: inout [ReportWarning]
    ) -> ([FieldValue?], epochs: [String: CivilDate]) {
        var values = [FieldValue?](repeating: nil, count: fields.count)
        var sources: [String: Source] = [:]
        for name in answers.names where step(name).map({ $0.layout != nil || $0.reverseBytes }) == true {
            if let bytes = answers.data(name) { sources[name] = source(bytes, reading(name)) }
        }
        var context = Context(record: nil, index: TLVIndex(answers))  // the TLV index is parsed only if a field asks for a tag
        // The values counted from another's date come after those they count from.
        for pass in [false, true] {
            for (i, f) in fields.enumerated() where !f.spec.isDerived && (f.spec.layout.epochField != nil) == pass {
                values[i] = value(
                    f.spec, answers, sources: sources, context: context,
                    warn: { warnings.append(.init(field: names[i], reason: $0)) }, origin: log?.sink(names[i], f.spec))
            }
            if !pass { context.epochs = Self.dates(fields, values) }
        }
        let derived = fields.indices.filter { fields[$0].spec.isDerived }
        if !derived.isEmpty {
            // In the order they depend on each other (a card value may be worked out from a `let`
            // value that is itself worked out): each pass works out those whose operands are
            // ready; the loader refused cycles, so at most one pass a derived value.
            let refs = DerivedReferences(fields)
            var pending = derived
            while !pending.isEmpty {
                let ready = pending.filter { refs.operandsReady($0, derived: Set(pending)) }
                for i in ready {
                    values[i] = refs.derive(i, fields[i].spec, values, older: nil) { warnings.append(.init(field: names[i], reason: $0)) }
                }
                pending.removeAll { ready.contains($0) }
                if ready.isEmpty { break }
            }
        }
        return (values, Self.dates(fields, values))
    }

    /// The values that are dates (a date, or a date-time's date), by field name.
    static func dates(_ fields: [Profile.NamedField], _ values: [FieldValue?]) -> [String: CivilDate] {
        var out: [String: CivilDate] = [:]
        for (f, v) in zip(fields, values) {
            switch v {
            case .date(let d)?: out[f.name] = d
            case .dateTime(let t)?: out[f.name] = t.date
            default: break
            }
        }
        return out
    }

    /// The `label`s the profile gives its card, trip and contract values, by place.
    static func labels(_ p: Profile) -> [String: String] {
        var out: [String: String] = [:]
        for f in p.card { if let l = f.spec.label { out["card." + f.name] = l } }
        if let t = p.trips { for f in ([t] + t.more).flatMap(\.fields) { if let l = f.spec.label { out["trips." + f.name] = l } } }
        if let c = p.contracts { for f in ([c] + c.more).flatMap(\.fields) { if let l = f.spec.label { out["contracts." + f.name] = l } } }
        return out
    }

    /// Leaves the personal values of trips and contracts out, naming each in `hidden`.
    private func hidePersonalRows(_ report: inout CardReport) {
        func personal(_ sources: [TripSpec]) -> Set<String> {
            Set(sources.flatMap(\.fields).filter(\.spec.personal).map(\.name))
        }
        func hide<Row: ReportRow>(_ rows: inout [Row], _ kind: String, _ names: Set<String>) {
            guard !names.isEmpty else { return }
            for n in rows.indices {
                for (k, _) in rows[n] where names.contains(k) { report.hidden.append("\(kind)[\(n)].\(k)") }
                rows[n].removeAll { names.contains($0.name) }
            }
        }
        if let t = profile.trips { hide(&report.trips, "trips", personal([t] + t.more)) }
        if let c = profile.contracts {
            hide(&report.contracts, "contracts", Set(([c] + c.more).flatMap(\.fields).filter(\.spec.personal).map(\.name)))
        }
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

    /// A record slot in no use: all 00 or all FF.
    static func isUnused(_ r: [UInt8]) -> Bool { r.allSatisfy { $0 == 0 } || r.allSatisfy { $0 == 0xFF } }
}
