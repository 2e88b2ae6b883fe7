/// Parses `layouts:` (docs/profile-format.md §Bit-packed records): each a list of elements —
/// `{ name, type }` or `{ name, bits }`, `{ unused: B }`, `{ bitmap: B, fields: [...] }`,
/// `{ repeat: N, count-bits: B, fields: [...] }` (or `count-from: EARLIER`), `{ sequence: [...] }`,
/// `{ choose: EARLIER, cases: [{ values: 0-2, fields: [...] }], otherwise: [...] }` — or a change
/// of another layout, `{ extends: NAME, replace: [ elements ] }`.
struct LayoutParser {
    static let maximumDepth = 12
    let types: TypeCatalog

    /// A layout as written: elements, or a change of another layout applied once all are read.
    enum Entry {
        case layout(BitLayout)
        case change(base: String, replacements: [BitLayout.Element], cursor: Cursor)
    }

    func parse(_ c: Cursor) -> [(name: String, entry: Entry)] {
        var out: [(String, Entry)] = []
        for (name, value) in c.section(allowed: nil)?.entries ?? [] {
            if value.isMapping {
                guard let s = value.section(.layoutChange), let base = s.required("extends")?.name() else { continue }
                var seen: [String] = []
                let replace = list(s.required("replace") ?? s["replace"], depth: 0, prefix: "", seen: &seen)
                if replace.contains(where: { $0.kind != .value }) {
                    s["replace"].issue("a layout's elements are replaced by named values ({ name, type } or { name, bits })")
                }
                out.append((name, .change(base: base, replacements: replace, cursor: s["extends"])))
                continue
            }
            var seen: [String] = []
            let elements = list(value, depth: 0, prefix: "", seen: &seen)
            if elements.isEmpty, value.sequence()?.isEmpty == true { value.issue("a layout needs at least one element") }
            out.append((name, .layout(BitLayout(name: name, elements: elements, line: value.line))))
        }
        return out
    }

    /// The layouts of `entries` over `base` (a profile's layout files'): lists replace a base
    /// layout of their name whole; changes replace elements of the layout they extend by name.
    static func resolve(_ entries: [(name: String, entry: Entry)], over base: [String: BitLayout]) -> [String: BitLayout] {
        var out = base
        for (name, e) in entries { if case .layout(let l) = e { out[name] = l } }
        for (name, e) in entries {
            guard case .change(let from, let replacements, let cursor) = e else { continue }
            guard let layout = out[from] else {
                cursor.issue("no layout is named '\(from)' (layouts: \(out.keys.sorted().joined(separator: ", ")))")
                continue
            }
            var missing = Set(replacements.map(\.name))
            let elements = replace(layout.elements, with: replacements, missing: &missing)
            for m in missing.sorted() { cursor.issue("layout '\(from)' has no value '\(m)' to replace") }
            out[name] = BitLayout(name: name, elements: elements, line: cursor.line)
        }
        return out
    }

    private static func replace(
        _ elements: [BitLayout.Element], with r: [BitLayout.Element], missing: inout Set<String>
    ) -> [BitLayout.Element] {
        elements.map { e in
            var e = e
            if e.kind == .value, let new = r.first(where: { $0.name == e.name }) {
                missing.remove(e.name)
                return new
            }
            e.elements = replace(e.elements, with: r, missing: &missing)
            e.cases = e.cases.map { .init(values: $0.values, elements: replace($0.elements, with: r, missing: &missing)) }
            if e.kind == .bitmap { e.childNames = e.elements.map { BitLayout.widths([$0], prefix: "").map(\.name) } }
            return e
        }
    }

    /// `seen`: the names declared so far in this layout (for duplicates and `count-from`).
    func list(_ c: Cursor, depth: Int, prefix: String, seen: inout [String]) -> [BitLayout.Element] {
        guard depth <= Self.maximumDepth else {
            c.issue("layouts nest at most \(Self.maximumDepth) deep")
            return []
        }
        return (c.sequence() ?? []).compactMap { element($0, depth: depth, prefix: prefix, seen: &seen) }
    }

    private static let kinds = ["name", "unused", "bitmap", "repeat", "sequence", "choose"]

