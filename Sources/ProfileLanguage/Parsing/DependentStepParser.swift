import APDU
import Yams

/// The parts of a profile file that make steps depend on earlier answers
/// (docs/profile-format.md §Steps that depend on earlier answers): value references,
/// `for-each`, `dol`, and the `terminal` values.
enum DependentStepParser {
    /// `app:6F/A5/9F38`, `gpo`, or `{ from: gpo:80, offset: 2 }`, `{ tag: [9F4D, DF60], byte: 0 }`.
    static func reference(_ node: Node?, _ path: String, _ r: YAMLReader) -> ValueReference? {
        guard let node else { return nil }
        if case .scalar = node {
            guard let text = r.string(node, path) else { return nil }
            return answerReference(text, node, path, r)
        }
        guard let m = r.mapping(node, path, allowed: ["from", "tag", "offset", "length", "byte"]) else { return nil }
        let g = { (k: String) in m.node(k) }
        var ref: ValueReference
        switch (g("from"), g("tag")) {
        case (let f?, let t?):
            guard let name = r.string(f, "\(path).from"), let tags = self.tags(t, "\(path).tag", r) else { return nil }
            if name.contains(":") {
                r.issue(f, "\(path).from", "with 'tag', 'from' names an answer only (the tag is looked for anywhere in it)")
            }
            ref = ValueReference(place: .tagsIn(name, tags), line: r.line(node))
        case (let f?, nil):
            guard let text = r.string(f, "\(path).from"), let a = answerReference(text, f, "\(path).from", r) else { return nil }
            ref = a
        case (nil, let t?):
            guard let tags = self.tags(t, "\(path).tag", r) else { return nil }
            ref = ValueReference(place: .tags(tags), line: r.line(node))
        default:
            r.issue(
                node, path,
                "a value is found by 'from' (an answer or ANSWER:TAG/PATH), by 'tag' (in any answer), or by both (a tag inside that answer)"
            )
            return nil
        }
        if let b = g("byte") {
            if g("offset") != nil || g("length") != nil { r.issue(b, "\(path).byte", "'byte: N' is one byte: leave out offset and length") }
            ref.offset = r.int(b, "\(path).byte", range: 0...4095) ?? 0
            ref.length = 1
        } else {
            ref.offset = r.int(g("offset"), "\(path).offset", range: 0...4095) ?? 0
            ref.length = g("length").flatMap { r.int($0, "\(path).length", range: 1...4096) }
        }
        return ref
    }

    static func answerReference(_ text: String, _ node: Node, _ path: String, _ r: YAMLReader) -> ValueReference? {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first, !name.isEmpty else {
            r.issue(node, path, "'\(text)' names no answer (e.g. fci or fci:6F/A5/9F38)")
            return nil
        }
        var tlv: TLVPath? = nil
        if parts.count == 2 {
            guard let p = try? TLVPath(parts[1]) else {
                r.issue(node, path, "'\(parts[1])' is not a tag path (e.g. fci:6F/A5/9F38)")
                return nil
            }
            tlv = p
        }
        return ValueReference(place: .answer(name, tlv), line: r.line(node))
    }

    /// One tag or a list of them (`57` or `[5A, 57]`).
    static func tags(_ node: Node, _ path: String, _ r: YAMLReader) -> [TLVTag]? {
        var out: [TLVTag] = []
        for (i, n) in (r.list(node, path) ?? []).enumerated() {
            guard let text = r.string(n, path) else { return nil }
            guard let tag = try? TLVTag(hex: text) else {
                r.issue(
                    n, node.sequence == nil ? path : "\(path)[\(i)]",
                    "'\(text)' is not a BER-TLV tag (1 to 4 bytes of hex, e.g. 5A or 9F4D)")
                return nil
            }
            out.append(tag)
        }
        if out.isEmpty { r.issue(node, path, "the list of tags is empty") }
        return out.isEmpty ? nil : out
    }

