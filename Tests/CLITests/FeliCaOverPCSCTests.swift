import Foundation
import LabSupport
import PCSCTransport
import Testing

/// FeliCa cards on a PC/SC contactless reader: cardsim vpcd plays an ACS reader (pseudo-ATR,
/// frames in FF 00 00 00 pseudo-APDUs) in front of a FeliCa card, through the real pcscd.
@Suite struct FeliCaOverPCSCTests {
    @Test func pasmoOnAnACR1252StyleReaderRecordsAndReplays() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "pasmo-pcsc-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(["--json", "--timeout", "5", "--record", file])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(
                r.stdout.contains("\"name\": \"PASMO\"") && r.stdout.contains("\"amount\": 1234") && r.stdout.contains("\"exchanges\": 5"),
                "\(r.stdout)")
            let recorded = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                recorded.hasPrefix(
                    "# cardscan transcript 1\n# technology: felica\n# idm: 01 01 04 10 AA BB CC DD\n# pmm: 10 0B 4B 42 84 85 D0 FF\n# system-code: 00 03\n# atr: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42\n"
                ), "\(recorded)")
            #expect(recorded.contains("\n> 10 06 01 01 04 10 AA BB CC DD 01 8B 00 01 80 00\n"))  // frames, not pseudo-APDUs
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == r.stdout)
            let readers = try Lab.cardscan(["readers"])
            #expect(
                readers.stdout.contains("card   3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42  (FeliCa)"), "\(readers.stdout)"
            )
        }
    }

    /// The same Suica transcript through an ACR122U-style reader gives the fixture's report.
    @Test func suicaOnAnACR122StyleReader() throws {
        try Lab.exclusive {
            let file = NSTemporaryDirectory() + "acr122-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let expected = try String(contentsOfFile: Lab.fixture("suica/full-read.expected.json"), encoding: .utf8)
            do {
                let card = try Lab.Card(Lab.fixture("suica/full-read.apdu"), options: ["--acr122"])
                defer { card.stop() }
                let r = try Lab.cardscan(["--json", "--timeout", "5", "--trace", "--record", file])
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stdout == expected)
                #expect(
                    r.stderr.contains("< 1D 07 01 2E 4C D0 1A 2B 3C 4D 00 00 01")
                        && r.stderr.contains("Read Without Encryption, 1 block(s)"))
            }
            // The recording keeps the ACR122U's ATR, and cardsim plays that reader again for it.
            #expect(
                try String(contentsOfFile: file, encoding: .utf8).contains(
                    "# atr: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A\n"))
            let again = try Lab.Card(file)
            defer { again.stop() }
            #expect(try Lab.cardscan(["readers"]).stdout.contains("03 F0 11 00 00 00 00 8A  (FeliCa)"))
            #expect(try Lab.cardscan(["--json", "--timeout", "5"]).stdout == expected)
        }
    }

    /// Octopus is the second system of this dual card: the profile's Polling for 8008 goes
    /// through the reader too.
    @Test func octopusIsPolledThroughTheReader() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/octopus-szt-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"profile\": \"octopus\"") && r.stdout.contains("\"amount\": 6500"), "\(r.stdout)")
            // Its second system, Shenzhen Tong (raw 0190 → (400 − 350) × 10 fen).
            let szt = try Lab.cardscan(["--json", "--timeout", "5", "--profile", "shenzhen-tong-felica"])
            #expect(
                szt.status == 0 && szt.stdout.contains("\"amount\": 500,") && szt.stdout.contains("\"idm\": \"1101070"),
                "\(szt.stdout)\(szt.stderr)")
        }
    }

    /// `cardscan felica`: the real PASMO service list comes back in order, with the blocks
    /// of the services readable without a key.
    @Test func surveyListsTheTreeAndReadsOpenServices() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["felica", "--blocks", "--json", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let systems = try #require(root["systems"] as? [[String: Any]])
            #expect(systems.compactMap { $0["code"] as? String } == ["0003", "FE00"])
            let nodes = try #require(systems[0]["nodes"] as? [[String: Any]])
            let services = nodes.compactMap { $0["service"] as? String }
            #expect(services.count == 50 && services.prefix(4) == ["0048", "004A", "0088", "008B"] && services.last == "23CB")
            #expect(nodes.filter { $0["area"] != nil }.count == 9)
            let info = try #require(nodes.first { $0["service"] as? String == "008B" })
            #expect(info["depth"] as? Int == 2 && info["attribute"] as? String == "Random RO w/o key")
            #expect(info["blocks"] as? [String] == ["00 00 00 00 00 00 00 00 00 00 00 D2 04 00 00 12"])
            #expect((nodes.first { $0["service"] as? String == "090F" }?["blocks"] as? [String])?.count == 20)
            #expect(nodes.first { $0["service"] as? String == "1CC8" }?["blocks"] == nil)  // needs a key: not read
            let text = try Lab.cardscan(["felica", "--timeout", "5"])
            #expect(text.stdout.contains("\n    Area 0040h-07FFh\n      Service 0048h  Random RW with key\n"), "\(text.stdout)")
            #expect(text.stdout.hasSuffix("50 service(s) in 2 system(s), 62 exchange(s) with the card\n"), "\(text.stdout)")
        }
    }

    /// `cardscan felica --image` copies a card into a cardsim image: the copy lists what the
    /// original holds, and a profile reads the copy as it reads the card.
    @Test func surveyImageIsAVirtualCopyOfTheCard() throws {
        try Lab.exclusive {
            let source = Lab.root + "/Tests/LabCards/pasmo-image.json"
            let copy = NSTemporaryDirectory() + "copy-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let original: String
            do {
                let card = try Lab.Card(source)
                defer { card.stop() }
                let r = try Lab.cardscan(["felica", "--image", copy, "--timeout", "5"])
                #expect(r.status == 0 && r.stderr.contains("Wrote \(copy)"), "\(r.stderr)")
                original = try Lab.cardscan(["--json", "--timeout", "5"]).stdout
            }
            func systems(_ path: String) throws -> [[String: [String: AnyHashable]]] {
                let root = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
                #expect(root["idm"] as? String == "01 01 04 10 AA BB CC DD" && root["pmm"] as? String == "10 0B 4B 42 84 85 D0 FF")
                return (root["systems"] as? [[String: Any]] ?? []).map { s in
                    [
                        "code": ["": s["code"] as? String ?? ""], "areas": ["": Set(s["areas"] as? [String] ?? [])],
                        "services": (s["services"] as? [String: [String]] ?? [:]).mapValues { $0 as AnyHashable },
                    ]
                }
            }
            #expect(try systems(copy) == (try systems(source)))
            #expect(
                try systems(copy)[0]["services"]?.count == 50
                    && systems(copy)[0]["areas"]?[""]
                        == AnyHashable(
                            Set([
                                "0000 FFFE", "0040 07FF", "0800 0FBF", "0FC0 27FF", "1000 17BF", "17C0 27FF", "1800 1CBF", "1CC0 22FF",
                                "2300 27FF",
                            ]))
            )
            let card = try Lab.Card(copy)
            defer { card.stop() }
            let fromCopy = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(fromCopy.status == 0 && fromCopy.stdout == original && original.contains("\"name\": \"PASMO\""), "\(fromCopy.stdout)")
        }
    }

    /// `cardscan apdu` passes the reader's GET DATA and FeliCa reads in pseudo-APDUs, and
    /// refuses a FeliCa write without --allow-write.
    @Test func rawPseudoAPDUsReadButDoNotWrite() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["apdu", "FFCA000000", "FF00000006060000030100"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("< 01 01 04 10 AA BB CC DD 90 00 : success"), "\(r.stdout)")
            #expect(r.stdout.contains("< 14 01 01 01 04 10 AA BB CC DD 10 0B 4B 42 84 85 D0 FF 00 03 90 00 : success"), "\(r.stdout)")
            let write = try Lab.cardscan(["apdu", "FF000000200801010410AABBCCDD0109000180004141414141414141414141414141414141"])
            #expect(write.status == 64 && write.stderr.contains("pass --allow-write"), "\(write.stderr)")
        }
    }

    @Test func surveyOfACardThatIsNotFeliCaIsExit76() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { card.stop() }
            let r = try Lab.cardscan(["felica", "--timeout", "5"])
            #expect(r.status == 76)
            #expect(r.stderr.contains("is not a FeliCa card (ATR 3B 8B 80 01"), "\(r.stderr)")
        }
    }

    @Test func removedMidReadIsPartialWithExit74() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json", options: ["--remove-after", "3"])
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5", "--profile", "suica"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true") && r.stdout.contains("\"amount\": 1234"), "\(r.stdout)")
        }
    }
}

