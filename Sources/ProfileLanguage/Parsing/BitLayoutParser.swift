import Yams

/// Parses `layouts:` (docs/profile-format.md §Bit-packed records): each a list of elements —
/// `{ name: N, bits: B }`, `{ skip: B }`, `{ bitmap: B, fields: [...] }`,
/// `{ repeat: N, count-bits: B, fields: [...] }` (or `count-from: EARLIER`), `{ sequence: [...] }`,
/// `{ choose: EARLIER, cases: [{ values: 0-2, fields: [...] }], default: [...] }`.
enum BitLayoutParser {
    static let maximumDepth = 12

    static func parse(_ node: Node, _ r: YAMLReader) -> [String: BitLayout] {
        var out: [String: BitLayout] = [:]
        for (name, value) in r.mapping(node, "layouts") ?? [] {
            var seen: [String] = []
            let elements = parseList(value, "layouts.\(name)", r, depth: 0, prefix: "", seen: &seen)
            if elements.isEmpty, r.sequence(value, "layouts.\(name)")?.isEmpty == true {
                r.issue(value, "layouts.\(name)", "a layout needs at least one element")
            }
            out[name] = BitLayout(name: name, elements: elements, line: r.line(value))
        }
        return out
    }

    /// `seen`: the names declared so far in this layout (for duplicates and `count-from`).
    static func parseList(
        _ node: Node?, _ path: String, _ r: YAMLReader, depth: Int, prefix: String, seen: inout [String]
    ) -> [BitLayout.Element] {
        guard depth <= maximumDepth else {
            r.issue(node, path, "layouts nest at most \(maximumDepth) deep")
            return []
        }
        var out: [BitLayout.Element] = []
        for (i, item) in (r.sequence(node, path) ?? []).enumerated() {
            if let e = parseElement(item, "\(path)[\(i)]", r, depth: depth, prefix: prefix, seen: &seen) { out.append(e) }
        }
        return out
    }

