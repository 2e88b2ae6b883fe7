import APDU
import Foundation
import ProfileLanguage

/// A JSON text that is not a report cardscan can compare: invalid JSON (RFC 8259), or a
/// number that is not an integer.
public struct JSONParseError: UserFacingError, Equatable {
    /// What is wrong with the text (from the parser: where, as `line L, column C: …`).
    public var reason: String
    /// An error that says `reason`.
    public init(reason: String) { self.reason = reason }
    public var message: String { "not a JSON report: \(reason)" }
    public var hint: String? { "an expected report is a JSON report (docs/report.md); write it again from a known-good read" }
}

extension JSONValue: Decodable {
    /// Parses JSON text (RFC 8259) with `JSONValueParser`. Object keys come back sorted
    /// (JSON objects are unordered; ``ReportDiff`` compares them by key).
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONValueParser.parse(text)
    }

    /// Parses JSON text keeping each object's keys in the order the text has them (a dump
    /// whose order means something: a FeliCa card's systems).
    public init(parsingInOrder text: String) throws(JSONParseError) {
        self = try JSONValueParser.parse(text, sortingKeys: false)
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return (path.isEmpty ? "" : "at \(path): ") + (underlying ?? context.debugDescription)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
            return
        }
        if let b = try? c.decode(Bool.self) {
            self = .bool(b)
            return
        }
        if let i = try? c.decode(Int.self) {
            self = .int(i)
            return
        }
        if let s = try? c.decode(String.self) {
            self = .string(s)
            return
        }
        if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
            return
        }
        if let o = try? c.decode([String: JSONValue].self) {
            self = .object(o.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            return
        }
        if (try? c.decode(Double.self)) != nil {
            throw DecodingError.typeMismatch(
                Int.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a number that is not an integer (report numbers are whole minor units)"))
        }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a JSON value"))
    }
}