    /// `for-each: { list: REF, tag: 61, order-by: 87, skip: { 4F: [A000000384] }, label: application }`
    /// with the step's `steps`.
    static func each(_ node: Node, steps: Node?, _ path: String, _ r: YAMLReader, parseStep: (Node, String) -> Step?) -> EachStep? {
        guard let m = r.mapping(node, path, allowed: ["list", "tag", "order-by", "skip", "label"]) else { return nil }
        let g = { (k: String) in m.node(k) }
        for k in ["list", "tag"] where g(k) == nil { r.issue(node, "\(path).\(k)", "required key '\(k)' is missing") }
        let stepsPath = path.replacingOccurrences(of: ".for-each", with: ".steps")
        if steps == nil { r.issue(node, stepsPath, "a for-each step needs 'steps': what to do with each entry") }
        guard let list = reference(g("list"), "\(path).list", r),
            let tagNode = g("tag"), let tag = tags(tagNode, "\(path).tag", r)?.first
        else { return nil }
        var each = EachStep(list: list, tag: tag, steps: [])
        if let o = g("order-by") { each.orderBy = tags(o, "\(path).order-by", r)?.first }
        for (k, v) in r.mapping(g("skip"), "\(path).skip") ?? [] {
            guard let t = try? TLVTag(hex: k) else {
                r.issue(g("skip"), "\(path).skip", "'\(k)' is not a BER-TLV tag")
                continue
            }
            let prefixes = (r.list(v, "\(path).skip.\(k)") ?? []).compactMap { r.hex($0, "\(path).skip.\(k)") }
            each.skip.append((t, prefixes))
        }
        each.label = r.string(g("label"), "\(path).label")
        for (i, n) in (r.sequence(steps, stepsPath) ?? []).enumerated() {
            let p = "\(stepsPath)[\(i)]"
            if case .mapping(let inner) = n, inner.keys.contains(where: { $0.string == "for-each" }) {
                r.issue(n, p, "for-each steps do not nest")
                continue
            }
            if let s = parseStep(n, p) { each.steps.append(s) }
        }
        if steps != nil, each.steps.isEmpty, r.sequence(steps, stepsPath)?.isEmpty == true {
            r.issue(steps, stepsPath, "the list of steps is empty")
        }
        return each
    }

    /// `terminal: { 9F02: { number: 0 }, 9F1A: { number: 840, option: country }, 9A: today, 9F66: F620C000 }`.
    static func terminal(_ node: Node?, _ r: YAMLReader) -> [TLVTag: TerminalValue] {
        var out: [TLVTag: TerminalValue] = [:]
        for (k, v) in r.mapping(node, "terminal") ?? [] {
            let path = "terminal.\(k)"
            guard let tag = try? TLVTag(hex: k) else {
                r.issue(node, path, "'\(k)' is not a BER-TLV tag (e.g. 9F1A)")
                continue
            }
            if case .scalar = v {
                guard let text = r.string(v, path) else { continue }
                switch text {
                case "today": out[tag] = .today
                case "now": out[tag] = .now
                case "random": out[tag] = .random
                default: if let b = r.hex(v, path) { out[tag] = .bytes(b) }
                }
                continue
            }
            guard let m = r.mapping(v, path, allowed: ["number", "option"]) else { continue }
            let g = { (k: String) in m.node(k) }
            guard let n = r.int(g("number"), "\(path).number", range: 0...999_999_999_999) else {
                if g("number") == nil { r.issue(v, "\(path).number", "required key 'number' is missing (the value, written in BCD)") }
                continue
            }
            let option = r.string(g("option"), "\(path).option")
            if let option, !TerminalValue.optionNames.contains(option) {
                r.issue(
                    g("option"), "\(path).option",
                    "unknown option '\(option)' (expected \(TerminalValue.optionNames.joined(separator: " or ")))")
            }
            out[tag] = .number(UInt64(n), option: option)
        }
        return out
    }
}
