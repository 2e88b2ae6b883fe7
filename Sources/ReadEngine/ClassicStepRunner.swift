import APDU
import CardReports
import MIFARECommands
import ProfileLanguage

/// Runs MIFARE Classic steps: `read-sector` authenticates to the sector with the keys the user
/// has for the card (then the well-known keys) and READs its data blocks. A sector opened once
/// is not opened again, and a key that failed on it is not tried again: detection among Classic
/// profiles costs what reading the sectors they name costs, whatever their number.
final class ClassicStepRunner: StepRunner {
    let session: CardSession
    /// Sectors read so far (their data blocks), and those no key opened.
    private var sectors: [Int: [UInt8]] = [:]
    private var closed: Set<Int> = []

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .classic(.readSector(let sector, let keyB)) = step.action else { preconditionFailure("not a Classic step") }
        if let known = sectors[sector] { return .answered(.data(known)) }
        guard let card = session.classicCard, !closed.contains(sector) else {
            var result = StepResult.refused(.invalidAnswer("no key the user has opens sector \(sector)"))
            result.command = { "authentication to sector \(sector)" }
            return result
        }
        let first = sector < 32 ? sector * 4 : 128 + (sector - 32) * 16
        let count = sector < 32 ? 4 : 16
        let candidates = ClassicDump.candidates(sector, card.keys.filter { $0.uid == nil || $0.uid == card.uid })
        var authentications = 0
        do {
            let (read, _) = try ClassicDump.read(
                sector: sector, firstBlock: first, count: count, uid: card.uid,
                candidates: (keyB == true ? [] : candidates.a, keyB == false ? [] : candidates.b), transmit: session.exchange.transmit,
                reselect: card.reselect, authentications: &authentications)
            guard let blocks = read.blocks, let data = Self.dataBlocks(blocks) else {
                closed.insert(sector)
                var result = StepResult.refused(.invalidAnswer("no key the user has opens sector \(sector)"))
                result.command = { "authentication to sector \(sector)" }
                return result
            }
            sectors[sector] = data
            return .answered(.data(data))
        } catch { throw ReadError(error) }
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
