import APDU
import FeliCaCommands
import Foundation
import Yams

/// Loads and validates profile files. Every problem is reported, each with file:line:column
/// and the key path, in one ``ProfileLoadError``.
public enum ProfileLoader {
    static let topKeys = [
        "id", "name", "region", "currency", "technology", "notes", "report-notes", "detect", "steps", "card", "balance", "trips",
        "variants", "layouts",
        "classes", "contracts", "layout-files", "name-from", "commands", "extends", "terminal",
    ]
    static let stepActions = ISO7816StepParser.actions + FeliCaStepParser.actions + DESFireStepParser.actions + ["for-each"]

    /// What a load checks commands against.
    public struct Options: Sendable {
        /// The known commands (the standard ones and the known-commands file).
        public var commands: Result<CommandPolicy, ProfileLoadError>
        /// The files the user trusts to send commands of their own.
        public var trusted: TrustedProfiles
        /// False only for `profiles trust`, which loads a file to show what it declares.
        public var checkTrust: Bool

        public init(
            commands: Result<CommandPolicy, ProfileLoadError> = CommandCatalog.builtIn, trusted: TrustedProfiles = .user,
            checkTrust: Bool = true
        ) {
            self.commands = commands
            self.trusted = trusted
            self.checkTrust = checkTrust
        }
    }

