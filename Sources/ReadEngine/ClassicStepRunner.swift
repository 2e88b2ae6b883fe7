import APDU
import CardReports
import MIFARECommands
import NDEF
import ProfileLanguage

/// Runs MIFARE Classic steps: `read-sector` authenticates to the sector with the keys the user
/// has for the card (then the well-known keys) and READs its data blocks; `ndef-record` reads
/// the directory in sector 0 and the NDEF sectors it names, and answers with a record's
/// payload. A sector opened once is not opened again, and a key that failed on it is not tried
/// again: detection among Classic profiles costs what reading the sectors they name costs,
/// whatever their number.
final class ClassicStepRunner: StepRunner {
    let session: CardSession
    /// Sectors read so far (their data blocks), and those no key opened.
    private var sectors: [Int: [UInt8]] = [:]
    private var closed: Set<Int> = []
    /// The keys (A, B) that opened each sector read.
    private var opened: [Int: [[UInt8]]] = [:]

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        session.classicOpeningKeys[step.name] = nil
        switch step.action {
        case .classic(.readSector(let first, let keyB, let last)):
            var data: [UInt8] = []
            for sector in first...(last ?? first) {
                guard let blocks = try read(sector, keyB: keyB) else {
                    var result = StepResult.refused(.sectorLocked(sector, through: last ?? first))
                    result.command = { "authentication to sector \(sector)" }
                    return result
                }
                data += blocks
            }
            session.classicOpeningKeys[step.name] = (first...(last ?? first)).flatMap { opened[$0] ?? [] }
            return .answered(.data(data))
        case .classic(.ndefRecord(let type)): return try ndefRecord(type)
        default: preconditionFailure("not a Classic step, or a sector not chosen yet")
        }
    }

    /// A sector's data blocks; nil when no key opens it. `preferring` is tried first as key A
    /// (the NFC Forum mapping's keys, which its sectors are meant to open with).
    private func read(_ sector: Int, keyB: Bool?, preferring: [UInt8]? = nil) throws(ReadError) -> [UInt8]? {
        if let known = sectors[sector] { return known }
        guard let card = session.classicCard, !closed.contains(sector) else { return nil }
        let first = ClassicCardImage.Kind.firstBlock(ofSector: sector)
        let count = ClassicCardImage.Kind.blocks(inSector: sector)
        var candidates = ClassicDump.candidates(sector, card.keys.filter { $0.uid == nil || $0.uid == card.uid }, uid: card.uid)
        if let preferring { candidates.a = [preferring] + candidates.a.filter { $0 != preferring } }
        var authentications = 0
        do {
            let (read, _) = try ClassicDump.read(
                sector: sector, firstBlock: first, count: count, uid: card.uid,
                candidates: (keyB == true ? [] : candidates.a, keyB == false ? [] : candidates.b), transmit: session.exchange.transmit,
                reselect: card.reselect, authentications: &authentications)
            guard let blocks = read.blocks, let data = Self.dataBlocks(blocks) else {
                closed.insert(sector)
                return nil
            }
            sectors[sector] = data
            opened[sector] = [read.keyA, read.keyB].compactMap { $0.flatMap { try? Transcript.parsePattern($0).compactMap { $0 } } }
            return data
        } catch { throw ReadError(error) }
    }

    /// The payload of the first record of `type` in the NDEF message the directory (MAD1, in
    /// sector 0, key A A0A1A2A3A4A5) names: its NDEF sectors' data (key A D3F7D3F7D3F7), in
    /// order, hold the message's TLVs. Sectors are read until the message is whole.
    private func ndefRecord(_ type: [UInt8]) throws(ReadError) -> StepResult {
        func refused(_ why: String) -> StepResult { .refused(.invalidAnswer(why)) }
        guard let directory = try read(0, keyB: nil, preferring: ClassicNDEF.madKey), directory.count >= 48 else {
            return refused("sector 0 (the application directory) does not open")
        }
        let ndefSectors = ClassicNDEF.ndefSectors(mad1: Array(directory[16..<48]))
        guard !ndefSectors.isEmpty else { return refused("the application directory names no NDEF sector") }
        var area: [UInt8] = []
        var message: NDEFMessage?
        for sector in ndefSectors where message == nil {
            guard let data = try read(sector, keyB: nil, preferring: ClassicNDEF.ndefKey) else {
                return refused("NDEF sector \(sector) does not open")
            }
            area += data
            message = Self.message(in: area)
        }
        guard let message else { return refused("the NDEF sectors hold no whole NDEF message") }
        guard let record = message.records.first(where: { $0.type == type }) else {
            return refused("the NDEF message has no \(String(decoding: type, as: UTF8.self)) record")
        }
        return .answered(.data(record.payload))
    }

    /// The NDEF message of the NDEF sectors read so far, once they hold all of it.
    static func message(in area: [UInt8]) -> NDEFMessage? {
        (try? ClassicNDEF.contents(area, readOnly: false))?.1
    }

    /// The data blocks (all but the trailer), when every byte of them was read.
    static func dataBlocks(_ blocks: [String]) -> [UInt8]? {
        var out: [UInt8] = []
        for text in blocks.dropLast() {
            guard let b = try? Transcript.parsePattern(text), b.count == 16, !b.contains(nil) else { return nil }
            out += b.compactMap { $0 }
        }
        return out
    }
}
