/// An amount in a currency's minor unit (fen, cents, yen), as reports carry it, and its
/// written form: `¥57.10`, `HK$1,000.00`, `-¥3.00`, `¥1,270` for yen.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// In the currency's minor unit.
    public var minorUnits: Int
    /// ISO 4217 alphabetic code.
    public var currency: String

    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The symbol and the digits after the decimal point for the currencies cardscan's
    /// profiles use; others are written with their code and two decimals.
    static func style(_ currency: String) -> (symbol: String, digits: Int) {
        switch currency {
        case "CNY": return ("¥", 2)
        case "JPY": return ("¥", 0)
        case "HKD": return ("HK$", 2)
        case "SGD": return ("S$", 2)
        case "USD": return ("$", 2)
        case "EUR": return ("€", 2)
        case "MOP": return ("MOP$", 2)
        default: return (currency + " ", 2)
        }
    }

    public var description: String {
        let (symbol, digits) = Self.style(currency)
        let sign = minorUnits < 0 ? "-" : ""
        let v = minorUnits.magnitude
        if digits == 0 { return "\(sign)\(symbol)\(Self.grouped(v))" }
        let unit: UInt = digits == 2 ? 100 : 10
        let frac = String(v % unit)
        return "\(sign)\(symbol)\(Self.grouped(v / unit)).\(String(repeating: "0", count: digits - frac.count))\(frac)"
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

extension CardReport {
    /// The balance with its currency, when the card has one.
    public var money: Money? { balance.map { Money(minorUnits: $0, currency: currency) } }
}
