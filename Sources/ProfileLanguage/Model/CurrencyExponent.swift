/// ISO 4217's minor-unit exponent of a currency: how many digits follow the decimal point
/// when an amount in minor units is written (KRW 0, JPY 0, CNY 2, BHD 3, CLF 4).
///
/// ISO 4217 list one (the SIX Group's published table) gives every current code a minor unit;
/// all but the codes below have 2. The table is the list's, not CLDR's display digits (CLDR
/// writes IDR and PKR with 0 digits and IQD with 0; ISO 4217 says 2, 2 and 3), so a report's
/// minor units always mean what ISO 4217 says, and writing an amount needs no locale data
/// (Foundation's currency formats cost a sixth of a `cardscan replay`'s start).
/// docs/report.md §Money says which the JSON uses.
public enum CurrencyExponent {
    /// ISO 4217 list one's current codes whose minor unit is not 2 (funds codes included:
    /// UYI 0, CLF 4, UYW 4).
    public static let notTwo: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]

    /// The exponent of `code` (three capital letters); 2 for every other code, as ISO 4217
    /// gives most, and for a code it does not know.
    public static func of(_ code: String) -> Int { notTwo[code] ?? 2 }
}
