import APDU

/// Where a field is written: what it may read, and which keys apply there.
enum FieldScope {
    /// `card`, `let` and `balance`: read an answer (`from`) or a tag.
    case card
    /// `trips.fields`: read the record (`from` only names a joined answer).
    case trip
    /// `contracts.fields`: read the record, or another answer's slice for the contract.
    case contract

    var readsRecords: Bool { self != .card }
}

/// A field as written, before types are known: where its value comes from, how it decodes by
/// its own keys, and the type it names (applied by ``FieldResolver`` once the layouts are read).
struct FieldDraft {
    var spec: FieldSpec.Layout
    var settings: FieldSettings
    var typeName: String?
    /// `field: NAME` or `field: [DATE, TIME]`: the layout values read.
    var layoutValues: [String] = []
    /// The field's keys as written (for problems found once its type is known).
    var section: Section
    var scope: FieldScope
    var cursor: Cursor { section.cursor }

    var isDerived: Bool { if case .derived = spec.source { return true } else { return false } }
    var isConstant: Bool { if case .constant = spec.source { return true } else { return false } }
}

/// Parses one field mapping (`{ from: info, offset: 16, length: 4, type: uint }`).
enum FieldParser {
    static func parse(_ c: Cursor, _ scope: FieldScope) -> FieldDraft? {
        guard let s = c.section(.field) else { return nil }
        if s.has("remove") {
            s["remove"].issue("'remove' takes a parent's field out: it goes in a profile that extends another")
            return nil
        }
        var draft = FieldDraft(spec: FieldSpec.Layout(source: .record, line: c.line), settings: FieldSettings(), section: s, scope: scope)
        if s.has("constant") { return constant(s, draft) }
        if let op = ["difference", "sum", "xor"].first(where: { s.has($0) }) { return derived(s, op, draft) }
        guard source(s, &draft) else { return nil }
        position(s, &draft)
        let (settings, typeName) = FieldSettingsParser.parse(s, file: c.context.file)
        draft.settings = settings
        draft.typeName = typeName
        fieldOnly(s, &draft)
        return draft
    }

    /// `constant: top-up`: the same value for every record (a number, or a text).
    private static func constant(_ s: Section, _ d: FieldDraft) -> FieldDraft? {
        var d = d
        guard let text = s["constant"].text() else { return nil }
        d.spec.source = .constant(Cursor.parseInt(text).map { .int($0) } ?? .string(text))
        for k in s.keys where k != "constant" { s[k].issue("'\(k)' does not apply to a constant") }
        return d
    }

    /// `digits`, `prefix`, `suffix`, `check-digit`, `group`: how a card number is printed; nil
    /// when none is given.
    static func numberText(_ s: Section) -> NumberText? {
        var text = NumberText()
        text.digits = s["digits"].int(1...40)
        text.prefix = s["prefix"].text() ?? ""
        text.suffix = s["suffix"].text() ?? ""
        text.group = (s["group"].sequence() ?? []).compactMap { $0.int(1...40) }
        text.checkDigit = s["check-digit"].choice(NumberText.CheckDigit.allCases.map(\.rawValue)).flatMap(NumberText.CheckDigit.init)
        return text == NumberText() ? nil : text
    }

    /// The keys a derived field may have besides its operation: whether it may be missing, and
    /// how the number it gives is printed (a card number made of two parts: Compass).
    static let derivedKeys = [
        "difference", "sum", "xor", "optional", "absent-is-zero", "scale", "add", "digits", "prefix", "suffix", "check-digit", "group",
        "format",
    ]

    /// `difference: [a, b]` or `sum: [a, b]`: worked out from two other fields.
    private static func derived(_ s: Section, _ op: String, _ d: FieldDraft) -> FieldDraft? {
        var d = d
        if ["difference", "sum", "xor"].filter({ s.has($0) }).count > 1 {
            s.cursor.issue("a field is one of a difference, a sum or an xor")
        }
        let refs = (s[op].sequence() ?? []).compactMap { $0.text() }
        if refs.count != 2 { s[op].issue("\(op) takes exactly two field names, e.g. [balance, older.balance]") }
        d.spec.source = .derived(FieldSpec.DerivedOperation(rawValue: op)!, refs)
        d.spec.optional = s["optional"].bool() ?? false
        d.spec.absentIsZero = s["absent-is-zero"].bool() ?? false
        d.spec.numberText = numberText(s)
        d.spec.decimalText = s["format"].choice(["decimal"]) != nil
        if s.has("scale") { d.spec.scale = s["scale"].int() ?? 1 }
        if s.has("add") { d.spec.add = s["add"].int() ?? 0 }
        for k in s.keys where !derivedKeys.contains(k) {
            s[k].issue("'\(k)' does not apply to a derived field")
        }
        return d
    }

    /// `from` (an answer, or a BER-TLV object in it), `tag`, or the record itself.
    private static func source(_ s: Section, _ d: inout FieldDraft) -> Bool {
        if s.has("from") {
            guard let ref = ReferenceParser.answer(s["from"]) else { return false }
            d.spec.source = .answer(ref.answer, tlvPath: ref.path)
            if s.has("tag") { s["tag"].issue("a field reads 'from' an answer or finds a 'tag', not both") }
        } else if s.has("tag") {
            guard let tags = ReferenceParser.tags(s["tag"]) else { return false }
            d.spec.source = .tags(tags)
        } else if !d.scope.readsRecords {
            s["from"].issue("required key 'from' is missing (the answer to read)")
            return false
        }
        if s.has("slice") {
            d.spec.slice = s["slice"].int(1...255)
            if !s.has("from") || d.scope != .contract {
                s["slice"].issue("'slice' reads an answer ('from') per contract: it belongs in contracts.fields")
            }
        }
        if s.has("record") {
            d.spec.record = s["record"].text() == "last" ? -1 : s["record"].int(1...254)
            if !s.has("from") || d.scope.readsRecords {
                s["record"].issue("'record' picks one record of an answer ('from') for a card field or the balance")
            }
        }
        return true
    }

