/// A small strict JSON parser (RFC 8259) for expected-report files; numbers must be integers,
/// as every number in a cardscan report is.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var line: Int
    public var description: String { "line \(line): \(reason)" }
}

extension JSONValue {
    public init(parsing text: String) throws(JSONParseError) {
        var p = Parser(bytes: Array(text.utf8))
        p.skipSpace()
        self = try p.value(depth: 0)
        p.skipSpace()
        if p.i < p.bytes.count { throw p.fail("unexpected text after the JSON value") }
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0

        func fail(_ reason: String) -> JSONParseError {
            JSONParseError(offset: i, reason: reason, line: bytes.prefix(i).filter { $0 == 0x0A }.count + 1)
        }
        mutating func skipSpace() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }
        mutating func expect(_ word: String) throws(JSONParseError) {
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("expected \(word)") }
            i += w.count
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth < 64 else { throw fail("nesting too deep") }
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                i += 1; skipSpace()
                var items: [JSONValue] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace(); items.append(try value(depth: depth + 1)); skipSpace()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "{"):
                i += 1; skipSpace()
                var pairs: [(String, JSONValue)] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
                    let k = try string(); skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1; skipSpace()
                    pairs.append((k, try value(depth: depth + 1))); skipSpace()
                    guard i < bytes.count else { throw fail("unterminated object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                    throw fail("expected ',' or '}'")
                }
            default:
                let start = i
                if bytes[i] == UInt8(ascii: "-") { i += 1 }
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                if i < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[i]) {
                    throw fail("only whole numbers appear in reports")
                }
                guard let n = Int(String(decoding: bytes[start..<i], as: UTF8.self)) else { i = start; throw fail("unexpected character") }
                return .int(n)
            }
        }

        mutating func string() throws(JSONParseError) -> String {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]; i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if c == UInt8(ascii: "\\") {
                    guard i < bytes.count else { break }
                    let e = bytes[i]; i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(v) else { throw fail("bad \\u escape") }
                        i += 4
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: out.append(e)
                    }
                } else { out.append(c) }
            }
            throw fail("unterminated string")
        }
    }
}
