/// How to turn bytes of an answer into one report value (docs/profile-format.md §Fields).
public struct FieldSpec: Sendable {
    public var source: Source
    public var offset: Int = 0
    /// Byte count; nil means "to the end of the data".
    public var length: Int?
    public var type: FieldType = .uint
    public var littleEndian = false
    /// Keep only these bits of the integer (bit 0 = least significant); with `int`, the
    /// top bit of the range is the sign.
    public var bits: ClosedRange<Int>?
    public var mask: UInt64?
    public var scale: Int = 1
    public var add: Int = 0
    /// Integer → word lookup (`map`), with `default` for codes not listed.
    public var map: [Int: String]?
    public var mapDefault: String?
    /// For `days` / `seconds`: the day counting starts from, and the card's UTC offset.
    public var epoch: CivilDate?
    public var zoneMinutes: Int?
    public var yearBase = 2000
    /// `hex`: drop this many leading digits; strip leading zeros.
    public var dropDigits = 0
    public var stripZeros = false
    public var checkDigit: CheckDigit?
    /// `format: decimal`: report the integer as a decimal string (card numbers keep their
    /// digits exact in every JSON reader).
    public var decimalText = false
    /// A missing answer or an all-zero date leaves the key out instead of failing.
    public var optional = false
    public var line: Int

    public enum Source: Sendable, Equatable {
        /// Bytes of a named answer, or of the value at a BER-TLV path inside it.
        case answer(String, tlvPath: String?)
        /// The current record (inside `trips`).
        case record
        /// `difference: [a, b]` = a − b; `sum: [a, b]` = a + b. `older.NAME` in trips
        /// names the field of the next older record.
        case derived(DerivedOperation, [String])
    }

    public enum DerivedOperation: String, Sendable { case difference, sum }

    public enum CheckDigit: String, Sendable, CaseIterable {
        /// Shenzhen Tong: (10 − digit sum mod 10) mod 10, shown as `number(d)`.
        case digitSum10 = "digit-sum-10"
    }
}

public enum FieldType: String, Sendable, CaseIterable {
    case uint, int, bcd
    case bcdDate = "bcd-date", bcdDateTime = "bcd-datetime"
    case days, seconds
    case packedDate = "packed-date"
    case hex, ascii

    /// The exact byte length a type needs, when it has one.
    var fixedLength: Int? {
        switch self {
        case .bcdDate: return 4
        case .bcdDateTime: return 7
        case .packedDate: return 2
        default: return nil
        }
    }

    var isInteger: Bool { self == .uint || self == .int || self == .bcd || self == .days || self == .seconds }
}

/// A report value: JSON integer or string.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    case int(Int)
    case string(String)
    public var description: String {
        switch self { case .int(let v): return String(v); case .string(let s): return s }
    }
    public var intValue: Int? { if case .int(let v) = self { return v } else { return nil } }
}
