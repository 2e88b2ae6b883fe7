/// How a card number is written out (docs/profile-format.md §Fields, "Card numbers"): the
/// value's digits zero-padded to `digits`, between a `prefix` and a `suffix`, then a Luhn check
/// digit (ISO/IEC 7812-1 Annex B) over every digit so far, then spaces after each `group` of
/// characters — the way an operator prints the number on the card (Myki `308425…`, PRESTO
/// `312401 1234 5678 005`). Pure text work; no I/O.
public struct NumberText: Sendable, Equatable {
    /// Zero-pad an integer's decimal digits to this many (more digits are kept).
    public var digits: Int?
    /// `prefix`: written before the digits.
    public var prefix = ""
    /// `suffix`: written after the digits, before the check digit.
    public var suffix = ""
    /// `check-digit`: a digit worked out from the digits so far, appended.
    public var checkDigit: CheckDigit?
    /// Group sizes in characters; what is left after the last group follows it as one group.
    public var group: [Int] = []

    /// No padding, affixes, check digit or groups: a value written as the report writes it.
    public init() {}

    /// `value` written out: an integer as decimal digits (its sign kept in front), any other value
    /// as the report writes it.
    public func write(_ value: FieldValue) -> String {
        var core: String
        switch value {
        case .int(let i):
            core = String(i.magnitude)
            if let digits, core.count < digits { core = String(repeating: "0", count: digits - core.count) + core }
            if i < 0 { core = "-" + core }
        default:
            core = value.description
        }
        var text = prefix + core + suffix
        switch checkDigit {
        case .luhn?: text.append(Character(String(Self.luhnDigit(of: text))))
        case .digitSum10?: text += "(\(Self.digitSum10(of: text)))"
        case nil: break
        }
        guard !group.isEmpty else { return text }
        var out = "", rest = Substring(text)
        for size in group where !rest.isEmpty {
            if !out.isEmpty { out.append(" ") }
            out += rest.prefix(size)
            rest = rest.dropFirst(size)
        }
        if !rest.isEmpty { out += " " + rest }
        return out
    }

    /// The check digits a card number may end with.
    public enum CheckDigit: String, Sendable, CaseIterable {
        /// ISO/IEC 7812-1 Annex B, appended as a digit.
        case luhn
        /// (10 − the digits' sum mod 10) mod 10, written `(d)` (Shenzhen Tong).
        case digitSum10 = "digit-sum-10"
    }

    /// (10 − the sum of `text`'s decimal digits mod 10) mod 10.
    public static func digitSum10(of text: String) -> Int { (10 - text.compactMap(\.wholeNumberValue).reduce(0, +) % 10) % 10 }

    /// The Luhn check digit of the decimal digits in `text` (other characters are skipped):
    /// from the right, every second digit doubled (and 9 subtracted past 9), the digit that
    /// brings the sum to a multiple of 10.
    public static func luhnDigit(of text: String) -> Int {
        var sum = 0
        for (i, d) in text.compactMap(\.wholeNumberValue).reversed().enumerated() {
            let v = i % 2 == 0 ? d * 2 : d
            sum += v > 9 ? v - 9 : v
        }
        return (10 - sum % 10) % 10
    }
}
