/// What the text report calls a value: the profile's `label`, else the value's name in words
/// (`lastOnlineAtc` → "Last online ATC", `balanceAfter` → "Balance after", `idm` → "IDm").
public enum FieldLabel {
    /// Words written in capitals (or as their standard writes them) wherever a name holds them.
    static let acronyms: [String: String] = [
        "aid": "AID", "asn": "ASN", "atc": "ATC", "atr": "ATR", "cvm": "CVM", "id": "ID", "idm": "IDm", "pan": "PAN",
        "pin": "PIN", "pmm": "PMm", "sfi": "SFI", "uid": "UID", "url": "URL", "nfc": "NFC", "otp": "OTP", "mad": "MAD",
        "ndef": "NDEF", "emv": "EMV", "iso": "ISO", "mrt": "MRT", "lrt": "LRT", "sam": "SAM", "csn": "CSN",
    ]

    /// `name` in words: split at capitals, `-`, `_` and between letters and digits; the first
    /// word capitalised, the others lower case; acronyms as ``acronyms`` writes them.
    public static func words(_ name: String) -> String {
        var parts: [String] = []
        var current = ""
        var last: Character?
        for c in name {
            if c == "-" || c == "_" || c == " " {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                let split: Bool
                if let l = last, !current.isEmpty {
                    split = (c.isUppercase && !l.isUppercase) || (c.isNumber != l.isNumber)
                } else {
                    split = false
                }
                if split {
                    parts.append(current)
                    current = ""
                }
                current.append(c)
            }
            last = c
        }
        if !current.isEmpty { parts.append(current) }
        let words = parts.enumerated().map { i, w -> String in
            let lower = w.lowercased()
            if let a = acronyms[lower] { return a }
            if w.count > 1, w.allSatisfy({ $0.isUppercase || $0.isNumber }) { return w }  // an acronym the name already writes so
            return i == 0 ? lower.prefix(1).uppercased() + lower.dropFirst() : lower
        }
        return words.joined(separator: " ")
    }
}

extension CardReport {
    /// What the text report calls the value at `place` (`card.maxBalance`, `trips.balanceAfter`,
    /// `contracts.tariff`): the profile's `label`, else the name in words (``FieldLabel/words(_:)``).
    public func label(_ place: String) -> String {
        if let l = labels[place] { return l }
        return FieldLabel.words(String(place.split(separator: ".").last ?? Substring(place)))
    }
}
