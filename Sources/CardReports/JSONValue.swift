import ProfileLanguage

/// A JSON value with ordered object keys, so reports print in a stable, documented order.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number: always an integer (a report's amounts are whole minor units).
    case int(Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its keys and values in the order they are written (and compared).
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into h: inout Hasher) { h.combine(serialized()) }

    /// The value of `key` (its first, if repeated) when this is an object that has it, else nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// Compact (one line) or indented with two spaces.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(&out, pretty: pretty, indent: "")
        return out
    }

    private func write(_ out: inout String, pretty: Bool, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            let inner = indent + "  "
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + inner }
                v.write(&out, pretty: pretty, indent: inner)
            }
            out += pretty ? "\n" + indent + "]" : "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            let inner = indent + "  "
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + inner }
                JSONValue.quote(k, into: &out)
                out += pretty ? ": " : ":"
                v.write(&out, pretty: pretty, indent: inner)
            }
            out += pretty ? "\n" + indent + "}" : "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        // Most values need no escape: appended whole, not scalar by scalar.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
