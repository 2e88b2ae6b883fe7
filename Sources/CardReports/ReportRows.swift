import Foundation
import ProfileLanguage

/// One value of a report: its key (as the profile names it) and its typed value.
public typealias ReportField = (name: String, value: FieldValue)

/// An ordered list of a report's values — the card's fields, one trip, one contract — in the
/// order the profile lists them (the JSON report's key order). A collection of
/// ``ReportField``s, and a value by its key: `trip["station"]`.
public protocol ReportRow: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral,
    Sendable
where Element == ReportField, Index == Int, ArrayLiteralElement == ReportField {
    /// The row's values, in order.
    var fields: [ReportField] { get set }
    /// A row of `fields`, in that order.
    init(fields: [ReportField])
}

extension ReportRow {
    public init() { self.init(fields: []) }
    /// A row of the values listed, in that order.
    public init(arrayLiteral fields: ReportField...) { self.init(fields: fields) }
    /// The position of the first value: 0.
    public var startIndex: Int { 0 }
    /// The position after the last value: the number of values.
    public var endIndex: Int { fields.count }
    /// The value at `position`, with its key.
    public subscript(position: Int) -> ReportField {
        get { fields[position] }
        set { fields[position] = newValue }
    }
    /// Replaces the values in `range` with `new`.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with new: C) where C.Element == ReportField {
        fields.replaceSubrange(range, with: new)
    }

    /// The value named `key`, when the row has it.
    public subscript(key: String) -> FieldValue? {
        for f in fields where f.name == key { return f.value }
        return nil
    }

    /// The text of the value named `key` (a number's digits), when the row has it.
    func text(_ key: String) -> String? { self[key]?.description }

    /// The row as the JSON report writes it.
    public var json: JSONValue { .object(fields.map { ($0.name, $0.value.json) }) }
}

extension FieldValue {
    /// As the JSON report writes it: a number or an amount as an integer, the rest as text.
    public var json: JSONValue {
        if let i = intValue { return .int(i) }
        if case .string(let s) = self { return .string(s) }
        return .string(description)
    }
}

/// The card's own values (`card` in the JSON report), or one application's.
public struct CardFields: ReportRow, Equatable {
    /// The card's values, in the order the profile lists them.
    public var fields: [ReportField]
    /// The card values `fields`, in that order.
    public init(fields: [ReportField]) { self.fields = fields }
    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }

    /// The card's number as printed on it (`number`).
    public var number: String? { text("number") }
    /// The first day the card may be used (`validFrom`).
    public var validFrom: CivilDate? { self["validFrom"]?.date }
    /// The last day the card may be used (`validUntil`).
    public var validUntil: CivilDate? { self["validUntil"]?.date }
}

/// One trip of the card's log: when, what kind, how much, where — the keys of fixed meaning
/// in docs/report.md — and any other value its profile reads.
public struct Trip: ReportRow, Equatable {
    /// The trip's values, in the order the report writes them.
    public var fields: [ReportField]
    /// A trip of `fields`, in that order.
    public init(fields: [ReportField]) { self.fields = fields }
    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }

    /// `time`: a date and time (with the card's UTC offset when it keeps one) or a date alone.
    public var time: FieldValue? { self["time"] }
    /// The day of the trip.
    public var date: CivilDate? { time?.date }
    /// The moment of the trip, when the card says the time and where it was kept.
    public var instant: Date? { if case .dateTime(let t)? = time { return t.instant } else { return nil } }
    /// `kind`: `purchase`, `top-up`, `metro`, … as the profile names it.
    public var kind: String? { text("kind") }
    /// `amount`: the change to the balance, negative for a charge, positive for a top-up.
    public var amount: Money? { self["amount"]?.money }
    /// `mode`: `bus`, `metro`, `tram`, `train`, `ferry`, …
    public var mode: String? { text("mode") }
    /// `station`: its name, or its code when no table names it.
    public var station: String? { text("station") }
    /// `route`: its name, or its code when no table names it.
    public var route: String? { text("route") }
    /// `contract`: the contract the trip used.
    public var contract: String? { text("contract") }
}

/// A pass or product the card holds: its name, validity, journeys or value left.
public struct Contract: ReportRow, Equatable {
    /// The contract's values, in the order the profile lists them.
    public var fields: [ReportField]
    /// A contract of `fields`, in that order.
    public init(fields: [ReportField]) { self.fields = fields }
    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }

    /// `name`, else `tariff`: what the contract is.
    public var name: String? { text("name") ?? text("tariff") }
    /// `validFrom`: the first day the contract may be used.
    public var validFrom: CivilDate? { self["validFrom"]?.date }
    /// `validUntil`: the last day the contract may be used.
    public var validUntil: CivilDate? { self["validUntil"]?.date }
    /// `remaining`: journeys left.
    public var remaining: Int? { self["remaining"]?.intValue }
    /// `value`: a stored value left on the contract.
    public var value: Money? { self["value"]?.money }
    /// `zones`: the zones it is valid in.
    public var zones: String? { text("zones") }
    /// `status`.
    public var status: String? { text("status") }
}