    static func parseElement(
        _ node: Node, _ path: String, _ r: YAMLReader, depth: Int, prefix: String, seen: inout [String]
    ) -> BitLayout.Element? {
        guard
            let m = r.mapping(
                node, path,
                allowed: [
                    "name", "bits", "skip", "bitmap", "fields", "repeat", "count-bits", "count-from", "sequence", "choose", "cases",
                    "default",
                ])
        else {
            return nil
        }
        let g = { (k: String) in m.node(k) }
        let kinds = ["name", "skip", "bitmap", "repeat", "sequence", "choose"].filter { g($0) != nil }
        guard kinds.count == 1 else {
            r.issue(
                node, path,
                kinds.isEmpty
                    ? "an element is one of: { name, bits }, { skip }, { bitmap, fields }, { repeat, fields }, { sequence }, { choose, cases }"
                    : "an element is one thing, found \(kinds.joined(separator: " and "))")
            return nil
        }
        func declare(_ name: String, _ at: Node?) {
            if seen.contains(prefix + name) { r.issue(at, path, "'\(prefix + name)' is declared twice in this layout") }
            seen.append(prefix + name)
        }
        switch kinds[0] {
        case "name":
            guard let name = r.string(g("name"), "\(path).name") else { return nil }
            if g("bits") == nil { r.issue(node, "\(path).bits", "a named element needs 'bits' (its width)") }
            guard let bits = r.int(g("bits"), "\(path).bits", range: 1...4096) else { return nil }
            if name.isEmpty || name.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == " " }) {
                r.issue(g("name"), "\(path).name", "'\(name)' is not a plain name (letters, digits, '-' or '_')")
            }
            declare(name, g("name"))
            return .value(name: name, bits: bits)
        case "skip":
            return r.int(g("skip"), "\(path).skip", range: 0...4096).map { .skip($0) }
        case "choose":
            return parseChoice(node, path, r, depth: depth, prefix: prefix, seen: &seen, g)
        case "sequence":
            return .sequence(parseList(g("sequence"), "\(path).sequence", r, depth: depth + 1, prefix: prefix, seen: &seen))
        case "bitmap":
            guard let bits = r.int(g("bitmap"), "\(path).bitmap", range: 1...64) else { return nil }
            if g("fields") == nil { r.issue(node, "\(path).fields", "a bitmap lists the elements its bits stand for") }
            let inner = parseList(g("fields"), "\(path).fields", r, depth: depth + 1, prefix: prefix, seen: &seen)
            if g("fields") != nil, inner.count != bits {
                r.issue(g("fields"), "\(path).fields", "a \(bits)-bit bitmap stands for \(bits) elements, not \(inner.count)")
            }
            return .bitmap(bits: bits, elements: inner)
        default:
            guard let name = r.string(g("repeat"), "\(path).repeat") else { return nil }
            let countBits = g("count-bits").flatMap { r.int($0, "\(path).count-bits", range: 1...16) }
            let countFrom = r.string(g("count-from"), "\(path).count-from")
            if (countBits == nil) == (countFrom == nil) {
                r.issue(
                    node, path, "a repeat takes its count from 'count-bits' (the next bits) or 'count-from' (an earlier field), one of them"
                )
            }
            if let countFrom, !seen.contains(prefix + countFrom) {
                r.issue(g("count-from"), "\(path).count-from", "'\(countFrom)' is not a field declared before this repeat")
            }
            declare(name + ".count", g("repeat"))
            if g("fields") == nil { r.issue(node, "\(path).fields", "a repeat lists the elements of each copy") }
            var innerSeen: [String] = []
            let inner = parseList(g("fields"), "\(path).fields", r, depth: depth + 1, prefix: "", seen: &innerSeen)
            return .repeated(name: name, countBits: countBits, countFrom: countFrom, elements: inner)
        }
    }

    /// `{ choose: version, cases: [{ values: [1, 2], fields: [...] }, …], default: [...] }`: the
    /// elements that follow depend on an earlier value. Each case is parsed as if it alone
    /// followed, so the same name may appear in several cases.
    static func parseChoice(
        _ node: Node, _ path: String, _ r: YAMLReader, depth: Int, prefix: String, seen: inout [String], _ g: (String) -> Node?
    ) -> BitLayout.Element? {
        guard let by = r.string(g("choose"), "\(path).choose") else { return nil }
        if !seen.contains(prefix + by) {
            r.issue(g("choose"), "\(path).choose", "'\(by)' is not a field declared before this choice")
        }
        if g("cases") == nil { r.issue(node, "\(path).cases", "a choice lists its cases: [{ values: 1-2, fields: [...] }]") }
        var cases: [BitLayout.Element.Case] = []
        var union = seen
        for (i, item) in (r.sequence(g("cases"), "\(path).cases") ?? []).enumerated() {
            let at = "\(path).cases[\(i)]"
            guard let m = r.mapping(item, at, allowed: ["values", "fields"]) else { continue }
            let values = parseValues(m.first { $0.key == "values" }?.node, "\(at).values", r)
            var branchSeen = seen
            let inner = parseList(
                m.first { $0.key == "fields" }?.node, "\(at).fields", r, depth: depth + 1, prefix: prefix, seen: &branchSeen)
            union += branchSeen.filter { !union.contains($0) }
            cases.append(.init(values: values, elements: inner))
        }
        var defaultSeen = seen
        let otherwise = g("default").map { parseList($0, "\(path).default", r, depth: depth + 1, prefix: prefix, seen: &defaultSeen) } ?? []
        seen = union + defaultSeen.filter { !union.contains($0) }
        return .choice(by: by, cases: cases, otherwise: otherwise)
    }

    /// `values: 3`, `values: 0-2` or `values: [0, 4-6]`.
    static func parseValues(_ node: Node?, _ path: String, _ r: YAMLReader) -> [ClosedRange<UInt64>] {
        guard let node else {
            r.issue(nil, path, "a case needs 'values': a number, a range such as 0-2, or a list of them")
            return []
        }
        let items = node.sequence.map { Array($0) } ?? [node]
        var out: [ClosedRange<UInt64>] = []
        for (i, item) in items.enumerated() {
            let text = item.scalar?.string ?? ""
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = parts.compactMap { p -> UInt64? in
                p.lowercased().hasPrefix("0x") ? UInt64(p.dropFirst(2), radix: 16) : UInt64(p)
            }
            guard (1...2).contains(parts.count), numbers.count == parts.count, numbers[0] <= numbers[numbers.count - 1] else {
                r.issue(item, node.sequence == nil ? path : "\(path)[\(i)]", "'\(text)' is not a value or a range such as 0-2")
                continue
            }
            out.append(numbers[0]...numbers[numbers.count - 1])
        }
        return out
    }
}
