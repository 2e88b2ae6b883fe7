import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Expected reports are read by cardscan's own JSON parser: what RFC 8259 rejects is
/// rejected, what it allows (escapes, surrogate pairs) is read, and a report's numbers are
/// integers that fit 64 bits; it agrees with Foundation's JSONDecoder on every report.
@Suite struct JSONValueTests {
    @Test func readsAReport() throws {
        let v = try JSONValue(parsing: #"{"b": [1, -2, true, null], "a": "x\u00e9\ud83d\ude80"}"#)
        #expect(v["a"] == .string("xé🚀"))
        #expect(v["b"] == .array([.int(1), .int(-2), .bool(true), .null]))
        #expect(ReportDiff.compare(expected: v, actual: try JSONValue(parsing: #"{"a": "xé🚀", "b": [1, -2, true, null]}"#)).isEmpty)
    }

    @Test(arguments: [
        #"{"a": "\q"}"#, "{\"a\": \"\u{01}\"}", #"{"a": 01}"#, #"{"a": 1} x"#, #"{"a": 1.5}"#, "", #"{"a" 1}"#, #"{"a": 1,}"#,
        #"[1, 2,]"#, #"{"a": 1e3}"#, #"{"a": 9223372036854775808}"#, #"{"a": -}"#, #"{"a": "\ud83d"}"#, #"{"a": "\udc00"}"#,
        #"{"a": tru}"#, #"{"a": "x"#, "[" + String(repeating: "[", count: 300) + String(repeating: "]", count: 301),
        #"{"a": "\u12G4"}"#, #"{1: 2}"#,
    ])
    func rejectsWhatIsNotAReport(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    /// The same values as Foundation's JSONDecoder for every expected report of the fixtures,
    /// and the extremes of a 64-bit integer, escapes, and repeated keys (the last kept).
    @Test func agreesWithFoundationOnTheFixtures() throws {
        let root = #filePath.components(separatedBy: "/Tests/")[0] + "/Tests/Fixtures"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
        #expect(files.count >= 40)
        for f in files {
            let text = try String(contentsOfFile: root + "/" + f, encoding: .utf8)
            #expect(try JSONValue(parsing: text) == JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), "\(f)")
        }
        #expect(try JSONValue(parsing: "[9223372036854775807, -9223372036854775808, -0]") == .array([.int(.max), .int(.min), .int(0)]))
        #expect(try JSONValue(parsing: #" "\"\\\/\b\f\n\r\t\u0041\u00e9" "#) == .string("\"\\/\u{08}\u{0C}\n\r\tAé"))
        #expect(try JSONValue(parsing: #"{"b": 1, "a": 2, "b": 3}"#) == .object([("a", .int(2)), ("b", .int(3))]))
        #expect(try JSONValue(parsing: "{}") == .object([]) && JSONValue(parsing: " [ ] ") == .array([]))
    }

    @Test func writesWhatItReads() throws {
        let text = #"{"name":"Suica","trips":[{"amount":-160,"time":"2024-01-01"}],"partial":false}"#
        #expect(try JSONValue(parsing: JSONValue(parsing: text).serialized()) == JSONValue(parsing: text))
    }
}
