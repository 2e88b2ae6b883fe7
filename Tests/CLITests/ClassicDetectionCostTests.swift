import APDU
import CardProfiles
import CardReading
import CardSimulator
import Foundation
import LabSupport
import MIFARECommands
import Testing

/// Detection among Classic profiles costs what reading the sectors they name costs: 200
/// synthetic profiles that all check sector 1 (only the last one's check holds) read the lab
/// card with the same exchanges and authentications as one profile does.
@Suite struct ClassicDetectionCostTests {
    func profiles(_ n: Int) throws -> ProfileRegistry {
        let dir = NSTemporaryDirectory() + "cardscan-classic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for i in 0..<n {
            // Sector 1 block 0 is sixteen 10s on the lab card: only the last profile's check holds.
            let pattern = i == n - 1 ? "10 10" : String(format: "%02X %02X", i >> 8, i & 0xFF)
            let yaml = """
                id: synthetic-\(i)
                name: Synthetic \(i)
                currency: EUR
                technology: classic
                detect:
                  require:
                    - { from: s1, offset: 0, equals: "\(pattern)" }
                steps:
                  - read-sector: { sector: 1 }
                    as: s1
                card:
                  first: { from: s1, offset: 16, length: 2, type: hex }

                """
            try yaml.write(toFile: dir + "/synthetic-\(i).yaml", atomically: true, encoding: .utf8)
        }
        return ProfileRegistry(directories: [.init(path: dir, isBuiltIn: false)])
    }

    func read(_ registry: ProfileRegistry) throws -> CardReadOutcome {
        let image = Lab.root + "/Tests/LabCards/classic-1k-image.json"
        let card = try VirtualCard.load(Data(contentsOf: URL(fileURLWithPath: image)), file: image, options: VirtualCardOptions())
        let channel = SimulatedCardChannel(card)
        let connection = try PCSCDetector.detect(channel: channel, atr: channel.atr, reader: "image")
        let keyDump = Lab.root + "/Tests/LabCards/hf-mf-1A2B3C4D-key.bin"
        var reader = CardReader(registry: registry)
        reader.classicKeys = [try ClassicKeys.parse(Array(try Data(contentsOf: URL(fileURLWithPath: keyDump))), file: keyDump)]
        return reader.read(connection)
    }

    @Test func twoHundredProfilesCostWhatOneCosts() throws {
        let one = try read(try profiles(1))
        let many = try read(try profiles(200))
        #expect(one.result.report?.profile == "synthetic-0" && many.result.report?.profile == "synthetic-199")
        #expect(one.result.report?.card["first"] == .string("1111"))
        // One authentication and the sector's four READs, for one profile or two hundred.
        #expect(one.exchanges == 5 && many.exchanges == one.exchanges, "\(one.exchanges) vs \(many.exchanges)")
    }
}
