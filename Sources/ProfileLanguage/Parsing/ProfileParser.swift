import APDU
import Yams

/// A profile file's sections, parsed one by one with a ``Cursor`` (docs/profile-format.md): the
/// types and layouts first, so that every field is finished knowing the type of what it reads,
/// then the cross-checks (``ProfileValidator``).
enum ProfileParser {
    static func parse(_ root: Node, _ context: ParseContext, options: ProfileLoader.Options) -> Profile? {
        let top = Cursor(root, path: "", context: context)
        guard let s = top.section(.profile) else { return nil }
        let declared = commands(s["commands"], options: options)
        let id = s.required("id")?.text() ?? ""
        if !id.isEmpty, !id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) || !(id.first?.isLetter ?? false) {
            s["id"].issue("'\(id)' is not a valid id: use lower-case letters, digits and '-', starting with a letter")
        }
        let currency = s.required("currency")?.text() ?? ""
        if !currency.isEmpty, currency.count != 3 || !currency.allSatisfy({ $0.isUppercase && $0.isASCII }) {
            s["currency"].issue("'\(currency)' is not an ISO 4217 code (three capital letters, e.g. CNY)")
        }
        var zone: CivilZone?
        if let z = s["zone"].text() {
            zone = CivilZone(z)
            if zone == nil { s["zone"].issue("'\(z)' is not a UTC offset (e.g. +08:00) or a time zone name (e.g. Europe/Paris)") }
        }
        let technology = s["technology"].choice(Profile.Technology.allCases.map(\.rawValue)).flatMap(Profile.Technology.init) ?? .iso7816
        let stepsCursor = s.required("steps") ?? s["steps"]
        let steps = (stepsCursor.sequence() ?? []).compactMap { StepParser.parse($0) }
        if stepsCursor.exists, stepsCursor.sequence()?.isEmpty == true { stepsCursor.issue("a profile needs at least one step") }
        var profile = Profile(
            id: id, name: s.required("name")?.text() ?? "", region: s["region"].text(), currency: currency, technology: technology,
            detect: DetectionParser.parse(s["detect"]), steps: steps, card: [], balance: nil, trips: nil,
            variants: ProfileExtrasParser.variants(s["variants"]), source: context.file)
        profile.zone = zone
        profile.zoneBy = ProfileExtrasParser.zoneBy(s["zone-by"])
        if profile.zoneBy != nil, zone == nil {
            s["zone-by"].issue("'zone-by' changes the profile's 'zone' for some cards: give 'zone' too")
        }
        profile.commands = declared
        profile.terminal = ProfileExtrasParser.terminal(s["terminal"])
        profile.reportNotes = ProfileExtrasParser.reportNotes(s["report-notes"])
        if let c = ProfileExtrasParser.classes(s["classes"]) { profile.classes = c }
        profile.nameFrom = s.has("name-from") ? s["name-from"].name() : nil
        let types = typesAndLayouts(s, &profile)
        finishFields(s, &profile, FieldResolver(types: types, zone: zone))
        if let n = profile.nameFrom, !profile.card.contains(where: { $0.name == n }) {
            s["name-from"].issue("no card field is named '\(n)'")
        }
        ProfileValidator.validate(&profile, context: context)
        return profile
    }

    /// The type catalogue (built-in, the layout files', the profile's) and the layouts.
    private static func typesAndLayouts(_ s: Section, _ profile: inout Profile) -> TypeCatalog {
        var types = TypeCatalog()
        switch TypeCatalog.builtIn {
        case .success(let t): types = t
        case .failure(let e): s.cursor.context.issues += e.issues
        }
        let builtIn = types
        var fileLayouts: [String: BitLayout] = [:]
        for c in s["layout-files"].oneOrList() ?? [] {
            guard let (layouts, fileTypes) = LayoutFiles.load(c, builtInTypes: builtIn) else { continue }
            for (k, v) in layouts { fileLayouts[k] = v }
            types.merge(fileTypes)
        }
        if s.has("types") { types.add(s["types"], file: s.cursor.context.file) }
        let entries = LayoutParser(types: types).parse(s["layouts"])
        profile.layouts = LayoutParser.resolve(entries, over: fileLayouts)
        return types
    }

    /// `let`, `card`, `balance`, `trips` and `contracts`, each field finished with the type of the
    /// layout value it reads.
    private static func finishFields(_ s: Section, _ p: inout Profile, _ resolver: FieldResolver) {
        let layouts = p.layouts
        let steps = p.allSteps
        func stepLayout(_ answer: String) -> BitLayout? {
            steps.first { $0.name == answer }?.layout.flatMap { layouts[$0] }
        }
        func elements(_ candidates: [BitLayout]) -> FieldResolver.Elements {
            { name in candidates.filter { $0.width(of: name) != nil }.map { $0.settings(of: name) } }
        }
        func card(_ d: FieldDraft) -> FieldSpec? {
            var found: [BitLayout] = []
            if case .answer(let a, _) = d.spec.source, let l = stepLayout(a) { found = [l] }
            return resolver.finish(d, elements: elements(found))
        }
        func named(_ c: Cursor) -> [Profile.NamedField] {
            ReportSectionParser.fields(c, .card).compactMap { name, d in card(d).map { .init(name: name, spec: $0) } }
        }
        p.privateFields = named(s["let"])
        p.card = named(s["card"])
        if s.has("balance"), let d = FieldParser.parse(s["balance"], .card) { p.balance = card(d) }
        if s.has("trips"), let t = ReportSectionParser.trips(s["trips"]) {
            func finish(_ t: ReportSectionParser.Source<TripSpec>) -> TripSpec {
                var spec = t.spec
                let record = (spec.layout.flatMap { layouts[$0] } ?? stepLayout(spec.from)).map { [$0] } ?? []
                spec.fields = t.fields.compactMap { name, d in
                    let candidates: [BitLayout]
                    if case .answer(let a, _) = d.spec.source { candidates = stepLayout(a).map { [$0] } ?? [] } else { candidates = record }
                    return resolver.finish(d, elements: elements(candidates)).map { .init(name: name, spec: $0) }
                }
                spec.more = t.more.map(finish)
                return spec
            }
            p.trips = finish(t)
        }
        if s.has("contracts"), let c = ReportSectionParser.contracts(s["contracts"]) {
            func finish(_ c: ReportSectionParser.Source<ContractSpec>) -> ContractSpec {
                var spec = c.spec
                var names: [String] = spec.layout.map { [$0] } ?? []
                if let choice = spec.layoutBy { names = Array(choice.cases.values).sorted() + (choice.otherwise.map { [$0] } ?? []) }
                let record = names.isEmpty ? (stepLayout(spec.from).map { [$0] } ?? []) : names.compactMap { layouts[$0] }
                let listLayout = spec.list.flatMap { stepLayout($0.from) }
                spec.fields = c.fields.compactMap { name, d in
                    var candidates = record
                    if case .answer(let a, _) = d.spec.source { candidates = stepLayout(a).map { [$0] } ?? [] }
                    let entry = d.layoutValues.first?.hasPrefix("entry.") == true
                    let lookup: FieldResolver.Elements =
                        entry
                        ? { n in listLayout.map { [$0.settings(of: "\(spec.list!.repeatName)[]." + n.dropFirst(6))] } ?? [] }
                        : elements(candidates)
                    return resolver.finish(d, elements: lookup).map { .init(name: name, spec: $0) }
                }
                spec.more = c.more.map(finish)
                return spec
            }
            p.contracts = finish(c)
        }
    }

    /// `commands`: read commands of the profile's own. Refused when one is known to change a
    /// card; usable by the steps only once the user trusts the file (``TrustedProfiles``).
    private static func commands(_ c: Cursor, options: ProfileLoader.Options) -> [CommandPolicy.Entry] {
        guard c.exists else { return [] }
        let context = c.context
        let found = ProfileExtrasParser.commandEntries(c)
        let declared = found.map(\.entry)
        var usable: [CommandPolicy.Entry] = []
        for (at, e) in found {
            let probe = CommandAPDU(cla: e.cla, ins: e.ins, p1: 0, p2: 0)
            if let w = context.commandPolicy.changingEntry(for: probe) {
                at.issue("\(e.header) is \(w.name), which changes the card: cardscan never sends it from a profile")
            } else if context.commandPolicy.isReadOnly(probe) {
                at.issue("\(e.header) is already known (\(context.commandPolicy.name(of: probe)!)): leave it out")
            } else {
                usable.append(e)
            }
        }
        if declared.isEmpty, c.sequence()?.isEmpty == true { c.issue("the list is empty: leave it out") }
        guard !usable.isEmpty else { return declared }
        if options.checkTrust, !options.trusted.trusts(context.file, commands: usable) {
            let list = usable.map { "\($0.header) (\($0.name))" }.joined(separator: ", ")
            let remedy =
                options.trusted.unreadable.map {
                    "cardscan sends them only from a trusted file, and the list of trusted files cannot be read (\($0)): correct or remove \(options.trusted.path)"
                } ?? "cardscan sends them only after you trust the file once: cardscan profiles trust \(context.file)"
            c.issue("this profile declares commands of its own: \(list); \(remedy)")
        }
        context.commandPolicy = context.commandPolicy.adding(reads: usable)
        return declared
    }
}