    func element(_ c: Cursor, depth: Int, prefix: String, seen: inout [String]) -> BitLayout.Element? {
        guard let s = c.section(.element) else { return nil }
        let kinds = Self.kinds.filter { s.has($0) }
        guard kinds.count == 1 else {
            c.issue(
                kinds.isEmpty
                    ? "an element is one of: { name, type }, { name, bits }, { unused }, { bitmap, fields }, { repeat, fields }, { sequence }, { choose, cases }"
                    : "an element is one thing, found \(kinds.joined(separator: " and "))")
            return nil
        }
        func declare(_ name: String, _ at: Cursor) {
            if seen.contains(prefix + name) { at.issue("'\(prefix + name)' is declared twice in this layout") }
            seen.append(prefix + name)
        }
        switch kinds[0] {
        case "name":
            guard let name = s["name"].name() else { return nil }
            var settings: FieldSettings?
            if let t = s["type"].text() { settings = types.resolve(t, base: FieldType(rawValue: t), at: s["type"]) }
            let bits = s.has("bits") ? s["bits"].int(1...4096) : settings?.bits
            guard let bits else {
                if !s.has("bits"), !s.has("type") || settings != nil {
                    (s.has("type") ? s["type"] : c).issue("'\(name)' needs a width: 'bits', or a type that has one (e.g. en1545-date)")
                }
                return nil
            }
            if let t = settings?.type, let problem = FieldResolver.widthProblem(t, bits) {
                (s.has("bits") ? s["bits"] : s["type"]).issue(problem)
            }
            declare(name, s["name"])
            return .value(name: name, bits: bits, settings: settings)
        case "unused":
            return s["unused"].int(0...4096).map { .skip($0) }
        case "choose":
            return choice(s, depth: depth, prefix: prefix, seen: &seen)
        case "sequence":
            return .sequence(list(s["sequence"], depth: depth + 1, prefix: prefix, seen: &seen))
        case "bitmap":
            guard let bits = s["bitmap"].int(1...64) else { return nil }
            let fields = s.required("fields", "the elements its bits stand for") ?? s["fields"]
            let inner = list(fields, depth: depth + 1, prefix: prefix, seen: &seen)
            if fields.exists, inner.count != bits { fields.issue("a \(bits)-bit bitmap stands for \(bits) elements, not \(inner.count)") }
            return .bitmap(bits: bits, elements: inner)
        default:
            guard let name = s["repeat"].name() else { return nil }
            let countBits = s.has("count-bits") ? s["count-bits"].int(1...16) : nil
            let countFrom = s.has("count-from") ? s["count-from"].name() : nil
            if (countBits == nil) == (countFrom == nil) {
                c.issue("a repeat takes its count from 'count-bits' (the next bits) or 'count-from' (an earlier value), one of them")
            }
            if let countFrom, !seen.contains(prefix + countFrom) {
                s["count-from"].issue("'\(countFrom)' is not a value declared before this repeat")
            }
            declare(name + ".count", s["repeat"])
            var innerSeen: [String] = []
            let inner = list(
                s.required("fields", "the elements of each copy") ?? s["fields"], depth: depth + 1, prefix: "", seen: &innerSeen)
            return .repeated(name: name, countBits: countBits, countFrom: countFrom, elements: inner)
        }
    }

    /// `{ choose: version, cases: [{ values: [1, 2], fields: [...] }, …], otherwise: [...] }`: each
    /// case is parsed as if it alone followed, so the same name may appear in several cases.
    private func choice(_ s: Section, depth: Int, prefix: String, seen: inout [String]) -> BitLayout.Element? {
        guard let by = s["choose"].name() else { return nil }
        if !seen.contains(prefix + by) { s["choose"].issue("'\(by)' is not a value declared before this choice") }
        var cases: [BitLayout.Element.Case] = []
        var union = seen
        for item in (s.required("cases", "[{ values: 1-2, fields: [...] }]") ?? s["cases"]).sequence() ?? [] {
            guard let cs = item.section(.choiceCase) else { continue }
            let values = FieldSettingsParser.values(
                cs.required("values", "a number, a range such as 0-2, or a list of them") ?? cs["values"])
            var branchSeen = seen
            let inner = list(cs["fields"], depth: depth + 1, prefix: prefix, seen: &branchSeen)
            union += branchSeen.filter { !union.contains($0) }
            cases.append(.init(values: values, elements: inner))
        }
        var otherwiseSeen = seen
        let otherwise = s.has("otherwise") ? list(s["otherwise"], depth: depth + 1, prefix: prefix, seen: &otherwiseSeen) : []
        seen = union + otherwiseSeen.filter { !union.contains($0) }
        return .choice(by: by, cases: cases, otherwise: otherwise)
    }
}
