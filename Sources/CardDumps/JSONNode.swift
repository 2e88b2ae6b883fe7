import APDU
import CardReports

/// A place in a dump's JSON: a value (nil when the key is absent) and its path
/// (`mifareDesfire.applications.1193046`). Reading through it checks the value and names the
/// path when it is wrong.
struct JSONNode {
    let value: JSONValue?
    let path: String
    let file: String

    init(_ value: JSONValue?, path: String = "", file: String) {
        self.value = value
        self.path = path
        self.file = file
    }

    func fail(_ reason: String) -> DumpError { DumpError(file: file, place: path.isEmpty ? nil : path, reason: reason) }

    var exists: Bool {
        if case .null = value { return false }
        return value != nil
    }

    subscript(key: String) -> JSONNode {
        var v: JSONValue? = nil
        if case .object(let pairs)? = value { v = pairs.first { $0.0 == key }?.1 }
        return JSONNode(v, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The members of an object, in the text's order.
    func members() throws(DumpError) -> [(key: String, node: JSONNode)] {
        guard case .object(let pairs)? = value else { throw fail(exists ? "expected an object" : "missing") }
        return pairs.map { ($0.0, JSONNode($0.1, path: path.isEmpty ? $0.0 : "\(path).\($0.0)", file: file)) }
    }

    func items() throws(DumpError) -> [JSONNode] {
        guard case .array(let list)? = value else { throw fail(exists ? "expected a list" : "missing") }
        return list.enumerated().map { JSONNode($1, path: "\(path)[\($0)]", file: file) }
    }

    func string() throws(DumpError) -> String {
        guard case .string(let s)? = value else { throw fail(exists ? "expected text" : "missing") }
        return s
    }

    func int() throws(DumpError) -> Int {
        guard case .int(let i)? = value else { throw fail(exists ? "expected a whole number" : "missing") }
        return i
    }

    /// A boolean, false when absent (tools leave out defaults).
    func bool() throws(DumpError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let b)?: return b
        default: throw fail("expected true or false")
        }
    }

    /// Hex text, `count` bytes when given.
    func hex(count: Int? = nil) throws(DumpError) -> [UInt8] {
        let text = try string()
        let bytes: [UInt8]
        do { bytes = try Hex.parse(text) } catch { throw fail(error.message) }
        if let count, bytes.count != count { throw fail("\(bytes.count) bytes where \(count) belong") }
        return bytes
    }
}

/// A decimal number written as text (a JSON object's key), in `range`.
func decimalKey(_ key: String, _ range: ClosedRange<Int>, _ node: JSONNode, what: String) throws(DumpError) -> Int {
    guard let n = Int(key), range.contains(n) else {
        throw node.fail("'\(key)' is not a \(what) (\(range.lowerBound)…\(range.upperBound))")
    }
    return n
}
