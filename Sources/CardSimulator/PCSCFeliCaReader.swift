import APDU

/// A FeliCa card behind a PC/SC contactless reader, for `cardsim vpcd`. PC/SC readers give a
/// FeliCa card a PC/SC part 3 pseudo-ATR and carry its frames in pseudo-APDUs, in one of two
/// conventions (docs/cards/README.md, contactless readers):
/// - `direct` (ACS ACR1252U, ACM1252U, ACR3x: ATR `… 11 00 3B …`): `FF 00 00 00 Lc FRAME`
///   → `ANSWER 90 00`;
/// - `pn532` (the PN532-based ACR122U/T: ATR `… 03 F0 11 …`): `FF 00 00 00 Lc D4 40 01 FRAME`
///   → `D5 41 00 ANSWER 90 00`.
/// Both answer `FF CA 00 00 00` with the IDm. A frame the card does not answer (no such
/// system, unknown command) gets `63 00` (direct) or `D5 41 01 90 00` (PN532 time-out).
final class PCSCFeliCaReader {
    enum Style { case direct, pn532 }

    static let directATR: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00, 0x42,
    ]
    static let pn532ATR: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0xF0, 0x11, 0x00, 0x00, 0x00, 0x00, 0x8A,
    ]

    let card: FeliCaCard
    let style: Style
    /// The IDm of the system last polled (the reader polled the card's first system).
    private var idm: [UInt8]

    init?(card: FeliCaCard, style: Style) {
        guard let first = card.poll(0xFFFF) else { return nil }
        self.card = card
        self.style = style
        idm = first.idm
    }

    var atr: [UInt8] { style == .direct ? Self.directATR : Self.pn532ATR }

    func reset() {
        card.reset()
        if let first = card.poll(0xFFFF) { idm = first.idm }
    }

    func respond(_ apdu: [UInt8]) -> [UInt8] {
        if let answer = ReaderGetData.answer(apdu, identifier: idm) { return answer }
        guard apdu.count > 5, apdu[0] == 0xFF, apdu[1] == 0x00, apdu[2] == 0x00, apdu[3] == 0x00, Int(apdu[4]) == apdu.count - 5 else {
            return [0x6A, 0x81]  // function not supported
        }
        var frame = Array(apdu[5...])
        if style == .pn532 {
            guard frame.starts(with: [0xD4, 0x40, 0x01]) else { return [0x6A, 0x81] }
            frame.removeFirst(3)
        }
        guard let answer = frameAnswer(frame) else { return style == .direct ? [0x63, 0x00] : [0xD5, 0x41, 0x01, 0x90, 0x00] }
        return (style == .pn532 ? [0xD5, 0x41, 0x00] : []) + answer + [0x90, 0x00]
    }

    /// Polling (`06 00 SC SC RC TSN`) is answered by the card model; other frames by the card.
    private func frameAnswer(_ frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return nil }
        if frame[1] == 0x00 {
            guard frame.count == 6, let hit = card.poll(UInt16(frame[2]) << 8 | UInt16(frame[3])) else { return nil }
            idm = hit.idm
            let body = [0x01] + hit.idm + card.pmm + (frame[4] == 1 ? hit.system : [])
            return [UInt8(body.count + 1)] + body
        }
        return card.answer(frame)
    }
}
