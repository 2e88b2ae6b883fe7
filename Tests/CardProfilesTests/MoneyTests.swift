import CardProfiles
import Testing

/// ISO 4217 minor units: the digits after the point come from the currency, never a guess.
@Suite struct MoneyTests {
    @Test(arguments: [
        ("KRW", 0), ("JPY", 0), ("CLP", 0), ("VND", 0), ("ISK", 0), ("XOF", 0),
        ("CNY", 2), ("EUR", 2), ("NZD", 2), ("ILS", 2), ("HKD", 2),
        ("BHD", 3), ("KWD", 3), ("TND", 3), ("JOD", 3),
        ("CLF", 4), ("UYW", 4),
        // CLDR writes these with fewer digits than ISO 4217's minor unit: corrected.
        ("IDR", 2), ("IQD", 3), ("PKR", 2), ("COP", 2),
    ])
    func exponentPerISO4217(_ code: String, _ exponent: Int) {
        #expect(CurrencyExponent.of(code) == exponent, "\(code)")
    }

    @Test func amountsAreWrittenWithTheCurrencysDigits() {
        #expect(Money(minorUnits: 17_650, currency: "KRW").description == "₩17,650")
        #expect(Money(minorUnits: 17_650, currency: "CNY").description == "¥176.50")
        #expect(Money(minorUnits: 1_270, currency: "JPY").description == "¥1,270")
        #expect(Money(minorUnits: 1_250, currency: "BHD").description == "BHD 1.250")
        #expect(Money(minorUnits: -5, currency: "BHD").description == "-BHD 0.005")
        #expect(Money(minorUnits: 123_456, currency: "CLF").description == "CLF 12.3456")
        #expect(Money(minorUnits: -1_650, currency: "ILS").description == "-₪16.50")
        #expect(Money(minorUnits: 99, currency: "NZD").description == "NZ$0.99")
        #expect(Money(minorUnits: 500_000, currency: "IDR").description == "IDR 5,000.00")
    }

    /// A code no source knows (or not a code at all) is written with two digits, not dropped.
    @Test func unknownCodesGetTwoDigits() {
        #expect(CurrencyExponent.of("XYZ") == 2)
        #expect(CurrencyExponent.of("nope") == 2)
        #expect(Money(minorUnits: 100, currency: "nope").description == "nope 1.00")
    }
}
