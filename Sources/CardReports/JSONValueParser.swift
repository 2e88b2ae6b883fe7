import APDU
import ProfileLanguage

/// Reads JSON text (RFC 8259) into a ``JSONValue`` straight from its UTF-8 bytes: one pass, no
/// intermediate objects, about ten times Foundation's `JSONDecoder` on expected reports
/// (`cardscan test` reads one per transcript; docs/performance.md). Strict: what RFC 8259
/// rejects is rejected (a trailing comma, a leading zero, a raw control character in a string,
/// invalid UTF-8), and a number must be an integer that fits 64 bits (a report's numbers are
/// whole minor units). Object keys come back sorted, the last of a repeated key kept.
struct JSONValueParser {
    /// Deeper nesting than this is refused (a report nests 4 deep), so no input can exhaust the stack.
    static let maximumDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Objects' keys sorted (a report compared by key), or in the order the text has them (a
    /// dump whose order means something).
    var sortsKeys = true

    static func parse(_ text: String, sortingKeys: Bool = true) throws(JSONParseError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            var p = JSONValueParser(bytes: buffer)
            p.sortsKeys = sortingKeys
            do throws(JSONParseError) {
                p.skipSpace()
                let v = try p.value(depth: 0)
                p.skipSpace()
                guard p.i == buffer.count else { throw p.fail("unexpected text after the JSON value") }
                return .success(v)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    func fail(_ reason: String) -> JSONParseError {
        // The line and column of byte i, for a message a person can act on.
        var line = 1, column = 1
        for b in bytes[0..<min(i, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONParseError(reason: "line \(line), column \(column): \(reason)")
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
        guard i < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var pairs: [(String, JSONValue)] = []
            var positions: [String: Int] = [:]  // a repeated key is found without a scan
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(pairs)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("an object key must be a string") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                if let k = positions[key] {
                    pairs[k].1 = v
                } else {
                    positions[key] = pairs.count
                    pairs.append((key, v))
                }
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an object") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
                i += 1
                if sortsKeys { pairs.sort { $0.0 < $1.0 } }
                return .object(pairs)
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .int(try integer())
        default:
            throw fail("'\(Character(Unicode.Scalar(bytes[i])))' cannot start a JSON value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("not a JSON value") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail("not a JSON value") }
        i += n
    }

    /// An integer: `-`? then `0` or a digit 1-9 and more digits; a fraction or exponent is refused.
    mutating func integer() throws(JSONParseError) -> Int {
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else {
            throw fail("a '-' must be followed by digits")
        }
        let first = i
        var magnitude: UInt64 = 0
        var overflow = false
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = s
            i += 1
        }
        if i - first > 1, bytes[first] == UInt8(ascii: "0") { throw fail("a number cannot start with 0") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            throw fail("a number that is not an integer (report numbers are whole minor units)")
        }
        let limit: UInt64 = negative ? UInt64(Int.max) + 1 : UInt64(Int.max)
        guard !overflow, magnitude <= limit else { throw fail("an integer larger than 64 bits") }
        return negative ? (magnitude == limit ? Int.min : -Int(magnitude)) : Int(magnitude)
    }

    /// A string from its opening quote: escapes decoded, UTF-8 checked.
    mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // The common case: no escapes, so the bytes are the string.
        var high: UInt8 = 0
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
            high |= bytes[i]
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
            // ASCII needs no check (the validating initialiser is generic, and its type
            // look-ups at run time were 3 % of a `cardscan test` run).
            if high < 0x80 { return String(decoding: text, as: UTF8.self) }
            guard let s = String(validating: text, as: UTF8.self) else {
                throw fail("a string that is not UTF-8")
            }
            return s
        }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw fail("the text ends inside a string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                break
            }
            guard b >= 0x20 else { throw fail("a control character inside a string must be escaped") }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { throw fail("the text ends inside an escape") }
            i += 2
            switch bytes[i - 1] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a high surrogate without its low half")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate without its low half") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("a low surrogate on its own")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("\\u\(scalar) is not a character") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("'\\\(Character(Unicode.Scalar(bytes[i - 1])))' is not a JSON escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
        return s
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("\\u needs 4 hex digits") }
        var v: UInt32 = 0
        for k in 0..<4 {
            guard let n = Hex.nibble(bytes[i + k]) else { throw fail("\\u needs 4 hex digits") }
            v = v << 4 | UInt32(n)
        }
        i += 4
        return v
    }
}