/// The same NDEF tags through pcscd: cardsim plays a contactless reader (FeliCa pseudo-APDUs
/// for Type 3, FF B0 / FF D6 storage-card commands for Type 2, plain APDUs for Type 4).
@Suite struct NDEFOverPCSCTests {
    static let cards: [(file: String, read: String)] = [
        ("type3-ndef.apdu", "Type 3 tag, read-write, capacity 208 bytes\n  URI: https://example.com/t3\n"),
        ("type2-ndef.apdu", "Type 2 tag, read-write, capacity 141 bytes\n  URI: https://nfc.example/t2\n"),
        ("type4-ndef.apdu", "Type 4 tag, read-write, capacity 48 bytes\n  Text (en): Hello from T4\n"),
    ]

    @Test(arguments: cards)
    func readWriteReadAndScanFallback(_ card: (file: String, read: String)) throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/" + card.file)
            defer { sim.stop() }
            let first = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(first.status == 0 && first.stdout == card.read, "\(first.stdout)\(first.stderr)")
            let file = NSTemporaryDirectory() + "ndef-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let scanned = try Lab.cardscan(["--timeout", "5", "--record", file])  // no transit profile: its NDEF records
            #expect(scanned.status == 0 && scanned.stdout == card.read, "\(scanned.stdout)\(scanned.stderr)")
            #expect(scanned.stderr.contains("note: the card is an NFC Forum tag, not a transit card: \(file) holds its NDEF read"))
            if card.file == "type2-ndef.apdu" {
                let asked = try Lab.cardscan(["--timeout", "5", "--profile", "suica"])
                #expect(
                    asked.status == 76
                        && asked.stderr.contains(
                            "not read by profile 'suica': the card speaks MIFARE Ultralight and the profile reads FeliCa cards"),
                    "\(asked.stderr)")
            }
            let w = try Lab.cardscan(["ndef", "write", "--uri", "https://cardscan.example/pcsc", "--timeout", "5"])
            #expect(w.status == 0 && w.stdout.contains("read back and verified"), "\(w.stderr)")
            let again = try Lab.cardscan(["ndef", "read", "--json", "--timeout", "5"])
            #expect(again.stdout.contains("\"uri\": \"https://cardscan.example/pcsc\""), "\(again.stdout)")
        }
    }

    @Test func readOnlyType3IsRefusedOverPCSC() throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/type3-ndef-readonly.apdu")
            defer { sim.stop() }
            let w = try Lab.cardscan(["ndef", "write", "--text", "no", "--timeout", "5"])
            #expect(w.status == 65 && w.stderr.contains("the Type 3 tag is read-only: nothing was written"), "\(w.stderr)")
        }
    }

    /// A Type 3 tag refusing the read of its data blocks (status flags 01 A8): a card failure,
    /// exit 74 with the card's reason. It was exit 70, "a bug in cardscan" (the FeliCa error
    /// had no exit status of its own outside a profile's read).
    @Test func aType3TagRefusingItsDataBlocksIsACardFailure() throws {
        let lines = try String(contentsOfFile: Lab.root + "/Tests/LabCards/type3-ndef.apdu", encoding: .utf8).split(separator: "\n")
        let refused =
            lines.prefix { !$0.hasPrefix("> 12 06") } + [
                "> 12 06 02 FE 00 00 00 00 00 00 01 0B 00 02 80 01 80 02", "< 0C 07 02 FE 00 00 00 00 00 00 01 A8",
            ]
        let file = NSTemporaryDirectory() + "type3-refusing-\(UUID().uuidString).apdu"
        try refused.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Lab.exclusive {
            let sim = try Lab.Card(file)
            defer { sim.stop() }
            let r = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains("01 A8") && r.stderr.contains("hint: the card refused"), "\(r.stderr)")
        }
    }

    @Test func aFeliCaTransitCardHasNoNDEF() throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { sim.stop() }
            let r = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(
                r.status == 76 && r.stderr.contains("no NDEF system (12FC)")
                    && r.stderr.contains("hint: a transit card is read with `cardscan`"), "\(r.stderr)")
        }
    }
}
