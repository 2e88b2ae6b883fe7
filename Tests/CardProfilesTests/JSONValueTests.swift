import Testing

@testable import CardProfiles

/// Expected reports are read with Foundation's JSONDecoder: what RFC 8259 rejects is
/// rejected (but a trailing comma, which swift-corelibs-foundation accepts), what it allows
/// (surrogate pairs) is read, and a report's numbers are integers.
@Suite struct JSONValueTests {
    @Test func readsAReport() throws {
        let v = try JSONValue(parsing: #"{"b": [1, -2, true, null], "a": "x\u00e9\ud83d\ude80"}"#)
        #expect(v["a"] == .string("xé🚀"))
        #expect(v["b"] == .array([.int(1), .int(-2), .bool(true), .null]))
        #expect(ReportDiff.compare(expected: v, actual: try JSONValue(parsing: #"{"a": "xé🚀", "b": [1, -2, true, null]}"#)).isEmpty)
    }

    @Test(arguments: [#"{"a": "\q"}"#, "{\"a\": \"\u{01}\"}", #"{"a": 01}"#, #"{"a": 1} x"#, #"{"a": 1.5}"#, "", #"{"a" 1}"#])
    func rejectsWhatIsNotAReport(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func writesWhatItReads() throws {
        let text = #"{"name":"Suica","trips":[{"amount":-160,"time":"2024-01-01"}],"partial":false}"#
        #expect(try JSONValue(parsing: JSONValue(parsing: text).serialized()) == JSONValue(parsing: text))
    }
}
