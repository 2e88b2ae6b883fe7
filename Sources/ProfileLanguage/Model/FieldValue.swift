/// A value of a report, typed as the card's bytes gave it: a number, text, a calendar date, a
/// date and time, a time of day, or an amount of money.
///
/// `description` is the value as the JSON report writes it (docs/report.md): a number or an
/// amount (in minor units) as digits, a date `2024-03-05`, a date and time
/// `2024-03-05T08:30:15+08:00`, a time of day `08:30` or `08:30:15`.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    /// A whole number.
    case int(Int)
    /// Text.
    case string(String)
    /// A calendar date.
    case date(CivilDate)
    /// A date and time of day, with its UTC offset when known.
    case dateTime(CivilDateTime)
    /// A time of day.
    case time(TimeOfDay)
    /// An amount of money.
    case money(Money)

    public var description: String {
        switch self {
        case .int(let v): return String(v)
        case .string(let s): return s
        case .date(let d): return d.description
        case .dateTime(let t): return t.description
        case .time(let t): return t.description
        case .money(let m): return String(m.minorUnits)
        }
    }

    /// A number, or an amount in minor units.
    public var intValue: Int? {
        switch self {
        case .int(let v): return v
        case .money(let m): return m.minorUnits
        default: return nil
        }
    }

    /// Text as the card gave it (not a date, a time or a number).
    public var isText: Bool { if case .string = self { return true } else { return false } }

    /// Whether the JSON report writes it as a number (else as a string).
    public var isNumber: Bool { intValue != nil }

    /// The calendar date of a date, or of a date and time.
    public var date: CivilDate? {
        switch self {
        case .date(let d): return d
        case .dateTime(let t): return t.date
        default: return nil
        }
    }

    /// The amount of an amount of money.
    public var money: Money? { if case .money(let m) = self { return m } else { return nil } }
}
