/// The JSON Schema of profile files (JSON Schema 2020-12), written from ``LanguageKeys``: editors
/// that understand it check a profile as it is typed. `make schema` writes it to
/// `profiles/profile.schema.json`; `make test` fails when that file is not what this writes.
///
/// The schema sees a file as a typed YAML reader does: `0x15` is a number, `2024-01-01` a date
/// (written as text), `"61"` text. So hex made only of digits must be quoted, as cardscan asks.
public enum LanguageSchema {
    /// The schema, as JSON text with two-space indentation and a final newline.
    public static func json() -> String {
        var defs: [(String, JSON)] = []
        for place in LanguageKey.Place.allCases where place != .profile {
            defs.append((place.rawValue, object(place)))
        }
        defs.append(("step-list", .object([("type", .string("array")), ("items", ref(.step))])))
        defs.append(
            (
                "layout",
                .object([
                    ("anyOf", .array([.object([("type", .string("array")), ("items", ref(.element))]), ref(.layoutChange)]))
                ])
            ))
        var root = object(.profile).members
        root.insert(("$schema", .string("https://json-schema.org/draft/2020-12/schema")), at: 0)
        root.insert(("$id", .string("https://cardscan.invalid/profile.schema.json")), at: 1)
        root.insert(("title", .string("cardscan card profile (format 2)")), at: 2)
        root.insert(
            (
                "description",
                .string("How to recognise a card, the commands that read it, and how its answers become a report. docs/profile-format.md")
            ),
            at: 3)
        // `extends`: the parent gives what the child leaves out.
        if let i = root.firstIndex(where: { $0.0 == "required" }) { root[i].1 = .array([.string("id"), .string("name")]) }
        root.append(
            (
                "if", .object([("not", .object([("required", .array([.string("extends")]))]))])
            ))
        root.append(("then", .object([("required", .array([.string("currency"), .string("steps")]))])))
        root.append(("$defs", .object(defs)))
        return JSON.object(root).text(indent: 0) + "\n"
    }

    private static func ref(_ place: LanguageKey.Place) -> JSON { .object([("$ref", .string("#/$defs/\(place.rawValue)"))]) }

    private static func object(_ place: LanguageKey.Place) -> JSON {
        let keys = LanguageKeys.keys(in: place)
        var members: [(String, JSON)] = [("type", .string("object")), ("additionalProperties", .bool(false))]
        // What a profile that extends another may leave to its parent is not required here
        // (cardscan checks the merged profile).
        let required = keys.filter(\.required).map { JSON.string($0.name) }
        if !required.isEmpty, place != .trips, place != .contracts { members.append(("required", .array(required))) }
        members.append(("properties", .object(keys.map { k in (k.name, schema(k.value, describing: k.meaning)) })))
        return .object(members)
    }

    private static func schema(_ v: LanguageKey.ValueKind, describing meaning: String? = nil) -> JSON {
        var members: [(String, JSON)]
        switch v {
        case .text, .zone: members = [("type", .string("string"))]
        case .name: members = [("type", .string("string")), ("pattern", .string("^[^ .\\[\\]:/]+$"))]
        case .integer(let r):
            members = [("type", .string("integer"))]
            if r.lowerBound > Int.min { members.append(("minimum", .int(r.lowerBound))) }
            if r.upperBound < Int.max { members.append(("maximum", .int(r.upperBound))) }
        case .boolean: members = [("type", .string("boolean"))]
        case .hex: members = [("type", .string("string")), ("pattern", .string("^([0-9A-Fa-f]{2}[ :]?)+$"))]
        case .tag: members = [("type", .string("string")), ("pattern", .string("^([0-9A-Fa-f]{2}){1,4}$"))]
        case .choice(let words): members = [("enum", .array(words.map { .string($0) }))]
        case .date: members = [("type", .string("string")), ("pattern", .string("^\\d{4}-\\d{2}-\\d{2}$"))]
        case .dateOrName:
            members = [("type", .string("string")), ("pattern", .string("^(\\d{4}-\\d{2}-\\d{2}|[^ .\\[\\]:/0-9][^ .\\[\\]:/]*)$"))]
        case .bitRange: members = [("type", .string("string")), ("pattern", .string("^\\d+-\\d+$"))]
        case .scalar: members = [("type", .array([.string("string"), .string("integer")]))]
        case .values:
            let one = JSON.object([("type", .array([.string("string"), .string("integer")]))])
            members = [("anyOf", .array([one, .object([("type", .string("array")), ("items", one)])]))]
        case .reference: members = [("anyOf", .array([.object([("type", .string("string"))]), ref(.reference)]))]
        case .numberOrReference(let r): members = [("anyOf", .array([schema(.integer(r)), ref(.reference)]))]
        case .numberOrWord(let r, let w): members = [("anyOf", .array([schema(.integer(r)), schema(.choice([w]))]))]
        case .numberOr(let r, let place): members = [("anyOf", .array([schema(.integer(r)), ref(place)]))]
        case .mapping(let place): members = ref(place).members
        case .list(let inner): members = [("type", .string("array")), ("items", schema(inner))]
        case .oneOrList(let inner):
            members = [("anyOf", .array([schema(inner), .object([("type", .string("array")), ("items", schema(inner))])]))]
        case .named(let inner): members = [("type", .string("object")), ("additionalProperties", schema(inner))]
        case .codeMap: members = [("type", .string("object")), ("additionalProperties", .object([("type", .string("string"))]))]
        case .steps: members = [("$ref", .string("#/$defs/step-list"))]
        case .layout: members = [("$ref", .string("#/$defs/layout"))]
        case .elements: members = [("type", .string("array")), ("items", ref(.element))]
        case .textOr(let place): members = [("anyOf", .array([.object([("type", .string("string"))]), ref(place)]))]
        case .field: members = ref(.field).members
        }
        if let meaning { members.append(("description", .string(meaning))) }
        return .object(members)
    }

    /// Just enough JSON to write the schema with its members in order.
    indirect enum JSON {
        case string(String), int(Int), bool(Bool), array([JSON]), object([(String, JSON)])

        var members: [(String, JSON)] { if case .object(let m) = self { return m } else { return [] } }

        func text(indent: Int) -> String {
            let pad = String(repeating: "  ", count: indent + 1), close = String(repeating: "  ", count: indent)
            switch self {
            case .string(let s): return Self.quoted(s)
            case .int(let i): return String(i)
            case .bool(let b): return b ? "true" : "false"
            case .array(let a):
                if a.allSatisfy({ if case .string = $0 { return true } else { return false } }), a.count <= 8 {
                    return "[" + a.map { $0.text(indent: 0) }.joined(separator: ", ") + "]"
                }
                return "[\n" + a.map { pad + $0.text(indent: indent + 1) }.joined(separator: ",\n") + "\n" + close + "]"
            case .object(let m):
                if m.isEmpty { return "{}" }
                return "{\n" + m.map { pad + Self.quoted($0.0) + ": " + $0.1.text(indent: indent + 1) }.joined(separator: ",\n") + "\n"
                    + close + "}"
            }
        }

        static func quoted(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        }
    }
}
