import APDU
import FeliCaCommands
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// The survey against a scripted card: the frames it sends, the tree it builds (depth from
/// the areas' ranges), blocks read 8 at a time then one by one, and a removal mid-way.
@Suite struct FeliCaSurveyTests {
    static let idm = try! IDm(Hex.parse("01 2E 4C D0 1A 2B 3C 4D"))
    static func poll(_ sc: SystemCode) -> FeliCaTarget? {
        sc == .wildcard || sc == 0x0003 ? try! FeliCaTarget(bytes: idm.bytes + Hex.parse("03 01 4B 02 4F 49 93 FF 00 03")) : nil
    }

    /// (command, answer) pairs of a card with one system, areas 0000 and 0040, 0800, and
    /// services 008B (1 block) and 090F (9 blocks).
    static func script(blocks: Bool, removedAfterNode: Int? = nil) throws -> [([UInt8], String)] {
        func frame(_ code: UInt8, _ tail: [UInt8]) -> String { ([UInt8(10 + tail.count), code] + idm.bytes + tail).hexString }
        func block(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(n), count: 16) }
        func read(_ service: UInt16, _ first: Int, _ count: Int) throws -> [UInt8] {
            try FeliCaCommand.readWithoutEncryption(
                idm, services: [ServiceCode(service)],
                blocks: FeliCaCommand.readPlan(first: UInt16(first), count: count, perCommand: count)[0])
        }
        var s: [([UInt8], String)] = [(FeliCaCommand.requestSystemCode(idm), frame(0x0D, [0x01, 0x00, 0x03]))]
        let nodes: [[UInt8]] = [
            [0x00, 0x00, 0xFE, 0xFF], [0x40, 0x00, 0xFF, 0x07], [0x8B, 0x00], [0x00, 0x08, 0xBF, 0x0F], [0x0F, 0x09], [0xFF, 0xFF],
        ]
        for (i, n) in nodes.enumerated() {
            if i == removedAfterNode {
                s.append((FeliCaCommand.searchServiceCode(idm, index: UInt16(i)), "! removed"))
                return s
            }
            s.append((FeliCaCommand.searchServiceCode(idm, index: UInt16(i)), frame(0x0B, n)))
            guard blocks else { continue }
            if n == [0x8B, 0x00] {
                s += [
                    (try read(0x008B, 0, 8), frame(0x07, [0x02, 0xA8])),
                    (try read(0x008B, 0, 1), frame(0x07, [0x00, 0x00, 0x01] + block(0))),
                    (try read(0x008B, 1, 1), frame(0x07, [0x01, 0xA8])),
                ]
            }
            if n == [0x0F, 0x09] {
                s += [
                    (try read(0x090F, 0, 8), frame(0x07, [0x00, 0x00, 0x08] + (0..<8).flatMap(block))),
                    (try read(0x090F, 8, 8), frame(0x07, [0x02, 0xA8])),
                    (try read(0x090F, 8, 1), frame(0x07, [0x00, 0x00, 0x01] + block(8))),
                    (try read(0x090F, 9, 1), frame(0x07, [0x01, 0xA8])),
                ]
            }
        }
        return s
    }

    func survey(_ script: [([UInt8], String)], blocks: Bool) throws -> (FeliCaSurvey, Error?, ReplayChannel) {
        let text =
            ["# cardscan transcript 1", "# technology: felica"]
            + script.flatMap { ["> " + $0.0.hexString, $0.1.hasPrefix("!") ? $0.1 : "< " + $0.1] }
        let channel = ReplayChannel(try Transcript(parsing: text.joined(separator: "\n")))
        let (s, e) = FeliCaSurvey.run(exchange: CardExchange(channel: channel), poll: Self.poll, readBlocks: blocks)
        return (s, e, channel)
    }

    @Test func theTreeWithoutBlocks() throws {
        let (s, error, channel) = try survey(try Self.script(blocks: false), blocks: false)
        #expect(error == nil && channel.remaining == 0 && !s.partial && s.exchanges == 7)
        #expect(s.pmm == (try Hex.parse("03 01 4B 02 4F 49 93 FF")))
        let system = try #require(s.systems.first)
        #expect(system.code == 0x0003 && system.idm == Self.idm.bytes)
        #expect(system.nodes.map(\.depth) == [0, 1, 2, 1, 2])
        #expect(
            system.nodes.map(\.node) == [
                .area(code: 0x0000, end: 0xFFFE), .area(code: 0x0040, end: 0x07FF), .service(ServiceCode(0x008B)),
                .area(code: 0x0800, end: 0x0FBF), .service(ServiceCode(0x090F)),
            ])
        #expect(system.nodes.allSatisfy { $0.blocks == nil })
    }

    @Test func blocksEightAtATimeThenOneByOne() throws {
        let (s, error, channel) = try survey(try Self.script(blocks: true), blocks: true)
        #expect(error == nil && channel.remaining == 0)
        let nodes = try #require(s.systems.first?.nodes)
        #expect(nodes[2].blocks == [[UInt8](repeating: 0, count: 16)])
        #expect(nodes[4].blocks?.count == 9 && nodes[4].blocks?.last == [UInt8](repeating: 8, count: 16))
        #expect(nodes[0].blocks == nil)  // areas have none
    }

    /// Octopus answers no Request System Code: the polled system is surveyed alone.
    @Test func noRequestSystemCodeMeansThePolledSystem() throws {
        var script = try Self.script(blocks: false)
        script[0].1 = "! error: timeout"
        let (s, error, channel) = try survey(script, blocks: false)
        #expect(error == nil && channel.remaining == 0)
        #expect(s.systems.map(\.code) == [0x0003] && s.systems[0].nodes.count == 5)
    }

    @Test func aRemovalKeepsWhatWasFound() throws {
        let (s, error, _) = try survey(try Self.script(blocks: false, removedAfterNode: 3), blocks: false)
        #expect(s.partial && s.systems.first?.nodes.count == 3)
        #expect((error as? CardTransportError)?.failure == .removed)
    }
}
