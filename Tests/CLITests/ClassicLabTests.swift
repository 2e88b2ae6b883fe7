import Foundation
import LabSupport
import Testing

/// MIFARE Classic through the real pcscd and the real libnfc: keys imported from the files
/// users have, `cardscan classic`, and libnfc's own nfc-mfclassic on the emulated card. The lab
/// card and its key files are written by scripts/classic-lab-images.py (random keys).
@Suite struct ClassicLabTests {
    static let image = Lab.root + "/Tests/LabCards/classic-1k-image.json"
    static let dictionary = Lab.root + "/Tests/LabCards/classic-1k.keys"
    static let keyDump = Lab.root + "/Tests/LabCards/hf-mf-1A2B3C4D-key.bin"

    /// The image's keys, as hex without spaces (what must never be printed).
    static func keys() throws -> [String] {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: image))) as? [String: Any])
        let sectors = try #require(o["sectors"] as? [[String: Any]])
        return sectors.flatMap {
            [$0["key-a"] as? String, $0["key-b"] as? String].compactMap { $0?.replacingOccurrences(of: " ", with: "") }
        }
    }

    func home() throws -> [String: String] {
        let dir = NSTemporaryDirectory() + "cardscan-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return ["XDG_CONFIG_HOME": dir]
    }

    /// Imported from two formats; stored readable by the owner only; listed masked; a store file
    /// others may read is refused; removed by UID.
    @Test func keysAddListRemove() throws {
        let env = try home()
        let added = try Lab.cardscan(["keys", "add", Self.dictionary, Self.keyDump], environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains("8 key(s) for any card") && added.stdout.contains("32 key(s) for card 1A 2B 3C 4D"), "\(added.stdout)")
        let stored = env["XDG_CONFIG_HOME"]! + "/cardscan/keys/card-1A2B3C4D.json"
        let mode = try FileManager.default.attributesOfItem(atPath: stored)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let listed = try Lab.cardscan(["keys", "list", "--keys"], environment: env)
        #expect(listed.status == 0 && listed.stdout.contains(" .. .. .. .. "), "\(listed.stdout)")
        for key in try Self.keys() { #expect(!listed.stdout.uppercased().replacingOccurrences(of: " ", with: "").contains(key)) }
        chmod(stored, 0o644)
        let exposed = try Lab.cardscan(["keys", "list"], environment: env)
        #expect(exposed.status != 0 && exposed.stderr.contains("can be read by other users"), "\(exposed.stderr)")
        chmod(stored, 0o600)
        let removed = try Lab.cardscan(["keys", "remove", "1A2B3C4D"], environment: env)
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: stored), "\(removed.stderr)")
    }

    /// With the Proxmark3 key dump, every sector opens with one authentication and reads as the
    /// image holds it; the trace writes the keys `..` and no key appears anywhere.
    @Test(arguments: Lab.Path.allCases)
    func readWithTheUsersKeys(_ path: Lab.Path) throws {
        let env = try home()
        #expect(try Lab.cardscan(["keys", "add", Self.keyDump], environment: env).status == 0)
        let r = try Lab.exclusive { () throws -> (status: Int32, stdout: String, stderr: String) in
            switch path {
            case .pcsc:
                let card = try Lab.Card(Self.image)
                defer { card.stop() }
                return try Lab.cardscan(["classic", "--timeout", "5", "--trace"], environment: env)
            case .libnfc:
                let pn532 = try Lab.PN532(Self.image)
                defer { pn532.stop() }
                return try Lab.cardscan(
                    ["classic", "--device", pn532.connectionString, "--timeout", "5", "--trace"],
                    environment: env.merging(pn532.environment) { $1 })
            }
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("MIFARE Classic 1K, UID 1A 2B 3C 4D"), "\(r.stdout)")
        #expect(r.stdout.contains("16 authentication(s)"), "\(r.stdout)")
        #expect(r.stdout.contains("  F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2 F2"))  // sector 15 block 2: 16·15 + 2
        #expect(!r.stdout.contains("no key opened it"))
        #expect(r.stderr.contains("> 60 00 .. .. .. .. .. .. 1A 2B 3C 4D"), "\(r.stderr)")
        let all = (r.stdout + r.stderr).uppercased().replacingOccurrences(of: " ", with: "")
        for key in try Self.keys() { #expect(!all.contains(key), "key \(key) printed") }
    }

    /// With only the dictionary (key A of sectors 0–7), sectors 8–15 stay closed, named so.
    @Test func theKeysYouHaveOpenWhatTheyOpen() throws {
        let env = try home()
        let r = try Lab.exclusive { () throws -> (status: Int32, stdout: String, stderr: String) in
            let card = try Lab.Card(Self.image)
            defer { card.stop() }
            return try Lab.cardscan(["classic", "--timeout", "5", "--keys", Self.dictionary], environment: env)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("sector 7: key A") && r.stdout.contains("sector 8: no key opened it"), "\(r.stdout)")
    }

    /// libnfc's nfc-mfclassic reads the emulated card with its keys (an nfc-mfclassic dump that
    /// `cardscan export --format mfd` wrote from the image): the dump it writes is that file.
    @Test func nfcMfclassicReadsTheEmulatedCard() throws {
        let dir = NSTemporaryDirectory() + "cardscan-mfc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let exported = try Lab.cardscan(["export", Self.image, "--format", "mfd", "--out", dir + "/keys.mfd"])
        #expect(exported.status == 0, "\(exported.stderr)")
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Self.image)
            defer { pn532.stop() }
            let r = try Lab.shell(
                ["nfc-mfclassic", "r", "a", "u", dir + "/out.mfd", dir + "/keys.mfd"], environment: pn532.environment, timeout: 60)
            #expect(r.status == 0 && r.stdout.contains("Done, 64 of 64 blocks read."), "\(r.stdout)\(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.mfd")) == Data(contentsOf: URL(fileURLWithPath: dir + "/keys.mfd")))
    }

    /// NDEF on Classic (NXP AN1304): the MAD names sectors 1 and 2, which open with the NFC
    /// Forum key and hold a URI record. cardscan reads it through both transports, and
    /// libfreefare's own mifare-classic-read-ndef extracts the same message from the emulated card.
    @Test(arguments: Lab.Path.allCases)
    func ndefOnClassic(_ path: Lab.Path) throws {
        let image = Lab.root + "/Tests/LabCards/classic-ndef-image.json"
        let r = try Lab.exclusive { () throws -> (status: Int32, stdout: String, stderr: String) in
            switch path {
            case .pcsc:
                let card = try Lab.Card(image)
                defer { card.stop() }
                return try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            case .libnfc:
                let pn532 = try Lab.PN532(image)
                defer { pn532.stop() }
                return try Lab.cardscan(
                    ["ndef", "read", "--device", pn532.connectionString, "--timeout", "5"], environment: pn532.environment)
            }
        }
        #expect(r.status == 0 && r.stdout.contains("URI: https://cardscan.example/classic"), "\(r.stdout)\(r.stderr)")
    }

    @Test func libfreefareReadsTheNDEFMessage() throws {
        let out = NSTemporaryDirectory() + "ndef-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/classic-ndef-image.json")
            defer { pn532.stop() }
            let r = try Lab.shell(["mifare-classic-read-ndef", "-y", "-o", out], environment: pn532.environment, timeout: 30)
            #expect(r.status == 0 && r.stdout.contains("NDEF Message TLV"), "\(r.stdout)\(r.stderr)")
        }
        // A well-known URI record: header D1 (MB, ME, SR, TNF 1), type length 1, payload 25, "U",
        // then 04 ("https://") and the rest of the address.
        let expected = Data([0xD1, 0x01, 0x19, 0x55, 0x04] + Array("cardscan.example/classic".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == expected)
    }

    /// Troika on Classic, by detection through both transports: the purse card's keys imported
    /// from a Proxmark3 key dump, the ticket card's from Metrodroid key JSON; the values of
    /// docs/cards/classic.md's worked examples; the recording holds no key and replays to the
    /// same report without them.
    @Test(arguments: Lab.Path.allCases)
    func troikaByDetection(_ path: Lab.Path) throws {
        let env = try home()
        let added = try Lab.cardscan(
            ["keys", "add", Lab.root + "/Tests/LabCards/hf-mf-2B3C4D5E-key.bin", Lab.root + "/Tests/LabCards/troika-ticket-keys.json"],
            environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        let cards: [(String, [String])] = [
            ("troika-image.json", [#""amount": 12345"#, #""serial": "1234 567 890""#, #""time": "2024-03-05T08:15:00+03:00""#]),
            ("troika-ticket-image.json", [#""ridesLeft": 17"#, #""time": "2018-03-05T18:42:00+03:00""#]),
        ]
        for (image, expected) in cards {
            let record = NSTemporaryDirectory() + "troika-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: record) }
            let r = try Lab.readLabCard(image, through: path, ["--record", record], environment: env)
            #expect(Lab.reportProblems(r, profile: "troika", expected: expected).isEmpty, "\(image): \(r.stdout)\(r.stderr)")
            let transcript = try String(contentsOfFile: record, encoding: .utf8).uppercased().replacingOccurrences(of: " ", with: "")
            let o = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Lab.root + "/Tests/LabCards/" + image)))
                    as? [String: Any])
            for s in (o["sectors"] as? [[String: Any]]) ?? [] {
                for k in ["key-a", "key-b"] {
                    let key = (s[k] as? String ?? "").replacingOccurrences(of: " ", with: "")
                    #expect(!transcript.contains(key), "\(image): a key in the transcript")
                }
            }
            let replayed = try Lab.cardscan(["replay", record, "--json"])
            #expect(replayed.status == 0 && replayed.stdout.contains(expected[0]), "\(replayed.stdout)\(replayed.stderr)")
        }
    }

    /// SunCard opens with a well-known key: read by detection with no key imported.
    @Test(arguments: Lab.Path.allCases)
    func sunCardWithTheWellKnownKeys(_ path: Lab.Path) throws {
        let r = try Lab.readLabCard("suncard-image.json", through: path, environment: try home())
        let expected = [#""serial": 1234567"#, #""fullSerial": "6374260001234567""#]
        #expect(Lab.reportProblems(r, profile: "suncard", expected: expected).isEmpty, "\(r.stdout)\(r.stderr)")
    }

    /// The dumps users have are served as they are: the Troika lab card exported as a raw
    /// `.mfd` (keys from its trailers), a Proxmark3 JSON dump, a Flipper `.nfc` and a MIFARE
    /// Classic Tool `.mct`, each served by cardsim directly — over vpcd and through the emulated
    /// PN532 — reads to the card's purse (123.45 RUB, docs/cards/classic.md's worked example).
    @Test(arguments: Lab.Path.allCases)
    func dumpsAreServedAsTheyAre(_ path: Lab.Path) throws {
        let env = try home()
        let keys = ["hf-mf-2B3C4D5E-key.bin", "troika-ticket-keys.json"].map { Lab.root + "/Tests/LabCards/" + $0 }
        #expect(try Lab.cardscan(["keys", "add"] + keys, environment: env).status == 0)
        let dir = NSTemporaryDirectory() + "cardscan-dumps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (format, ext) in [("mfd", "mfd"), ("proxmark3", "json"), ("flipper", "nfc"), ("mct", "mct")] {
            let dump = "\(dir)/troika.\(ext)"
            let exported = try Lab.cardscan(["export", Lab.root + "/Tests/LabCards/troika-image.json", "--format", format, "--out", dump])
            #expect(exported.status == 0, "\(format): \(exported.stderr)")
            let r = try Lab.exclusive { () -> (status: Int32, stdout: String, stderr: String) in
                switch path {
                case .pcsc:
                    let card = try Lab.Card(dump)
                    defer { card.stop() }
                    return try Lab.cardscan(["--json", "--timeout", "5"], environment: env)
                case .libnfc:
                    let pn532 = try Lab.PN532(dump)
                    defer { pn532.stop() }
                    return try Lab.cardscan(
                        ["--device", pn532.connectionString, "--json", "--timeout", "5"],
                        environment: env.merging(["LIBNFC_AUTO_SCAN": "false"]) { $1 })
                }
            }
            #expect(Lab.reportProblems(r, profile: "troika", expected: [#""amount": 12345"#]).isEmpty, "\(format): \(r.stdout)\(r.stderr)")
        }
    }

    /// `cardscan classic` decodes the application directory and each sector's access
    /// conditions: the NDEF lab card's MAD names sectors 1–2 NDEF; its trailers are AN1305's.
    @Test func theDirectoryAndAccessConditionsInWords() throws {
        let r = try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/classic-ndef-image.json")
            defer { card.stop() }
            return try Lab.cardscan(["classic", "--timeout", "5"], environment: try home())
        }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("application directory (MAD1, CRC right), publisher in sector 1"), "\(r.stdout)")
        #expect(lines.contains("  sectors 1–2: NDEF (NFC Forum)") && lines.contains("  sectors 3–15: free"))
        #expect(lines.contains("  access: blocks 0–2 read A/B, write B; trailer: B writes the keys and access bits"))
        #expect(lines.contains("  access: blocks 0–2 read A/B, write A/B, value A/B; trailer: B writes the keys and access bits"))
    }

    /// `ndef write` on Classic (AN1304), through both transports: a URI long enough to span both
    /// NDEF sectors is written, read back by cardscan, and — through the emulated PN532 —
    /// extracted by libfreefare's mifare-classic-read-ndef from what cardscan wrote.
    @Test(arguments: Lab.Path.allCases)
    func ndefWriteOnClassic(_ path: Lab.Path) throws {
        let image = Lab.root + "/Tests/LabCards/classic-ndef-image.json"
        let address = "cardscan.example/written-across-two-sectors-of-a-classic-tag"
        let out = NSTemporaryDirectory() + "ndef-written-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Lab.exclusive {
            var device: [String] = [], env: [String: String] = [:]
            let card: Lab.Card?, pn532: Lab.PN532?
            switch path {
            case .pcsc: (card, pn532) = (try Lab.Card(image), nil)
            case .libnfc:
                let p = try Lab.PN532(image)
                (card, pn532, device, env) = (nil, p, ["--device", p.connectionString], p.environment)
            }
            defer {
                card?.stop()
                pn532?.stop()
            }
            let w = try Lab.cardscan(["ndef", "write", "--uri", "https://" + address, "--timeout", "5"] + device, environment: env)
            #expect(
                w.status == 0 && w.stdout.contains("Wrote 65 bytes to the mifare-classic tag; read back and verified."),
                "\(w.stdout)\(w.stderr)")
            let r = try Lab.cardscan(["ndef", "read", "--timeout", "5"] + device, environment: env)
            #expect(r.stdout.contains("URI: https://" + address), "\(r.stdout)\(r.stderr)")
            if path == .libnfc {
                let f = try Lab.shell(["mifare-classic-read-ndef", "-y", "-o", out], environment: env, timeout: 30)
                #expect(f.status == 0, "\(f.stdout)\(f.stderr)")
            }
        }
        if path == .libnfc {
            // D1 (MB, ME, SR, TNF 1), type length 1, payload 1 + 60 = 0x3D, "U", 04 ("https://").
            let expected = Data([0xD1, 0x01, 0x3D, 0x55, 0x04] + Array(address.utf8))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == expected)
        }
    }
}
