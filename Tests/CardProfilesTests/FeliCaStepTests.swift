import APDU
import CardReading
import FeliCaCommands
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// FeliCa steps: a frame that does not check out is a refusal (an optional or detection step
/// goes without it), and the blocks read before it are kept.
@Suite struct FeliCaStepTests {
    static let idm = "01 2E 4C D0 1A 2B 3C 4D"

    static func profile(optional: Bool) -> String {
        """
        id: f
        name: F
        currency: JPY
        technology: felica
        steps:
          - poll: { system-code: 0x0003 }
            as: card
          - read-blocks: { service: 0x090F, count: 2, per-command: 1 }
            as: log
            records: { size: 16 }
            optional: \(optional)
        card:
          idm: { from: card, offset: 0, length: 8, type: hex }
        trips:
          from: log
          fields: { first: { offset: 0, length: 1 } }
        """
    }

    /// Block 0 reads; block 1's answer carries another card's IDm.
    func read(optional: Bool) throws -> ReadResult {
        let idm = try IDm(Hex.parse(Self.idm))
        let read0 = try FeliCaCommand.readWithoutEncryption(
            idm, services: [ServiceCode(0x090F)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 0)])
        let read1 = try FeliCaCommand.readWithoutEncryption(
            idm, services: [ServiceCode(0x090F)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 1)])
        let block = [UInt8](repeating: 0x07, count: 16)
        let good = [UInt8(13 + 16), 0x07] + idm.bytes + [0x00, 0x00, 0x01] + block
        let otherCard = [UInt8(13 + 16), 0x07] + [UInt8](repeating: 0xEE, count: 8) + [0x00, 0x00, 0x01] + block
        let text = [
            "# cardscan transcript 1", "# technology: felica", "# idm: \(Self.idm)", "# pmm: 03 01 4B 02 4F 49 93 FF",
            "# system-code: 00 03",
            "> " + read0.hexString, "< " + good.hexString, "> " + read1.hexString, "< " + otherCard.hexString,
        ].joined(separator: "\n")
        let t = try Transcript(parsing: text)
        let (connection, _) = try TranscriptReplay.connection(t, file: "t")
        return CardReader(registry: ProfileRegistry(directories: []), profile: try load(Self.profile(optional: optional))).read(connection)
            .result
    }

    @Test func anOptionalStepKeepsWhatItReadAndGoesOn() throws {
        let r = try read(optional: true)
        #expect(r.error == nil)
        #expect(r.report?.trips.count == 1 && r.report?.partial == false)
    }

    @Test func aRequiredStepFailsNamingTheAnswerAndKeepsWhatItRead() throws {
        let r = try read(optional: false)
        guard case .stepFailed(_, "log", _, _, .invalidAnswer(let why))? = r.error else {
            Issue.record("\(String(describing: r.error))")
            return
        }
        #expect(why == "the response carries another card's IDm")
        #expect(r.report?.partial == true && r.report?.trips.count == 1)
    }
}
