import APDU
import Yams

/// One step (docs/profile-format.md §Steps): exactly one action — an ISO 7816, FeliCa, DESFire or
/// Ultralight command, or a `for-each` — and what shapes its answer (`records`, `copies`, `layout`,
/// `endian`) or decides whether it is sent (`optional`, `only-if`, `use-if-present`).
enum StepParser {
    static let actions =
        ISO7816StepParser.actions + FeliCaStepParser.actions + DESFireStepParser.actions + UltralightStepParser.actions
        + ClassicStepParser.actions + ["for-each"]

    static func parse(_ c: Cursor) -> Step? {
        guard let s = c.section(.step) else { return nil }
        let found = s.keys.filter { actions.contains($0) }
        guard found.count == 1, let key = found.first else {
            c.issue(
                found.isEmpty
                    ? "a step needs one of: \(actions.joined(separator: ", "))"
                    : "a step has exactly one action, found \(found.joined(separator: " and "))")
            return nil
        }
        if s.has("remove") { s["remove"].issue("'remove' takes a parent's step out: it goes in a profile that extends another") }
        guard let name = s.required("as", "every step names its answer")?.name() else { return nil }
        let a = s[key]
        var action: Step.Action?
        if key == "for-each" {
            action = each(a, steps: s["steps"]).map { .each($0) }
        } else if ISO7816StepParser.actions.contains(key) {
            action = ISO7816StepParser.parse(key, a).map { .iso7816($0) }
        } else if DESFireStepParser.actions.contains(key) {
            action = DESFireStepParser.parse(key, a).map { .desfire($0) }
        } else if UltralightStepParser.actions.contains(key) {
            action = UltralightStepParser.parse(a).map { .ultralight($0) }
        } else if ClassicStepParser.actions.contains(key) {
            action = ClassicStepParser.parse(a, action: key).map { .classic($0) }
        } else {
            action = FeliCaStepParser.parse(key, a).map { .felica($0) }
        }
        if s.has("steps"), key != "for-each" { s["steps"].issue("'steps' belongs to a for-each step") }
        if s.has("data") { action = data(s, action, key: key) }
        guard let action else { return nil }
        var end: [StatusWord] = []
        for item in s["end"].oneOrList() ?? [] { if let b = item.hex(2...2) { end.append(StatusWord(b[0], b[1])) } }
        if key == "read-records", !s.has("end") { end = [.recordNotFound] }
        var useIfPresent: (String, TLVPath)?
        if s.has("use-if-present"), let ref = ReferenceParser.reference(s["use-if-present"]) {
            // A whole BER-TLV object of an earlier answer, by its path.
            if case .answer(let answer, let path?) = ref.place, ref.offset == 0, ref.length == nil {
                useIfPresent = (answer, path)
            } else {
                s["use-if-present"].issue(
                    "name an object inside an earlier answer by its path: ANSWER:TAG/PATH (e.g. app:6F/A5/9F0C), no tag search or byte range"
                )
            }
        }
        var step = Step(
            name: name, action: action, end: end, optional: s["optional"].bool() ?? false, useIfPresent: useIfPresent, line: c.line)
        step.layout = s.has("layout") ? s["layout"].name() : nil
        step.onlyIf = s.has("only-if") ? ReferenceParser.reference(s["only-if"]) : nil
        step.reverseBytes = s["endian"].choice(["big", "little"]) == "little"
        shape(s, &step, key: key)
        return step
    }

    /// `copies`, `records` and `continue`: how the step's answer becomes what fields read.
    private static func shape(_ s: Section, _ step: inout Step, key: String) {
        let readsRecords = step.isRecords
        if let cs = s["copies"].section(.copies) { step.copies = copies(cs) }
        if let rs = s["records"].section(.records), let size = rs.required("size", "each record's byte count")?.int(1...4096) {
            step.records = Step.RecordCut(
                offset: rs["offset"].int(0...4095) ?? 0, size: size, count: rs.has("count") ? rs["count"].int(1...255) : nil)
            step.records?.keep = (rs["keep"].sequence() ?? []).compactMap(recordCheck)
            if readsRecords, !isDESFireRecords(step) {
                s["records"].issue("the answer of `\(key)` is records already: 'records' cuts one block of bytes")
            }
        }
        if s.has("copies"), readsRecords { s["copies"].issue("'copies' picks one of two copies in one block of bytes, not in records") }
        if let cs = s["continue"].section(.continue) {
            let unit = cs.required("unit", "the bytes of one record")?.int(1...255)
            let times = cs["times"].int(1...16) ?? 1
            if case .iso7816(.command(let c, _)) = step.action, c.data.count == 1 {
                if let unit { step.continuation = (unit, times) }
            } else {
                s["continue"].issue("'continue' repeats a `command` whose data is one byte (where to start)")
            }
        }
    }

