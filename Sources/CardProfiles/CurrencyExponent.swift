import Foundation

/// ISO 4217's minor-unit exponent of a currency: how many digits follow the decimal point
/// when an amount in minor units is written (KRW 0, JPY 0, CNY 2, BHD 3, CLF 4).
///
/// From Foundation's locale data (CLDR), which has every current code; CLDR gives the digits
/// a *display* rounds to, and for a few currencies that differs from ISO 4217's minor unit
/// (CLDR writes IDR and PKR with 0 digits and IQD with 0; ISO 4217 says 2, 2 and 3). Those
/// are corrected by ``iso4217Corrections``, from the ISO 4217 list one (the SIX Group's
/// published table), so a report's minor units always mean what ISO 4217 says.
/// docs/report.md §Money says which the JSON uses.
public enum CurrencyExponent {
    /// Where ISO 4217 list one's minor unit differs from CLDR's display digits.
    public static let iso4217Corrections: [String: Int] = [
        "AFN": 2, "ALL": 2, "COP": 2, "IDR": 2, "IQD": 3, "IRR": 2, "KPW": 2, "LAK": 2, "LBP": 2,
        "MGA": 2, "MMK": 2, "PKR": 2, "RSD": 2, "SLL": 2, "SLE": 2, "SOS": 2, "SYP": 2, "YER": 2,
        "XCG": 2, "UYI": 0,
    ]

    /// The exponent of `code` (three capital letters); 2 for a code no source knows.
    public static func of(_ code: String) -> Int {
        if let e = iso4217Corrections[code] { return e }
        return cache.get(code) { foundationDigits(code) ?? 2 }
    }

    /// The digits Foundation's currency format writes for `code` (nil when it has no format).
    static func foundationDigits(_ code: String) -> Int? {
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
        let f = NumberFormatter()
        f.locale = Locale(identifier: "en_US_POSIX@currency=\(code)")
        f.numberStyle = .currency
        f.currencyCode = code
        guard let text = f.string(from: 1) else { return nil }
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: dot)...].prefix(while: \.isNumber).count
    }

    private static let cache = ProcessCache<String, Int>()
}
