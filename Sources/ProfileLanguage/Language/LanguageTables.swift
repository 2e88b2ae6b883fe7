/// The key tables of docs/profile-format.md, written from ``LanguageKeys``: one table per place,
/// each key with its value, meaning and an example. `make schema` puts them between the
/// `<!-- keys: PLACE -->` and `<!-- /keys -->` markers of the page; `make test` fails when the
/// page's tables are not what this writes.
public enum LanguageTables {
    /// The table of `place`, in Markdown.
    public static func table(_ place: LanguageKey.Place) -> String {
        var lines = ["| key | value | meaning | example |", "|---|---|---|---|"]
        for k in LanguageKeys.keys(in: place) {
            let name = "`\(k.name)`" + (k.required ? " (required)" : "")
            let example = k.example.isEmpty ? "" : "`\(k.example.replacingOccurrences(of: "|", with: "\\|"))`"
            lines.append("| \(name) | \(describe(k.value)) | \(k.meaning.replacingOccurrences(of: "|", with: "\\|")) | \(example) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with every `<!-- keys: PLACE -->` … `<!-- /keys -->` block replaced by the place's
    /// table; nil when a marker names no place or is not closed.
    public static func fill(_ text: String) -> String? {
        var out = "", rest = Substring(text)
        while let open = rest.range(of: "<!-- keys: ") {
            out += rest[..<open.upperBound]
            rest = rest[open.upperBound...]
            guard let end = rest.range(of: " -->"), let place = LanguageKey.Place(rawValue: String(rest[..<end.lowerBound])),
                let close = rest.range(of: "<!-- /keys -->")
            else { return nil }
            out += rest[..<end.upperBound] + "\n" + table(place) + "\n"
            rest = rest[close.lowerBound...]
        }
        return out + rest
    }

    static func describe(_ v: LanguageKey.ValueKind) -> String {
        switch v {
        case .text: return "text"
        case .name: return "name"
        case .integer(let r):
            if r == Int.min...Int.max { return "number" }
            return "number \(r.lowerBound)–\(r.upperBound)"
        case .boolean: return "true/false"
        case .hex(let r):
            return r.lowerBound == r.upperBound ? "hex, \(r.lowerBound) byte(s)" : "hex, \(r.lowerBound)–\(r.upperBound) bytes"
        case .tag: return "tag"
        case .choice(let words): return words.map { "`\($0)`" }.joined(separator: ", ")
        case .date: return "date"
        case .dateOrName: return "date, or a value's name"
        case .zone: return "offset or zone name"
        case .bitRange: return "bit range `LOW-HIGH`"
        case .values: return "values"
        case .scalar: return "number or text"
        case .reference: return "value reference"
        case .numberOrReference(let r): return "number \(r.lowerBound)–\(r.upperBound), or a value reference"
        case .numberOrWord(let r, let w): return "number \(r.lowerBound)–\(r.upperBound), or `\(w)`"
        case .numberOr(let r, let place): return "number \(r.lowerBound)–\(r.upperBound), or " + place.title
        case .mapping(let place): return place.title
        case .list(let inner): return "list of " + describe(inner)
        case .oneOrList(let inner): return describe(inner) + ", or a list"
        case .named(let inner): return "by name: " + describe(inner)
        case .codeMap: return "codes → words"
        case .steps: return "steps"
        case .layout: return "layout"
        case .elements: return "layout elements"
        case .textOr(let place): return "text, or " + place.title
        case .field: return "field"
        }
    }
}