    /// `copies: { size, offset, counter, length, endian, tie }`, the counter a byte (and
    /// `length`) or `{ bit-offset, bit-length }`.
    private static func copies(_ cs: Section) -> Step.Copies? {
        guard let size = cs.required("size")?.int(1...4096) else { return nil }
        var copies = Step.Copies(size: size, counter: 0, tieKeepsSecond: cs["tie"].choice(["first", "second"]) == "second")
        copies.offset = cs["offset"].int(0...4095) ?? 0
        copies.littleEndian = cs["endian"].choice(["big", "little"]) == "little"
        if cs["counter"].isMapping {
            guard let bits = cs["counter"].section(.copyCounter), let at = bits.required("bit-offset")?.int(0...(8 * 4096)),
                let width = bits.required("bit-length")?.int(1...64)
            else { return nil }
            (copies.counterBit, copies.counterBits) = (at, width)
            if cs.has("length") { cs["length"].issue("'length' counts a byte counter's bytes: a counter given in bits has 'bit-length'") }
            if copies.littleEndian { cs["endian"].issue("'endian: little' reads a counter of whole bytes: give 'counter' as a byte") }
        } else {
            guard let counter = cs.required("counter")?.int(0...4095) else { return nil }
            copies.counterBit = 8 * counter
            copies.counterBits = 8 * (cs["length"].int(1...8) ?? 1)
        }
        if copies.counterBit + copies.counterBits > 8 * size {
            cs["counter"].issue(
                "the counter (bits \(copies.counterBit)–\(copies.counterBit + copies.counterBits - 1)) is not inside a \(size)-byte copy")
        }
        return copies
    }

    /// `{ by: index, offset: 3, one-of: ["14", "15"] }` or `{ offset: 7, equals: "00 00" }`.
    private static func recordCheck(_ c: Cursor) -> Step.RecordCheck? {
        guard let s = c.section(.recordCheck) else { return nil }
        let given = ["equals", "one-of", "none-of"].filter { s.has($0) }
        guard given.count == 1, let key = given.first else {
            s.cursor.issue("a check gives the bytes allowed or refused: one of 'equals', 'one-of' or 'none-of'")
            return nil
        }
        let values = key == "equals" ? [s[key].hex(1...64)].compactMap { $0 } : (s[key].sequence() ?? []).compactMap { $0.hex(1...64) }
        if values.isEmpty, key != "equals" { s[key].issue("\(key) lists byte strings, e.g. [\"08\", \"09\"]") }
        if let first = values.first, values.contains(where: { $0.count != first.count }) {
            s[key].issue("the byte strings of \(key) have one length")
        }
        guard !values.isEmpty else { return nil }
        var check = Step.RecordCheck(
            by: s.has("by") ? s["by"].name() : nil, offset: s["offset"].int(0...4095) ?? 0, values: values, line: c.line)
        check.refuses = key == "none-of"
        return check
    }

    /// A DESFire `read: records` step: `records: { size }` says how its records split.
    private static func isDESFireRecords(_ step: Step) -> Bool {
        if case .desfire(.read(_, .records, _, _)) = step.action { return true }
        return false
    }

    /// `data: { dol: REF, template: 83 }`: the command's data is the values a data object list asks for.
    private static func data(_ s: Section, _ action: Step.Action?, key: String) -> Step.Action? {
        guard let ds = s["data"].section(.data) else { return action }
        guard key == "command", case .iso7816(.command(let c, nil))? = action else {
            if action != nil { s["data"].issue("'data' builds the data of a `command` step") }
            return action
        }
        var template: UInt8?
        if ds.has("template"), let b = ds["template"].hex(1...1) { template = b[0] }
        if !c.data.isEmpty {
            s["data"].issue("the command's data comes from the list: write the command without data, e.g. \"80 A8 00 00\"")
        }
        guard let list = (ds.required("dol", "where the card's data object list is")).flatMap(ReferenceParser.reference) else {
            return action
        }
        return .iso7816(.dependent(.dolCommand(c, dol: list, template: template)))
    }

    /// `for-each: { list: REF, tag: 61, order-by: 87, skip: { 4F: [A000000384] }, label: application }`
    /// with the step's `steps`.
    static func each(_ c: Cursor, steps: Cursor) -> EachStep? {
        guard let s = c.section(.forEach) else { return nil }
        if !steps.exists { steps.issue("a for-each step needs 'steps': what to do with each entry") }
        guard let list = s.required("list").flatMap(ReferenceParser.reference), let tag = s.required("tag")?.tag() else { return nil }
        var each = EachStep(list: list, tag: tag, steps: [])
        if s.has("order-by") { each.orderBy = s["order-by"].tag() }
        for (k, v) in s["skip"].section(allowed: nil)?.entries ?? [] {
            guard let t = try? TLVTag(hex: k) else {
                v.issue("'\(k)' is not a BER-TLV tag")
                continue
            }
            each.skip.append((t, (v.oneOrList() ?? []).compactMap { $0.hex(1...16) }))
        }
        each.label = s.has("label") ? s["label"].name() : nil
        let items = steps.sequence() ?? []
        for item in items {
            if case .mapping(let m)? = item.node, m.keys.contains(where: { $0.string == "for-each" }) {
                item.issue("for-each steps do not nest")
                continue
            }
            if let step = parse(item) { each.steps.append(step) }
        }
        if steps.exists, items.isEmpty { steps.issue("the list of steps is empty") }
        return each
    }
}