    /// Parses profile text; `file` names the source in messages.
    public static func load(yaml text: String, file: String, options: Options = Options()) throws(ProfileLoadError) -> Profile {
        let r = YAMLReader(file: file)
        switch options.commands {
        case .success(let policy): r.commandPolicy = policy
        case .failure(let e): throw e
        }
        // The basic resolver (no regular expression runs per scalar): loading stays fast.
        let root = try YAMLReader.compose(text, file: file)
        guard let root else {
            throw ProfileLoadError(issues: [ProfileIssue(file: file, line: 1, column: 1, path: "", reason: "the file is empty")])
        }
        let profile = parse(resolveExtends(root, r, options: options), r, file: file, options: options)
        if let profile, r.issues.isEmpty { return profile }
        throw ProfileLoadError(issues: r.issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
    }

    /// `extends: NAME` (docs/profile-format.md §Extending a profile): the profile is NAME's
    /// (`NAME.yaml` beside it, else among the built-in profiles) with each top-level key the
    /// file gives replaced whole. `id` is never inherited; the parent must load on its own,
    /// extend no other profile and declare no commands of its own (trust is per file).
    static func resolveExtends(_ root: Node, _ r: YAMLReader, options: Options) -> Node {
        guard case .mapping(let child) = root,
            let pair = child.first(where: { $0.key.string == "extends" })
        else { return root }
        var own = child.filter { $0.key.string != "extends" }.map { ($0.key, $0.value) }
        let drop = { Node.mapping(Node.Mapping(own, child.tag, child.style, child.mark)) }
        guard let name = r.string(pair.value, "extends") else { return drop() }
        let candidates = LookupTable.candidates(name, near: r.file, folder: "")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
            let parentFile = candidates.first(where: { $0 != r.file && FileManager.default.fileExists(atPath: $0) })
        else {
            r.issue(pair.value, "extends", "no profile '\(name)' to extend (looked for \(candidates.joined(separator: ", ")))")
            return drop()
        }
        // The parent is composed once, then checked as a profile of its own (no trust check:
        // a parent that declares commands is refused here).
        let parent: Node.Mapping
        do {
            guard let node = try YAMLReader.compose(try TextFile.read(parentFile), file: parentFile), case .mapping(let m) = node
            else {
                r.issue(pair.value, "extends", "'\(name)' (\(parentFile)) is not a profile")
                return drop()
            }
            if m.contains(where: { $0.key.string == "extends" }) {
                r.issue(pair.value, "extends", "'\(name)' extends another profile itself; one level only")
                return drop()
            }
            let check = YAMLReader(file: parentFile)
            check.commandPolicy = r.commandPolicy
            var o = options
            o.checkTrust = false
            let loaded = parse(node, check, file: parentFile, options: o)
            if let first = check.issues.min(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
                r.issue(pair.value, "extends", "the profile it extends does not load: \(first)")
                return drop()
            }
            guard loaded?.commands.isEmpty ?? true else {
                r.issue(
                    pair.value, "extends",
                    "'\(name)' declares commands of its own; a profile that does cannot be extended (trust is given per file)")
                return drop()
            }
            parent = m
        } catch let e as ProfileLoadError {
            r.issue(pair.value, "extends", "the profile it extends does not load: \(e.issues.first.map { "\($0)" } ?? "")")
            return drop()
        } catch {
            r.issue(pair.value, "extends", (error as? UserFacingError)?.message ?? "\(error)")
            return drop()
        }
        let given = Set(own.map { $0.0.string ?? "" })
        let taken = parent.filter { $0.key.string != "id" && !given.contains($0.key.string ?? "") }
        r.inherited = (parentFile, Set(taken.map { $0.key.string ?? "" }))
        own += taken.map { ($0.key, $0.value) }
        return drop()
    }

    static func yamlSyntaxIssue(_ error: Error, file: String) -> ProfileIssue {
        if let y = error as? YamlError {
            switch y {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
                return ProfileIssue(file: file, line: mark.line, column: mark.column, path: "", reason: "YAML syntax: \(problem)")
            default: break
            }
        }
        return ProfileIssue(file: file, line: 1, column: 1, path: "", reason: "YAML syntax: \(error)")
    }

    static func parse(_ root: Node, _ r: YAMLReader, file: String, options: Options = Options()) -> Profile? {
        guard let top = r.mapping(root, "", allowed: topKeys) else { return nil }
        let get = { (k: String) in top.node(k) }
        let declared = parseCommands(get("commands"), r, file: file, options: options)
        func required(_ key: String) -> Node? {
            let n = get(key)
            if n == nil { r.issue(root, key, "required key '\(key)' is missing") }
            return n
        }
        let id = r.string(required("id"), "id") ?? ""
        if !id.isEmpty, !id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) || !(id.first?.isLetter ?? false) {
            r.issue(get("id"), "id", "'\(id)' is not a valid id: use lower-case letters, digits and '-', starting with a letter")
        }
        let name = r.string(required("name"), "name") ?? ""
        let currency = r.string(required("currency"), "currency") ?? ""
        if !currency.isEmpty, currency.count != 3 || !currency.allSatisfy({ $0.isUppercase && $0.isASCII }) {
            r.issue(get("currency"), "currency", "'\(currency)' is not an ISO 4217 code (three capital letters, e.g. CNY)")
        }
        var technology = Profile.Technology.iso7816
        if let t = r.string(get("technology"), "technology") {
            if let tech = Profile.Technology(rawValue: t) {
                technology = tech
            } else {
                r.issue(get("technology"), "technology", "unknown technology '\(t)' (expected iso7816, felica or desfire)")
            }
        }
        var steps: [Step] = []
        if let list = r.sequence(required("steps"), "steps") {
            if list.isEmpty { r.issue(get("steps"), "steps", "a profile needs at least one step") }
            for (i, node) in list.enumerated() {
                if let s = parseStep(node, "steps[\(i)]", r) { steps.append(s) }
            }
        }
        let fields = FieldParser(reader: r)
        var card: [Profile.NamedField] = []
        if let m = r.mapping(get("card"), "card") {
            for (k, v) in m { if let spec = fields.parse(v, "card.\(k)", inTrips: false) { card.append(.init(name: k, spec: spec)) } }
        }
        let balance = get("balance").flatMap { fields.parse($0, "balance", inTrips: false) }
        let trips = get("trips").flatMap { parseTrips($0, r, fields) }
        var detect = Profile.Detection()
        if let node = get("detect") { detect = parseDetect(node, r) }
        let variants = get("variants").map { parseVariants($0, r) } ?? []
        var profile = Profile(
            id: id, name: name, region: r.string(get("region"), "region"), currency: currency,
            technology: technology, detect: detect, steps: steps, card: card,
            balance: balance, trips: trips, variants: variants, source: file)
        profile.commands = declared
        profile.terminal = DependentStepParser.terminal(get("terminal"), r)
        for (i, n) in (r.list(get("layout-files"), "layout-files") ?? []).enumerated() {
            guard let name = r.string(n, "layout-files[\(i)]") else { continue }
            for (k, v) in loadLayoutFile(name, n, "layout-files[\(i)]", r) { profile.layouts[k] = v }
        }
        if let node = get("layouts") {
            for (k, v) in BitLayoutParser.parse(node, r) { profile.layouts[k] = v }  // the profile's own win
        }
        profile.nameFrom = r.string(get("name-from"), "name-from")
        if let n = profile.nameFrom, !card.contains(where: { $0.name == n }) {
            r.issue(get("name-from"), "name-from", "no card field is named '\(n)'")
        }
        profile.contracts = get("contracts").flatMap { parseContracts($0, r, fields) }
        for (i, n) in (r.list(get("report-notes"), "report-notes") ?? []).enumerated() {
            guard let text = r.string(n, "report-notes[\(i)]") else { continue }
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                r.issue(n, "report-notes[\(i)]", "a report note is a sentence, not empty")
            } else {
                profile.reportNotes.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        if let node = get("classes"), let list = r.list(node, "classes") {
            var classes: [UInt8] = []
            for (i, c) in list.enumerated() {
                guard let b = r.hex(c, "classes[\(i)]") else { continue }
                if b.count != 1 {
                    r.issue(c, "classes[\(i)]", "a class is one byte, e.g. 00 or 94")
                } else if classes.contains(b[0]) {
                    r.issue(c, "classes[\(i)]", "class \(b.hexString) is listed twice")
                } else {
                    classes.append(b[0])
                }
            }
            if list.isEmpty { r.issue(node, "classes", "the list is empty: leave it out for class 00") }
            if !classes.isEmpty { profile.classes = classes }
        }
        ProfileValidator.validate(&profile, root: root, reader: r)
        return profile
    }

    /// `commands`: read commands of the profile's own. Refused when one is known to change a
    /// card; usable by the steps only once the user trusts the file (``TrustedProfiles``).
    static func parseCommands(_ node: Node?, _ r: YAMLReader, file: String, options: Options) -> [CommandPolicy.Entry] {
        guard let node else { return [] }
        let declared = CommandCatalog.entries(node, "commands", r)
        var usable: [CommandPolicy.Entry] = []
        for (i, e) in declared.enumerated() {
            let probe = CommandAPDU(cla: e.cla, ins: e.ins, p1: 0, p2: 0)
            if let w = r.commandPolicy.changingEntry(for: probe) {
                r.issue(node, "commands[\(i)]", "\(e.header) is \(w.name), which changes the card: cardscan never sends it from a profile")
            } else if r.commandPolicy.isReadOnly(probe) {
                r.issue(node, "commands[\(i)]", "\(e.header) is already known (\(r.commandPolicy.name(of: probe)!)): leave it out")
            } else {
                usable.append(e)
            }
        }
        if declared.isEmpty, r.sequence(node, "commands")?.isEmpty == true {
            r.issue(node, "commands", "the list is empty: leave it out")
        }
        guard !usable.isEmpty else { return declared }
        if options.checkTrust, !options.trusted.trusts(file, commands: usable) {
            let list = usable.map { "\($0.header) (\($0.name))" }.joined(separator: ", ")
            let remedy =
                options.trusted.unreadable.map {
                    "cardscan sends them only from a trusted file, and the list of trusted files cannot be read (\($0)): correct or remove \(options.trusted.path)"
                } ?? "cardscan sends them only after you trust the file once: cardscan profiles trust \(file)"
            r.issue(node, "commands", "this profile declares commands of its own: \(list); \(remedy)")
        }
        r.commandPolicy = r.commandPolicy.adding(reads: usable)
        return declared
    }

    static func parseStep(_ node: Node, _ path: String, _ r: YAMLReader) -> Step? {
        guard
            let m = r.mapping(
                node, path,
                allowed: stepActions + [
                    "as", "end", "optional", "use-if-present", "layout", "reverse-bytes", "continue", "record-size", "copies", "slots",
                    "dol", "steps", "only-if",
                ])
        else { return nil }
        let get = { (k: String) in m.node(k) }
        let actions = m.filter { stepActions.contains($0.key) }
        guard actions.count == 1, let (actionKey, actionNode) = actions.first.map({ ($0.key, $0.node) }) else {
            r.issue(
                node, path,
                actions.isEmpty
                    ? "a step needs one of: \(stepActions.joined(separator: ", "))"
                    : "a step has exactly one action, found \(actions.map(\.key).joined(separator: " and "))")
            return nil
        }
        guard let name = r.string(get("as"), "\(path).as") else {
            if get("as") == nil { r.issue(node, "\(path).as", "every step names its answer with 'as'") }
            return nil
        }
        var end: [StatusWord] = []
        for (i, sw) in (r.list(get("end"), "\(path).end") ?? []).enumerated() {
            if let b = r.hex(sw, "\(path).end[\(i)]") {
                if b.count == 2 {
                    end.append(StatusWord(b[0], b[1]))
                } else {
                    r.issue(sw, "\(path).end[\(i)]", "a status word is 2 bytes, e.g. 6A83")
                }
            }
        }
        let optional = get("optional").flatMap { r.bool($0, "\(path).optional") } ?? false
        let apath = "\(path).\(actionKey)"
        var action: Step.Action?
        if actionKey == "for-each" {
            action = DependentStepParser.each(actionNode, steps: get("steps"), apath, r) { parseStep($0, $1, r) }.map { .each($0) }
        } else if ISO7816StepParser.actions.contains(actionKey) {
            action = ISO7816StepParser.parse(actionKey, actionNode, apath, r).map { .iso7816($0) }
            if actionKey == "read-records", get("end") == nil { end = [.recordNotFound] }
        } else if DESFireStepParser.actions.contains(actionKey) {
            action = DESFireStepParser.parse(actionKey, actionNode, apath, r).map { .desfire($0) }
        } else {
            action = FeliCaStepParser.parse(actionKey, actionNode, apath, r).map { .felica($0) }
        }
        var useIfPresent: (String, TLVPath)? = nil
        if let u = get("use-if-present"), let text = r.string(u, "\(path).use-if-present") {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            if parts.count == 2, let tags = try? TLVPath(parts[1]) {
                useIfPresent = (parts[0], tags)
            } else {
                r.issue(u, "\(path).use-if-present", "'\(text)' is not ANSWER:TAG/PATH (e.g. app:6F/A5/9F0C)")
            }
        }
        if let sn = get("steps"), actionKey != "for-each" {
            r.issue(sn, "\(path).steps", "'steps' belongs to a for-each step")
        }
        if let dn = get("dol") {
            if actionKey == "command", case .iso7816(.command(let c, nil))? = action,
                let dm = r.mapping(dn, "\(path).dol", allowed: ["list", "template"])
            {
                let dg = { (k: String) in dm.node(k) }
                if dg("list") == nil {
                    r.issue(dn, "\(path).dol.list", "required key 'list' is missing (where the card's data object list is)")
                }
                var template: UInt8? = nil
                if let t = dg("template"), let b = r.hex(t, "\(path).dol.template") {
                    if b.count == 1 { template = b[0] } else { r.issue(t, "\(path).dol.template", "a template tag is one byte, e.g. 83") }
                }
                if !c.data.isEmpty {
                    r.issue(
                        dn, "\(path).dol", "the command's data comes from the list: write the command without data, e.g. \"80 A8 00 00\"")
                }
                if let list = DependentStepParser.reference(dg("list"), "\(path).dol.list", r) {
                    action = .iso7816(.dependent(.dolCommand(c, dol: list, template: template)))
                }
            } else if action != nil {
                r.issue(dn, "\(path).dol", "'dol' builds the data of a `command` step")
            }
        }
        guard let action else { return nil }
        var step = Step(name: name, action: action, end: end, optional: optional, useIfPresent: useIfPresent, line: r.line(node))
        step.layout = r.string(get("layout"), "\(path).layout")
        step.onlyIf = get("only-if").flatMap { DependentStepParser.reference($0, "\(path).only-if", r) }
        step.reverseBytes = get("reverse-bytes").flatMap { r.bool($0, "\(path).reverse-bytes") } ?? false
        let readsRecords = step.isRecords  // before `slots` makes the answer records
        if let cn = get("copies"), let cm = r.mapping(cn, "\(path).copies", allowed: ["size", "sequence"]) {
            let cg = { (k: String) in cm.node(k) }
            for k in ["size", "sequence"] where cg(k) == nil { r.issue(cn, "\(path).copies.\(k)", "required key '\(k)' is missing") }
            if let size = r.int(cg("size"), "\(path).copies.size", range: 1...4096),
                let seq = r.int(cg("sequence"), "\(path).copies.sequence", range: 0...4095)
            {
                if seq >= size {
                    r.issue(cg("sequence"), "\(path).copies.sequence", "the sequence byte \(seq) is not inside a \(size)-byte copy")
                }
                step.copies = (size, seq)
            }
        }
        if let sn = get("slots"), let sm = r.mapping(sn, "\(path).slots", allowed: ["offset", "length", "count"]) {
            let sg = { (k: String) in sm.node(k) }
            for k in ["length", "count"] where sg(k) == nil { r.issue(sn, "\(path).slots.\(k)", "required key '\(k)' is missing") }
            if let length = r.int(sg("length"), "\(path).slots.length", range: 1...4096),
                let count = r.int(sg("count"), "\(path).slots.count", range: 1...255)
            {
                step.slots = (r.int(sg("offset"), "\(path).slots.offset", range: 0...4095) ?? 0, length, count)
            }
        }
        if step.copies != nil || step.slots != nil, readsRecords {
            r.issue(get("copies") ?? get("slots"), path, "'copies' and 'slots' shape one block of bytes, not a records answer")
        }
        if let rs = get("record-size") {
            step.recordSizeHint = r.int(rs, "\(path).record-size", range: 1...0xFF_FFFF)
            if case .desfire(.read(_, .records, _, _)) = action {
            } else {
                r.issue(rs, "\(path).record-size", "'record-size' splits a DESFire `read: records` answer")
            }
        }
        if let cn = get("continue"), let cm = r.mapping(cn, "\(path).continue", allowed: ["unit", "times"]) {
            let cg = { (k: String) in cm.node(k) }
            let unit = r.int(cg("unit"), "\(path).continue.unit", range: 1...255)
            if cg("unit") == nil { r.issue(cn, "\(path).continue.unit", "required key 'unit' is missing (the bytes of one record)") }
            let times = r.int(cg("times"), "\(path).continue.times", range: 1...16) ?? 1
            if case .iso7816(.command(let c, _)) = action, c.data.count == 1 {
                if let unit { step.continuation = (unit, times) }
            } else {
                r.issue(cn, "\(path).continue", "'continue' repeats a `command` whose data is one byte (where to start)")
            }
        }
        return step
    }

    static func parseDetect(_ node: Node, _ r: YAMLReader) -> Profile.Detection {
        var d = Profile.Detection()
        guard let m = r.mapping(node, "detect", allowed: ["atr", "require", "order"]) else { return d }
        let g = { (k: String) in m.node(k) }
        for (i, a) in (r.list(g("atr"), "detect.atr") ?? []).enumerated() {
            guard let text = r.string(a, "detect.atr[\(i)]") else { continue }
            do {
                let pattern = try Transcript.parsePattern(text)
                if pattern.isEmpty { r.issue(a, "detect.atr[\(i)]", "empty ATR pattern") } else { d.atr.append(pattern) }
            } catch { r.issue(a, "detect.atr[\(i)]", "bad ATR pattern '\(text)': \(error.reason)") }
        }
        for (i, q) in (r.list(g("require"), "detect.require") ?? []).enumerated() {
            let p = "detect.require[\(i)]"
            guard let qm = r.mapping(q, p, allowed: ["answer", "offset", "equals", "mask", "field", "record"]) else { continue }
            let qg = { (k: String) in qm.node(k) }
            guard let answer = r.string(qg("answer"), "\(p).answer") else {
                r.issue(q, "\(p).answer", "required key 'answer' is missing")
                continue
            }
            if let fieldNode = qg("field") {
                // A layout value: equals and mask are numbers (0x250901), not bytes.
                guard let field = r.string(fieldNode, "\(p).field") else { continue }
                if qg("offset") != nil {
                    r.issue(qg("offset"), "\(p).offset", "'offset' counts bytes: a check of a layout field leaves it out")
                }
                if qg("equals") == nil { r.issue(q, "\(p).equals", "a check of a layout field needs 'equals' (a number, e.g. 0x250901)") }
                guard let value = r.int(qg("equals"), "\(p).equals") else { continue }
                var req = Profile.Requirement(answer: answer, offset: 0, equals: [], mask: nil, line: r.line(q))
                req.field = field
                req.fieldValue = UInt64(truncatingIfNeeded: value)
                req.fieldMask = qg("mask").flatMap { r.int($0, "\(p).mask") }.map { UInt64(truncatingIfNeeded: $0) }
                d.require.append(req)
                continue
            }
            let offset = r.int(qg("offset"), "\(p).offset", range: 0...65535) ?? 0
            let equals = qg("equals").flatMap { r.hex($0, "\(p).equals") } ?? []
            if qg("equals") != nil, equals.isEmpty { continue }
            let mask = qg("mask").flatMap { r.hex($0, "\(p).mask") }
            if let mask, mask.count != equals.count {
                r.issue(qg("mask"), "\(p).mask", "mask has \(mask.count) byte(s) but equals has \(equals.count)")
            }
            var req = Profile.Requirement(answer: answer, offset: offset, equals: equals, mask: mask, line: r.line(q))
            req.record = qg("record").flatMap { r.int($0, "\(p).record", range: 1...254) }
            d.require.append(req)
        }
        d.order = g("order").flatMap { r.int($0, "detect.order", range: 0...1000) } ?? 100
        return d
    }

    static func parseVariants(_ node: Node, _ r: YAMLReader) -> [Profile.Variant] {
        var out: [Profile.Variant] = []
        guard let list = r.sequence(node, "variants") else { return out }
        if list.isEmpty { r.issue(node, "variants", "the list is empty: name the variants, or leave the key out") }
        for (i, item) in list.enumerated() {
            let p = "variants[\(i)]"
            guard let m = r.mapping(item, p, allowed: ["name", "services"]) else { continue }
            let g = { (k: String) in m.node(k) }
            if g("name") == nil { r.issue(item, "\(p).name", "required key 'name' is missing") }
            if g("services") == nil { r.issue(item, "\(p).services", "required key 'services' is missing (e.g. [0x1CC8, 0x1D08])") }
            let name = r.string(g("name"), "\(p).name")
            if let name, name.isEmpty { r.issue(g("name"), "\(p).name", "the name is empty") }
            var services: [UInt16] = []
            if let codes = r.list(g("services"), "\(p).services") {
                if codes.isEmpty { r.issue(g("services"), "\(p).services", "a variant needs at least one service that marks it") }
                for (j, c) in codes.enumerated() {
                    if let v = r.int(c, "\(p).services[\(j)]", range: 0...0xFFFE) { services.append(UInt16(v)) }
                }
            }
            if let name, !name.isEmpty, !services.isEmpty { out.append(.init(name: name, services: services, line: r.line(item))) }
        }
        return out
    }

    /// Layouts shared by several profiles (`layout-files: [intercode]`): `layouts/NAME.yaml`
    /// beside the profile, else among the built-in profiles; its problems name its own lines.
    static func loadLayoutFile(_ name: String, _ node: Node, _ path: String, _ r: YAMLReader) -> [String: BitLayout] {
        let paths = LookupTable.candidates(name, near: r.file, folder: "layouts")
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
            let file = paths.first(where: { FileManager.default.fileExists(atPath: $0) })
        else {
            r.issue(node, path, "no layout file '\(name)' (looked for \(paths.joined(separator: ", ")))")
            return [:]
        }
        let read = layoutFiles.get(file) { () -> LayoutFile in
            let text: String
            do throws(FileError) { text = try TextFile.read(file) } catch { return .unreadable(error.message) }
            let inner = YAMLReader(file: file)
            var layouts: [String: BitLayout] = [:]
            do {
                if let root = try YAMLReader.compose(text, file: file),
                    let m = inner.mapping(root, "", allowed: ["notes", "source", "layouts"])
                {
                    if let l = m.first(where: { $0.key == "layouts" })?.node {
                        layouts = BitLayoutParser.parse(l, inner)
                    } else {
                        inner.issue(root, "layouts", "required key 'layouts' is missing")
                    }
                } else {
                    inner.issue(nil, "", "the file is empty")
                }
            } catch let e as ProfileLoadError { inner.issues += e.issues } catch { inner.issues.append(yamlSyntaxIssue(error, file: file)) }
            return .read(layouts, inner.issues)
        }
        switch read {
        case .unreadable(let message):
            r.issue(node, path, message)
            return [:]
        case .read(let layouts, let issues):
            r.issues += issues
            return layouts
        }
    }

    /// A layout file as read: its layouts and its own problems (which name its lines), or why
    /// it could not be read.
    enum LayoutFile {
        case read([String: BitLayout], [ProfileIssue])
        case unreadable(String)
    }

    /// Layout files are read once per process, like tables, whichever profiles name them
    /// (seven Calypso and DESFire profiles share `intercode`'s).
    static let layoutFiles = ProcessCache<String, LayoutFile>()

    static func parseContracts(_ node: Node, _ r: YAMLReader, _ fields: FieldParser, path: String = "contracts") -> ContractSpec? {
        guard let m = r.mapping(node, path, allowed: ["from", "list", "layout", "fields"] + (path == "contracts" ? ["more"] : []))
        else { return nil }
        let g = { (k: String) in m.node(k) }
        guard let from = r.string(g("from"), "\(path).from") else {
            if g("from") == nil {
                r.issue(node, "\(path).from", "required key 'from' is missing (the answer holding the contract records)")
            }
            return nil
        }
        var spec = ContractSpec(from: from, fields: [], line: r.line(node))
        if let ln = g("list"), let lm = r.mapping(ln, "\(path).list", allowed: ["from", "repeat", "pointer"]) {
            let lg = { (k: String) in lm.node(k) }
            for k in ["from", "repeat", "pointer"] where lg(k) == nil {
                r.issue(ln, "\(path).list.\(k)", "required key '\(k)' is missing")
            }
            if let f = r.string(lg("from"), "\(path).list.from"), let rep = r.string(lg("repeat"), "\(path).list.repeat"),
                let ptr = r.string(lg("pointer"), "\(path).list.pointer")
            {
                spec.list = .init(from: f, repeatName: rep, pointer: ptr)
            }
        }
        if let yn = g("layout"), let ym = r.mapping(yn, "\(path).layout", allowed: ["by", "bits", "cases", "default"]) {
            let yg = { (k: String) in ym.node(k) }
            if yg("by") == nil { r.issue(yn, "\(path).layout.by", "required key 'by' is missing (e.g. entry.tariff)") }
            if let by = r.string(yg("by"), "\(path).layout.by") {
                var choice = ContractSpec.LayoutChoice(
                    field: by, bits: nil, cases: [:], defaultLayout: r.string(yg("default"), "\(path).layout.default"))
                if let bn = yg("bits"), let text = r.string(bn, "\(path).layout.bits") {
                    if let range = FieldParser.bitRange(text, below: 64) {
                        choice.bits = range
                    } else {
                        r.issue(bn, "\(path).layout.bits", "'\(text)' is not a bit range (e.g. 4-11; bit 0 is the least significant)")
                    }
                }
                for (k, v) in r.mapping(yg("cases"), "\(path).layout.cases") ?? [] {
                    guard let code = YAMLReader.parseInt(k) else {
                        r.issue(yg("cases"), "\(path).layout.cases", "cases are numbers (e.g. 0xFF), not '\(k)'")
                        continue
                    }
                    if let name = r.string(v, "\(path).layout.cases.\(k)") { choice.cases[code] = name }
                }
                spec.layoutBy = choice
            }
        }
        if g("fields") == nil { r.issue(node, "\(path).fields", "required key 'fields' is missing") }
        for (k, v) in r.mapping(g("fields"), "\(path).fields") ?? [] {
            if let f = fields.parse(v, "\(path).fields.\(k)", inTrips: true, inContracts: true) {
                spec.fields.append(.init(name: k, spec: f))
            }
        }
        for (i, n) in (r.sequence(g("more"), "contracts.more") ?? []).enumerated() {
            if let more = parseContracts(n, r, fields, path: "contracts.more[\(i)]") { spec.more.append(more) }
        }
        spec.path = path
        return spec
    }

    static func parseTrips(_ node: Node, _ r: YAMLReader, _ fields: FieldParser, path: String = "trips") -> TripSpec? {
        let nested = path != "trips"
        let keys =
            ["from", "record-length", "fields", "skip-empty", "skip-when-zero", "join", "dol"]
            + (nested ? [] : ["credit-kinds", "order", "more"])
        guard let m = r.mapping(node, path, allowed: keys) else { return nil }
        let g = { (k: String) in m.node(k) }
        guard let from = r.string(g("from"), "\(path).from") else {
            r.issue(node, "\(path).from", "required key 'from' is missing")
            return nil
        }
        var spec = TripSpec(from: from, fields: [], line: r.line(node))
        spec.path = path
        spec.join = (r.list(g("join"), "\(path).join") ?? []).compactMap { r.string($0, "\(path).join") }
        spec.recordLength = g("record-length").flatMap { r.int($0, "\(path).record-length", range: 1...256) }
        spec.dol = g("dol").flatMap { DependentStepParser.reference($0, "\(path).dol", r) }
        if g("fields") == nil { r.issue(node, "\(path).fields", "required key 'fields' is missing") }
        for (k, v) in r.mapping(g("fields"), "\(path).fields") ?? [] {
            if let f = fields.parse(v, "\(path).fields.\(k)", inTrips: true) { spec.fields.append(.init(name: k, spec: f)) }
        }
        spec.skipEmpty = g("skip-empty").flatMap { r.bool($0, "\(path).skip-empty") } ?? true
        spec.skipWhenZero = (r.list(g("skip-when-zero"), "\(path).skip-when-zero") ?? []).compactMap {
            r.string($0, "\(path).skip-when-zero")
        }
        spec.creditKinds = (r.list(g("credit-kinds"), "\(path).credit-kinds") ?? []).compactMap { r.string($0, "\(path).credit-kinds") }
        if let o = r.string(g("order"), "\(path).order") {
            if let order = TripSpec.Order(rawValue: o) {
                spec.order = order
            } else {
                r.issue(
                    g("order"), "\(path).order",
                    "unknown order '\(o)' (expected \(TripSpec.Order.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
        }
        for (i, n) in (r.sequence(g("more"), "trips.more") ?? []).enumerated() {
            if let more = parseTrips(n, r, fields, path: "trips.more[\(i)]") { spec.more.append(more) }
        }
        if !spec.more.isEmpty, spec.order != .byTime {
            r.issue(g("more"), "trips.more", "trips from several answers are merged by time: say order: by-time")
        }
        return spec
    }
}
