import APDU

/// A FeliCa card as cardsim serves it, whichever reader is in front of it (the emulated
/// PN532 for libnfc, or an ACS-style PC/SC reader on vpcd).
protocol FeliCaCard: AnyObject {
    var pmm: [UInt8] { get }
    /// Polling: the IDm and system code answering for `code` (FFFF: any), or nil.
    func poll(_ code: UInt16) -> (idm: [UInt8], system: [UInt8])?
    /// The answer to a frame (LEN first), or nil when the card stays silent.
    func answer(_ frame: [UInt8]) -> [UInt8]?
    /// The card left the field and came back.
    func reset()
}

extension FeliCaImageCard: FeliCaCard {
    func reset() {}
}

/// A FeliCa card from a `technology: felica` transcript: Polling from its `idm`, `pmm` and
/// `system-code` headers (its own system and the wildcard), frames by lenient replay, except
/// the Type 3 tag blocks (service 000B), which live in writable memory (TagMemory).
final class FeliCaTranscriptCard: FeliCaCard {
    let idm: [UInt8]
    let pmm: [UInt8]
    let systemCode: [UInt8]
    let replay: ReplayChannel
    private var memory: TagMemory

    init(_ transcript: Transcript, file: String) throws {
        idm = try transcript.bytes(header: .idm, count: 8)
        pmm = try transcript.bytes(header: .pmm, count: 8)
        systemCode = try transcript.bytes(header: .systemCode, count: 2)
        replay = ReplayChannel(transcript, mode: .lenient, file: file)
        memory = TagMemory(seed: transcript)
    }

    func poll(_ code: UInt16) -> (idm: [UInt8], system: [UInt8])? {
        code == 0xFFFF || code == UInt16(systemCode[0]) << 8 | UInt16(systemCode[1]) ? (idm, systemCode) : nil
    }

    /// Lenient replay answers `6D 00` to a frame it never saw: a FeliCa card would say nothing.
    func answer(_ frame: [UInt8]) -> [UInt8]? {
        if let fromMemory = memory.answer(frame, felica: true) { return fromMemory }
        guard let a = try? replay.transmit(frame), a != [0x6D, 0x00] else { return nil }
        return a
    }

    func reset() { replay.reset() }
}
