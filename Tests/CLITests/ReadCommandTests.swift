import Foundation
import LabSupport
import Testing

/// `cardscan read`: card images read in-process, as the lab serves them to pcscd.
@Suite struct ReadCommandTests {
    /// The lab cards that have a fixture recorded through the real pcscd by detection.
    static let cards: [String] = {
        let root = Lab.root
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Tests/LabCards")) ?? []
        return names.filter { $0.hasSuffix("-image.json") }.map { String($0.dropLast("-image.json".count)) }
            .filter { FileManager.default.fileExists(atPath: root + "/Tests/Fixtures/\($0)/detected.expected.json") }.sorted()
    }()

    func object(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test func thereAreEnoughCards() { #expect(Self.cards.count >= 30) }

    /// Reading an image gives the report the lab gave through pcscd, exchanges included.
    @Test(arguments: cards)
    func anImageReadsAsThroughTheLab(_ name: String) throws {
        // A Classic card that needs its owner's keys: the lab's key files for it, imported.
        let env = ["XDG_CONFIG_HOME": NSTemporaryDirectory() + "cardscan-read-\(UUID().uuidString)"]
        let keyFiles = [
            "troika": ["hf-mf-2B3C4D5E-key.bin", "troika-ticket-keys.json"], "strelka": ["strelka.keys"],
            "podorozhnik": ["hf-mf-04112233445566-key.bin"],
        ]
        // The Classic transit cards: the key files and lab profiles their table row names.
        let row = try ClassicSystemsLabTests.rows().first { $0.image == name + "-image.json" }
        for keys in keyFiles[name] ?? row?.keys ?? [] {
            #expect(try Lab.cardscan(["keys", "add", Lab.root + "/Tests/LabCards/" + keys], environment: env).status == 0)
        }
        // A card known by its key's hash: the lab's copy of its profile knows the lab keys'.
        let dir = env["XDG_CONFIG_HOME"]! + "/cardscan/profiles"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for file in row?.profiles ?? ["\(name).yaml"]
        where FileManager.default.fileExists(atPath: Lab.root + "/Tests/LabCards/profiles/" + file) {
            try FileManager.default.copyItem(atPath: Lab.root + "/Tests/LabCards/profiles/" + file, toPath: dir + "/" + file)
        }
        let r = try Lab.cardscan(["read", Lab.root + "/Tests/LabCards/\(name)-image.json", "--json"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try object(try String(contentsOfFile: Lab.fixture("\(name)/detected.expected.json"), encoding: .utf8))
        // What the recording hid (`redacted`: a value worked out from personal bits, Rav-Kav's
        // holder from its ID number) a replay cannot give; the image, read directly, does.
        var read = try object(r.stdout) as? [String: Any] ?? [:]
        var card = read["card"] as? [String: Any] ?? [:]
        for path in expected["redacted"] as? [String] ?? [] where path.hasPrefix("card.") { card[String(path.dropFirst(5))] = nil }
        read["card"] = card
        var replayed = expected as? [String: Any] ?? [:]
        replayed["redacted"] = nil
        #expect(NSDictionary(dictionary: read) == NSDictionary(dictionary: replayed), "\(r.stdout)")
    }

    /// --record turns an image into a transcript, which replays strictly to the same report.
    @Test func recordMakesAFixture() throws {
        let out = NSTemporaryDirectory() + "cardscan-read-\(UUID().uuidString).apdu"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let read = try Lab.cardscan(["read", Lab.root + "/Tests/LabCards/navigo-image.json", "--json", "--record", out])
        #expect(read.status == 0, "\(read.stderr)")
        let replay = try Lab.cardscan(["replay", out, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try object(replay.stdout) == object(read.stdout))
    }

    @Test func badInputIsNamedWithItsExitStatus() throws {
        let missing = try Lab.cardscan(["read", "/nonexistent/card.json"])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent/card.json"))
        let file = NSTemporaryDirectory() + "cardscan-read-bad-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "{\"technology\": \"iso7816\", \"atr\": \"3B\", \"files\": []}".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try Lab.cardscan(["read", file])
        #expect(bad.status == 65 && bad.stderr.contains("atr"), "\(bad.stderr)")
        let twoRecorded = try Lab.cardscan(["read", file, file, "--record", "/tmp/x.apdu"])
        #expect(twoRecorded.status == 64)
    }
}
