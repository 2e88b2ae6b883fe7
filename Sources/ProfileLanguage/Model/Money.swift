/// An amount in a currency's minor unit (fen, cents, yen), as reports carry it, and its
/// written form: `¥57.10`, `HK$1,000.00`, `-¥3.00`, `¥1,270` for yen, `₩17,650`, `BHD 1.250`, `£56.40`.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// In the currency's minor unit.
    public var minorUnits: Int
    /// ISO 4217 alphabetic code.
    public var currency: String

    /// `minorUnits` of `currency` (an ISO 4217 code).
    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The symbol for the currencies cardscan's profiles use; others are written with their
    /// code. The digits after the point are ISO 4217's (``CurrencyExponent``).
    static func symbol(_ currency: String) -> String {
        switch currency {
        case "CNY", "JPY": return "¥"
        case "HKD": return "HK$"
        case "SGD": return "S$"
        case "USD": return "$"
        case "EUR": return "€"
        case "GBP": return "£"
        case "MOP": return "MOP$"
        case "KRW": return "₩"
        case "NZD": return "NZ$"
        case "AUD": return "A$"
        case "ILS": return "₪"
        default: return currency + " "
        }
    }

    /// The amount in the major unit as plain decimal text, for spreadsheets: `-14.00`,
    /// `-1400` for won, `1.250` for Bahraini dinars (ISO 4217 exponent; no symbol, no grouping).
    public var decimalText: String { written(symbol: "", group: { String($0) }) }

    public var description: String { written(symbol: Self.symbol(currency), group: Self.grouped) }

    /// Sign, symbol, the major units as `group` writes them, then the point and the minor
    /// units with as many digits as the currency's ISO 4217 exponent.
    private func written(symbol: String, group: (UInt) -> String) -> String {
        let digits = CurrencyExponent.of(currency)
        let sign = minorUnits < 0 ? "-" : ""
        let v = minorUnits.magnitude
        if digits == 0 { return "\(sign)\(symbol)\(group(v))" }
        var unit: UInt = 1
        for _ in 0..<digits { unit *= 10 }
        let frac = String(v % unit)
        return "\(sign)\(symbol)\(group(v / unit)).\(String(repeating: "0", count: digits - frac.count))\(frac)"
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ n: UInt) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }
}