    /// Bytes (`offset`, `length`), fixed bits (`bit-offset`, `bit-length`) or layout values (`field`).
    private static func position(_ s: Section, _ d: inout FieldDraft) {
        if s.has("offset") { d.spec.offset = s["offset"].int(0...65535) ?? 0 }
        if s.has("length") { d.spec.length = s["length"].int(1...4096) }
        let positional = s.has("bit-offset") || s.has("bit-length")
        if positional && s.has("field") {
            s.cursor.issue("a field is at a fixed bit place (bit-offset, bit-length) or a layout's value (field), not both")
        }
        if positional || s.has("field") {
            for k in ["offset", "length"] where s.has(k) { s[k].issue("'\(k)' counts bytes: a field read by bits leaves it out") }
        }
        if s.has("field") {
            // A value's path in its layout: `network`, `contracts[0].tariff`, `entry.pointer`.
            let names = (s["field"].oneOrList() ?? []).compactMap { $0.text() }
            if names.isEmpty || names.count > 2 {
                s["field"].issue("'field' names a layout value, or a date and a time of day: [DATE, TIME]")
                return
            }
            d.layoutValues = names
            d.spec.bitSource = .named(names[0])
            if names.count == 2 { d.spec.timeField = names[1] }
        } else if positional {
            guard let offset = s.required("bit-offset", "bit 0 is the top bit of byte 0")?.int(0...(4096 * 8)),
                let length = s.required("bit-length")?.int(1...4096)
            else { return }
            d.spec.bitSource = .position(offset: offset, length: length)
        }
    }

    /// The keys only a field has (not a type): bits kept, a mask, number text, presence and privacy.
    private static func fieldOnly(_ s: Section, _ d: inout FieldDraft) {
        if s.has("bit-range") { d.spec.bitRange = FieldSettingsParser.bitRange(s["bit-range"], below: 64) }
        if s.has("mask") { d.spec.mask = s["mask"].int().map { UInt64(truncatingIfNeeded: $0) } }
        if s.has("sign-bit") { d.spec.signBit = s["sign-bit"].int(1...63) }
        if let n = s["negative-if"].section(.negativeIf),
            let mask = n.required("mask", "the bits that mean negative, e.g. \"80\"")?.hex(1...1)?.first
        {
            d.spec.negativeIf = (n["offset"].int(0...4095) ?? 0, mask)
        }
        if let p = s["part"].choice(FieldSpec.Track2Part.allCases.map(\.rawValue)) {
            d.spec.track2Part = FieldSpec.Track2Part(rawValue: p)!
        }
        if s.has("time-tag") { d.spec.timeTag = s["time-tag"].tag() }
        if s.has("clock-shift"), let cs = s["clock-shift"].section(.clockShift) {
            let moment = cs.required("before")?.text().flatMap { text -> Int? in
                let m = CivilDate.unixSeconds(isoMoment: text)
                if m == nil { cs["before"].issue("'\(text)' is not a moment with its offset, e.g. \"2019-01-01T00:00:00+07:00\"") }
                return m
            }
            if let moment, let seconds = cs.required("seconds")?.int(-86400 * 366...86400 * 366) {
                d.spec.clockShift = (moment, seconds)  // made relative to the epoch once the type is known
            }
        }
        d.spec.numberText = numberText(s)
        d.spec.optional = s["optional"].bool() ?? false
        if s.has("when") {
            d.spec.condition = condition(s["when"])
            if !d.scope.readsRecords { s["when"].issue("'when' tests a value of the record's layout: it belongs in trips or contracts") }
        }
        d.spec.personal = s["personal"].bool() ?? false
        d.spec.label = s["label"].text()
        if s.has("mask-digits") {
            let ns = (s["mask-digits"].sequence() ?? []).compactMap { $0.int(0...19) }
            if ns.count == 2 {
                d.spec.maskDigits = (ns[0], ns[1])
            } else {
                s["mask-digits"].issue("mask-digits is [FIRST, LAST]: how many leading and trailing digits stay visible, e.g. [6, 4]")
            }
        }
    }

    /// `when: { field: NAME }` (present), `{ field, bit-range, in: VALUES }` or `not-in`.
    static func condition(_ c: Cursor) -> FieldSpec.Condition? {
        guard let s = c.section(.condition), let field = s.required("field", "the layout value tested")?.text() else { return nil }
        let bits = s.has("bit-range") ? FieldSettingsParser.bitRange(s["bit-range"], below: 64) : nil
        let tests = ["in", "not-in"].filter { s.has($0) }
        if tests.count == 2 { c.issue("'when' takes 'in' or 'not-in', not both") }
        guard let test = tests.first else {
            if bits != nil { s["bit-range"].issue("'bit-range' goes with 'in' or 'not-in'") }
            return FieldSpec.Condition(field: field, bits: nil, values: [], negated: false, presence: true)
        }
        return FieldSpec.Condition(
            field: field, bits: bits, values: FieldSettingsParser.values(s[test]), negated: test == "not-in", presence: false)
    }
}
