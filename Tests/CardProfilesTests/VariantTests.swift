import APDU
import CardReading
import FeliCaCommands
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// `variants`: the card is asked which of the variants' services exist (Request Service,
/// 32 nodes a command), and exactly one variant with a service present names the report.
@Suite struct VariantTests {
    static let idm = "01 2E 4C D0 1A 2B 3C 4D"

    /// Variant A owns services 0x1000… (20 of them), B 0x2000… (19), C one: 40 nodes, so two
    /// Request Service commands of 32 and 8.
    static let profile = """
        id: fam
        name: Family
        currency: JPY
        technology: felica
        steps:
          - poll: { system-code: 0x0003 }
            as: card
        card:
          idm: { from: card, offset: 0, length: 8, type: hex }
        variants:
          - { name: A, services: [\((0..<20).map { "0x\(String(0x1000 + $0 * 0x40, radix: 16))" }.joined(separator: ", "))] }
          - { name: B, services: [\((0..<19).map { "0x\(String(0x2000 + $0 * 0x40, radix: 16))" }.joined(separator: ", "))] }
          - { name: C, services: [0x3008] }
        """

    static var nodes: [UInt16] {
        (0..<20).map { UInt16(0x1000 + $0 * 0x40) } + (0..<19).map { UInt16(0x2000 + $0 * 0x40) } + [0x3008]
    }

    /// The transcript of a card that has `present` among the nodes; `answer` overrides the
    /// second command's answer.
    static func card(present: Set<UInt16>, secondAnswer: String? = nil) throws -> Transcript {
        let idm = try Hex.parse(Self.idm)
        var lines = [
            "# cardscan transcript 1", "# technology: felica", "# idm: \(Self.idm)",
            "# pmm: 03 01 4B 02 4F 49 93 FF", "# system-code: 00 03",
        ]
        for (i, chunk) in [Array(nodes[0..<32]), Array(nodes[32...])].enumerated() {
            let command = try FeliCaCommand.requestService(IDm(idm), nodes: chunk.map(ServiceCode.init))
            let versions = chunk.flatMap { present.contains($0) ? [0x02, 0x00] : [0xFF, 0xFF] as [UInt8] }
            let answer = [UInt8(11 + versions.count), 0x03] + idm + [UInt8(chunk.count)] + versions
            lines.append("> " + command.hexString)
            lines.append(i == 1 && secondAnswer != nil ? secondAnswer! : "< " + answer.hexString)
        }
        return try Transcript(parsing: lines.joined(separator: "\n"))
    }

    func read(_ t: Transcript) throws -> ReadResult {
        let session = CardSession(exchange: CardExchange(channel: ReplayChannel(t)))
        session.technology = .felica
        session.felicaPoller = TranscriptReplay.feliCaPoller(from: t)
        return ProfileEngine(session: session).read(try load(Self.profile))
    }

    @Test func theOneVariantWithAServicePresentNamesTheCard() throws {
        let r = try read(try Self.card(present: [0x2000 + 18 * 0x40]))  // B's last: in the second command
        #expect(r.error == nil)
        #expect(r.report?.name == "B")
        #expect(r.report?.exchanges == 2)
        #expect(try read(try Self.card(present: [0x1000, 0x1040])).report?.name == "A")
    }

    @Test func noneOrSeveralKeepTheFamilyName() throws {
        #expect(try read(try Self.card(present: [])).report?.name == "Family")
        let both = try read(try Self.card(present: [0x1000, 0x3008]))
        #expect(both.error == nil && both.report?.name == "Family" && both.report?.partial == false)
    }

    /// A card that answers Request Service with something else (here status flags where the
    /// versions belong) is not an error: the family name stays.
    @Test func aBadAnswerKeepsTheFamilyName() throws {
        let r = try read(try Self.card(present: [0x3008], secondAnswer: "< 0C 03 \(Self.idm) FF A1"))
        #expect(r.error == nil && r.report?.name == "Family")
    }

    /// Removed while being asked: the read is partial, what was read stays.
    @Test func removalIsPartial() throws {
        let r = try read(try Self.card(present: [0x3008], secondAnswer: "! removed"))
        #expect(r.report?.partial == true && r.report?.name == "Family")
        #expect(r.report?.card["idm"] == .string("012E4CD01A2B3C4D"))
        guard case .transport? = r.error else {
            Issue.record("expected a transport error, got \(String(describing: r.error))")
            return
        }
    }
}
