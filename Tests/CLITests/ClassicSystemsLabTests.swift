import Foundation
import LabSupport
import Testing

/// The Classic transit profiles beyond Troika and SunCard, by detection through the real pcscd
/// and the real libnfc: Strelka with the user's keys from a MIFARE Classic Tool dictionary; the
/// pilet.ee card through its NDEF record; SmartRide and BUSIT with the well-known keys, each
/// reading the bank its flag names. The lab cards are scripts/classic-lab-images.py's; the
/// values are docs/cards/classic.md's, worked out by hand.
@Suite struct ClassicSystemsLabTests {
    func home() throws -> [String: String] {
        let dir = NSTemporaryDirectory() + "cardscan-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return ["XDG_CONFIG_HOME": dir]
    }

    /// Strelka opens only with the user's keys: without them it is not recognised; with the
    /// dictionary imported it is, and no key reaches the output or the recording.
    @Test(arguments: Lab.Path.allCases)
    func strelkaWithTheUsersKeys(_ path: Lab.Path) throws {
        let env = try home()
        let before = try Lab.readLabCard("strelka-image.json", through: path, environment: env)
        #expect(before.status == 76, "\(before.stdout)\(before.stderr)")
        let dictionary = Lab.root + "/Tests/LabCards/strelka.keys"
        #expect(try Lab.cardscan(["keys", "add", dictionary], environment: env).status == 0)
        let record = NSTemporaryDirectory() + "strelka-\(UUID().uuidString).apdu"
        defer { try? FileManager.default.removeItem(atPath: record) }
        let r = try Lab.readLabCard("strelka-image.json", through: path, ["--record", record], environment: env)
        let expected = [#""number": "5678 9012 345""#, #""longNumber": "3000123456789012345""#]
        #expect(Lab.reportProblems(r, profile: "strelka", expected: expected).isEmpty, "\(r.stdout)\(r.stderr)")
        let keys = try String(contentsOfFile: dictionary, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let written = (try String(contentsOfFile: record, encoding: .utf8) + r.stdout + r.stderr).uppercased()
            .replacingOccurrences(of: " ", with: "")
        #expect(keys.count == 32 && !keys.contains { written.contains($0) }, "a key was written")
    }

    /// Podorozhnik is known by its sector 4 key's hash. The built-in profile knows the digests
    /// of the operator's keys only, so it does not take the lab card (random keys) even with
    /// its keys imported; the lab's copy of the profile (a user profile of the same id that
    /// extends it, knowing the lab keys' digests) reads it by detection. No key is written;
    /// the recording replays with the built-in profile alone.
    @Test(arguments: Lab.Path.allCases)
    func podorozhnikByItsKeysHash(_ path: Lab.Path) throws {
        let env = try home()
        #expect(try Lab.cardscan(["keys", "add", Lab.root + "/Tests/LabCards/hf-mf-04112233445566-key.bin"], environment: env).status == 0)
        let before = try Lab.readLabCard("podorozhnik-image.json", through: path, environment: env)
        #expect(before.status == 76 && before.stdout.contains("podorozhnik"), "\(before.stdout)\(before.stderr)")
        let profiles = env["XDG_CONFIG_HOME"]! + "/cardscan/profiles"
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Lab.root + "/Tests/LabCards/profiles/podorozhnik.yaml", toPath: profiles + "/podorozhnik.yaml")
        let record = NSTemporaryDirectory() + "podorozhnik-\(UUID().uuidString).apdu"
        defer { try? FileManager.default.removeItem(atPath: record) }
        let r = try Lab.readLabCard("podorozhnik-image.json", through: path, ["--record", record], environment: env)
        let expected = [
            #""number": "9643 3078 2880 4199 0284 9459 60""#, #""amount": 12345"#, #""time": "2024-03-05T08:15:00+03:00""#,
            #""station": 101"#, #""gate": 3"#, #""time": "2024-03-01T12:00:00+03:00""#, #""amount": 50000"#, #""metroTrips": 12"#,
        ]
        #expect(Lab.reportProblems(r, profile: "podorozhnik", expected: expected).isEmpty, "\(r.stdout)\(r.stderr)")
        let written = (try String(contentsOfFile: record, encoding: .utf8) + r.stdout).uppercased().replacingOccurrences(of: " ", with: "")
        let dump = try Data(contentsOf: URL(fileURLWithPath: Lab.root + "/Tests/LabCards/hf-mf-04112233445566-key.bin"))
        for i in stride(from: 0, to: dump.count, by: 6) {
            #expect(!written.contains(dump[i..<(i + 6)].map { String(format: "%02X", $0) }.joined()), "a key was written")
        }
        let replayed = try Lab.cardscan(["replay", record, "--json"])
        #expect(replayed.status == 0 && replayed.stdout.contains(expected[0]), "\(replayed.stdout)\(replayed.stderr)")
    }

    /// The pilet.ee card and the Waikato pair need no key of the user's.
    @Test(arguments: Lab.Path.allCases)
    func wellKnownKeyCards(_ path: Lab.Path) throws {
        let cards: [(String, String, [String])] = [
            ("tartu-image.json", "tartu", [#""number": "12345678901""#, #""fullNumber": "3086600012345678901""#]),
            (
                "smartride-image.json", "smartride-rotorua",
                [#""amount": 1234"#, #""serial": "A1B2C3D""#, #""time": "2019-03-15T08:30:00+13:00""#, #""amount": 2000"#]
            ),
            ("busit-image.json", "busit", [#""amount": 5000"#, #""time": "2019-03-14T17:45:00+13:00""#]),
        ]
        for (image, profile, expected) in cards {
            let r = try Lab.readLabCard(image, through: path, environment: try home())
            #expect(Lab.reportProblems(r, profile: profile, expected: expected).isEmpty, "\(image): \(r.stdout)\(r.stderr)")
        }
    }

    /// One row of Tests/LabCards/classic-transit-cards.json: a lab card, the key files and lab
    /// profiles it is read with, the profile that must take it, its fixture, and texts the JSON
    /// report must hold (values its docs/cards page works out by hand).
    struct Row: Decodable {
        var image: String
        var keys: [String]
        var profiles: [String]
        var profile: String
        var fixture: String
        var expected: [String]
    }

    static func rows() throws -> [Row] {
        struct Table: Decodable { var cards: [Row] }
        let data = try Data(contentsOf: URL(fileURLWithPath: Lab.root + "/Tests/LabCards/classic-transit-cards.json"))
        return try JSONDecoder().decode(Table.self, from: data).cards
    }

    /// The systems read with the user's keys, by detection among every built-in profile. Each
    /// card's keys come in two formats: through pcscd from the key files beside it (they vary:
    /// Farebot, Metrodroid JSON with and without a transform, Proxmark3 dictionary and key dump,
    /// MIFARE Classic Tool), through libnfc from the trailers of the card exported as a raw
    /// `.mfd` (nfc-mfclassic's dump). Then the lab's copy of a profile that knows a card only by
    /// its key's hash, the values the card's page works out by hand, and no key in the output,
    /// the trace or the recording.
    @Test(arguments: Lab.Path.allCases)
    func keyedCards(_ path: Lab.Path) throws {
        for card in try Self.rows() {
            let env = try home()
            var files = card.keys.map { Lab.root + "/Tests/LabCards/" + $0 }
            // A card whose block 0 does not read (a Kazan ticket) has no UID in a raw dump: its files.
            if path == .libnfc, !(try Self.blockZeroIsLocked(card.image)) {
                let mfd = env["XDG_CONFIG_HOME"]! + "/card.mfd"
                let exported = try Lab.cardscan(["export", Lab.root + "/Tests/LabCards/" + card.image, "--format", "mfd", "--out", mfd])
                #expect(exported.status == 0, "\(card.image): \(exported.stderr)")
                files = [mfd]
            }
            #expect(try Lab.cardscan(["keys", "add"] + files, environment: env).status == 0, "\(card.image)")
            let profiles = env["XDG_CONFIG_HOME"]! + "/cardscan/profiles"
            try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
            for p in card.profiles {
                try FileManager.default.copyItem(atPath: Lab.root + "/Tests/LabCards/profiles/" + p, toPath: profiles + "/" + p)
            }
            let record = NSTemporaryDirectory() + "\(card.profile)-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: record) }
            let r = try Lab.readLabCard(card.image, through: path, ["--record", record, "--trace"], environment: env)
            #expect(Lab.reportProblems(r, profile: card.profile, expected: card.expected).isEmpty, "\(card.image): \(r.stdout)\(r.stderr)")
            let written = (try String(contentsOfFile: record, encoding: .utf8) + r.stdout + r.stderr).uppercased()
                .replacingOccurrences(of: " ", with: "")
            for key in try Self.keys(in: card.image) where !ClassicSystemsLabTests.wellKnown.contains(key) {
                #expect(!written.contains(key), "\(card.image): a key was written")
            }
        }
    }

    static let wellKnown: Set<String> = ["FFFFFFFFFFFF", "000000000000", "A0A1A2A3A4A5", "D3F7D3F7D3F7"]

    /// Whether the image's sector 0 block 0 reads as `..` (its access bits keep it back).
    static func blockZeroIsLocked(_ image: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: Lab.root + "/Tests/LabCards/" + image))
        let sectors = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["sectors"] as? [[String: Any]] ?? []
        return ((sectors.first?["blocks"] as? [String])?.first ?? "").contains("..")
    }

    /// Every key A and B of a lab card image, as 12 hex digits.
    static func keys(in image: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Lab.root + "/Tests/LabCards/" + image))
        let sectors = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["sectors"] as? [[String: Any]] ?? []
        return sectors.flatMap { [$0["key-a"], $0["key-b"]].compactMap { ($0 as? String)?.replacingOccurrences(of: " ", with: "") } }
    }
}
