import APDU

/// NFC Forum tags behind a PC/SC contactless reader, for `cardsim vpcd`: what `cardscan ndef`
/// sees through an ACS/Identiv-style reader (PC/SC part 3 storage-card commands).
///
/// - A Type 2 tag (`technology: type2` transcript, pages in TagMemory): the pseudo-ATR of a
///   MIFARE Ultralight (SS 03 ISO 14443-A part 3, name 00 03), `FF CA 00 00 00` → UID,
///   `FF B0 00 PAGE Le` → Le bytes from PAGE (4 pages for Le 16), `FF D6 00 PAGE 04 DATA` writes
///   one page.
/// - An ISO 14443-4 card (`technology: iso7816`): APDUs go to the card as they are; a Type 4
///   tag's CC and NDEF files live in TagMemory so writes can be read back.
final class PCSCTagReader {
    static let ultralightATR: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68,
    ]

    let replay: ReplayChannel
    let type2UID: [UInt8]?
    private var memory: TagMemory

    /// `type2UID` set: the transcript is a Type 2 tag's; nil: an ISO 7816 card's.
    init(_ transcript: Transcript, file: String, type2UID: [UInt8]?) {
        replay = ReplayChannel(transcript, mode: .lenient, file: file)
        memory = TagMemory(seed: transcript)
        self.type2UID = type2UID
    }

    func reset() { replay.reset() }  // written memory stays, as on a tag

    func respond(_ apdu: [UInt8]) throws -> [UInt8] {
        guard let uid = type2UID else {
            return try memory.answer(apdu, felica: false) ?? replay.transmit(apdu)
        }
        if let answer = ReaderGetData.answer(apdu, identifier: uid) { return answer }
        guard apdu.count >= 5, apdu[0] == 0xFF, apdu[2] == 0x00 else { return [0x6A, 0x81] }
        let page = apdu[3]
        switch apdu[1] {
        case 0xB0:  // READ BINARY: Le bytes
            let le = apdu[4] == 0 ? 16 : Int(apdu[4])
            guard le <= 16 else { return [0x6C, 0x10] }
            let four = try memory.answer([0x30, page], felica: false) ?? replay.transmit([0x30, page])
            guard four.count == 16 else { return [0x6A, 0x82] }
            return Array(four.prefix(le)) + [0x90, 0x00]
        case 0xD6:  // UPDATE BINARY: one page
            guard apdu[4] == 4, apdu.count == 9 else { return [0x67, 0x00] }
            _ = memory.answer([0xA2, page] + apdu[5...], felica: false)
            return [0x90, 0x00]
        default:
            return [0x6A, 0x81]
        }
    }
}
