/// The ATR a PC/SC contactless reader makes up for a card that has none (a storage card, a
/// FeliCa card): `3B 8F 80 01 80 4F 0C` + RID `A0 00 00 03 06` + SS (the standard) + NN NN
/// (the card name) + `00 00 00 00` + TCK. PC/SC part 3 §3.1.3.2.3 and its supplement; the
/// names below are those the Gemalto Prox-DU and ACS reader manuals list.
public struct PseudoATR: Equatable, Sendable {
    /// SS: 03 ISO 14443-A part 3, 11 FeliCa (ACS ACR1252U), …
    public let standard: UInt8
    /// NN NN: 00 01 MIFARE Classic 1K, 00 03 Ultralight, 00 3B FeliCa, F0 11 FeliCa 212 kbps …
    public let cardName: UInt16

    static let prefix: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Nil for an ATR that is not a PC/SC part 3 pseudo-ATR (a real smart card's).
    public init?(_ atr: [UInt8]) {
        guard atr.count == 20, atr.starts(with: Self.prefix) else { return nil }
        standard = atr[12]
        cardName = UInt16(atr[13]) << 8 | UInt16(atr[14])
    }

    /// A FeliCa card: standard 11 with name 00 3B (ACS ACR1252U style), or standard 03 with
    /// name F0 11 or F0 12 (PN532-based readers, 212 or 424 kbit/s).
    public var isFeliCa: Bool {
        (standard == 0x11 && cardName == 0x003B) || (standard == 0x03 && (cardName == 0xF011 || cardName == 0xF012))
    }
    /// MIFARE Ultralight and the NTAGs readers name so: an NFC Forum Type 2 tag.
    public var isType2: Bool { standard == 0x03 && cardName == 0x0003 }

    /// What the card is, in words, when the name is one cardscan knows.
    public var cardDescription: String? {
        if isFeliCa { return "FeliCa" }
        guard standard == 0x03 else { return nil }
        switch cardName {
        case 0x0001: return "MIFARE Classic 1K"
        case 0x0002: return "MIFARE Classic 4K"
        case 0x0003: return "MIFARE Ultralight / NTAG: NFC Forum Type 2"
        case 0x0026: return "MIFARE Mini"
        default: return nil
        }
    }
}
