import Foundation
import LabSupport
import PCSCTransport
import Testing

/// `cardscan --device` through the real libnfc and cardsim's emulated PN532.
@Suite struct NFCCLITests {
    @Test func suicaThroughALibnfcDeviceRecordsAndReplays() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"))
            defer { pn532.stop() }
            let file = NSTemporaryDirectory() + "suica-\(UUID().uuidString).apdu"
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--record", file],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            let expected = try String(contentsOfFile: Lab.fixture("suica/full-read.expected.json"), encoding: .utf8)
            #expect(r.stdout == expected, "\(r.stdout)")
            let recorded = try String(contentsOfFile: file, encoding: .utf8)
            #expect(recorded.hasPrefix("# cardscan transcript 1\n# technology: felica\n# idm: 01 2E 4C D0 1A 2B 3C 4D\n"))
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == expected)
            let readers = try Lab.cardscan(["readers", "--nfc"], environment: pn532.environment)
            #expect(readers.stdout.contains("libnfc  \(pn532.connectionString)"))
            // A configured device is listed without --nfc too (no scan needed to know it).
            let configured = try Lab.cardscan(["readers"], environment: ["LIBNFC_DEVICE": pn532.connectionString])
            #expect(configured.stdout.contains("libnfc  \(pn532.connectionString)"), "\(configured.stdout)")
            let doctor = try Lab.cardscan(["doctor"], environment: pn532.environment)
            #expect(doctor.stdout.contains("ok   libnfc device \(pn532.connectionString) opens: "), "\(doctor.stdout)")
            #expect(!doctor.stderr.contains("libnfc.buses"))  // libnfc's own log stays quiet
            // Without pcscd, a PN532 still reads: doctor warns instead of failing, and readers
            // lists the device (and says why there is no PC/SC reader).
            var noPCSCD = pn532.environment
            noPCSCD["PCSCLITE_CSOCK_NAME"] = "/nonexistent"
            let alone = try Lab.cardscan(["doctor"], environment: noPCSCD)
            #expect(alone.status == 0, "\(alone.stdout)")
            #expect(alone.stdout.contains("warn pcscd is not running") && alone.stdout.contains("the libnfc device below reads without"))
            let listed = try Lab.cardscan(
                ["readers"], environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent", "LIBNFC_DEVICE": pn532.connectionString])
            // Exit 69 all the same: a script reads it as "the PC/SC readers cannot be told".
            #expect(listed.status == 69 && listed.stdout.contains("libnfc  \(pn532.connectionString)"), "\(listed.stdout)")
            #expect(listed.stderr.contains("pcscd is not running"), "\(listed.stderr)")
        }
    }

    /// PASMO and Suica share every public service; the issuer's own services (asked with
    /// one Request Service) tell them apart. The card image has the real PASMO service list.
    @Test func pasmoIsToldFromSuicaByItsServices() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { pn532.stop() }
            let file = NSTemporaryDirectory() + "pasmo-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--record", file],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"name\": \"PASMO\"") && r.stdout.contains("\"amount\": 1234"), "\(r.stdout)")
            // 4 exchanges for PASMO, then Edy's detection: the card's FE00 system (IDm 11…) has no
            // Edy service (one Read Without Encryption refused): not a second application.
            #expect(r.stdout.contains("\"amount\": -210") && r.stdout.contains("\"amount\": -150") && r.stdout.contains("\"exchanges\": 5"))
            // PASMO's read ends with the Request Service and the card's key versions (0000: PASMO's 1CC8 and 1D08).
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            #expect(
                lines.suffix(4).first?.hasPrefix("> 41 02 01 01 04 10 AA BB CC DD 1B 08 18 C8 18 C8 1C 08 1D") == true, "\(lines.suffix(4))"
            )
            #expect(lines.suffix(3).first?.hasPrefix("< 41 03 01 01 04 10 AA BB CC DD 1B FF FF FF FF 00 00 00 00 FF FF") == true)
            #expect(lines.suffix(2).first?.hasPrefix("> 10 06 11 01 04 10 AA BB CC DD 01 0B 11") == true, "\(lines.suffix(2))")
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == r.stdout)
        }
    }

    @Test func surveyThroughLibnfc() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/octopus-szt-image.json")
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["felica", "--device", pn532.connectionString, "--blocks", "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            // Two systems, each with its own IDm (system number in the upper nibble).
            #expect(
                r.stdout.contains("System 8008  IDm 01 01 07 01 E1 12 34 56\n")
                    && r.stdout.contains("System 8005  IDm 11 01 07 01 E1 12 34 56\n"), "\(r.stdout)")
            #expect(r.stdout.contains("  Service 0118h  Type 18  1 block(s)\n    0000  00 00 01 90 00"), "\(r.stdout)")
        }
    }

    /// A card is there but not the kind asked for: exit 76 at once, not a timeout.
    @Test func theWrongKindOfCardThroughLibnfcIsExit76() throws {
        try Lab.exclusive {
            let pasmo = try Lab.PN532(Lab.root + "/Tests/LabCards/pasmo-image.json")
            let ndef = try Lab.cardscan(
                ["ndef", "read", "--device", pasmo.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            pasmo.stop()
            #expect(ndef.status == 76 && ndef.stderr.contains("the FeliCa card has no NDEF system (12FC)"), "\(ndef.stderr)")
            let shanghai = try Lab.PN532(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { shanghai.stop() }
            let survey = try Lab.cardscan(
                ["felica", "--device", shanghai.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(
                survey.status == 76 && survey.stderr.contains("is not a FeliCa card (ISO 14443-A, UID 04 11 22 33 44 55 66)"),
                "\(survey.stderr)")
        }
    }

    @Test func iso7816ProfileThroughAPN532() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--profile", "shanghai-transit", "--json", "--timeout", "5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"amount\": 5710") && r.stdout.contains("\"exchanges\": 14"))
        }
    }

    @Test func cardRemovedMidReadThroughLibnfcIsExit74WithAPartialReport() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"), options: ["--remove-after", "2"])
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--apdu-timeout", "0.5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true") && r.stdout.contains("\"amount\": 1270"))  // the balance was read
            #expect(r.stderr.contains("error: the card left the field"))
        }
    }

    @Test func noSuchDeviceIsExit69WithTheHint() throws {
        let r = try Lab.cardscan(
            ["--device", "pn532_uart:/tmp/cardscan-nowhere", "--timeout", "1"], environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("no libnfc device could be opened"))
        #expect(r.stderr.contains("hint:") && r.stderr.contains("pcscd"))
    }
}

/// NDEF tags through the real libnfc and the emulated PN532.
@Suite struct NDEFCLITests {
    func read(_ card: String, json: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            return try Lab.cardscan(
                ["ndef", "read", "--device", pn532.connectionString, "--timeout", "5"] + (json ? ["--json"] : []),
                environment: ["LIBNFC_AUTO_SCAN": "false"])
        }
    }

    @Test func type3() throws {
        let r = try read("type3-ndef.apdu")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Type 3 tag, read-write, capacity 208 bytes\n  URI: https://example.com/t3\n")
    }

    @Test func type4() throws {
        let r = try read("type4-ndef.apdu", json: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("\"tag\": \"type4\"") && r.stdout.contains("\"text\": \"Hello from T4\"")
                && r.stdout.contains("\"language\": \"en\""))
    }

    @Test func type2() throws {
        let r = try read("type2-ndef.apdu")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Type 2 tag, read-write, capacity 141 bytes\n  URI: https://nfc.example/t2\n")
    }

    /// libnfc's own nfc-read-forum-tag3 reads the NDEF message cardsim serves.
    @Test func nfcReadForumTag3ReadsTheSameMessage() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/type3-ndef.apdu")
            defer { pn532.stop() }
            let output = NSTemporaryDirectory() + "t3-\(UUID().uuidString).ndef"
            let r = try Lab.shell(["nfc-read-forum-tag3", "-o", output], environment: pn532.environment, timeout: 20)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("NDEF message length: 19 bytes") && r.stdout.contains("Checksum: ok"))
            let bytes = try #require(FileManager.default.contents(atPath: output))
            #expect([UInt8](bytes) == [0xD1, 0x01, 0x0F, 0x55, 0x04] + Array("example.com/t3".utf8))
        }
    }
}

/// `ndef write` through the real libnfc: written, read back, refused when it must be.
@Suite struct NDEFWriteCLITests {
    func session(_ card: String, _ body: (Lab.PN532) throws -> Void) throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            try body(pn532)
        }
    }
    func cardscan(_ pn532: Lab.PN532, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.cardscan(
            ["ndef"] + args + ["--device", pn532.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
    }

    @Test(arguments: ["type3-ndef.apdu", "type2-ndef.apdu", "type4-ndef.apdu"])
    func writeThenRead(_ card: String) throws {
        try session(card) { pn532 in
            let w = try cardscan(pn532, ["write", "--uri", "https://cardscan.example/written"])
            #expect(w.status == 0, "\(w.stderr)")
            #expect(w.stdout.contains("read back and verified"))
            let r = try cardscan(pn532, ["read"])
            #expect(r.stdout.contains("  URI: https://cardscan.example/written"), "\(r.stdout)")
        }
    }

    @Test func readOnlyTagIsRefused() throws {
        try session("type3-ndef-readonly.apdu") { pn532 in
            let w = try cardscan(pn532, ["write", "--text", "no"])
            #expect(w.status == 65)
            #expect(w.stderr.contains("the Type 3 tag is read-only: nothing was written"))
            #expect(try cardscan(pn532, ["read"]).stdout.contains("  URI: https://example.com/t3"))  // unchanged
        }
    }

    @Test func tooLargeIsRefused() throws {
        try session("type2-ndef.apdu") { pn532 in
            let w = try cardscan(pn532, ["write", "--text", String(repeating: "x", count: 200)])
            #expect(w.status == 65)
            #expect(w.stderr.contains("the message is 207 bytes but the tag holds 141: nothing was written"))
            #expect(try cardscan(pn532, ["read"]).stdout.contains("  URI: https://nfc.example/t2"))  // unchanged
        }
    }
}

@Suite struct NFCFallbackAndWatchTests {
    /// A scan through libnfc that finds no transit profile reports the tag's NDEF records.
    @Test(arguments: [
        ("type3-ndef.apdu", "Type 3 tag", "URI: https://example.com/t3"), ("type2-ndef.apdu", "Type 2 tag", "URI: https://nfc.example/t2"),
    ])
    func ndefFallback(_ card: String, _ tag: String, _ record: String) throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            let r = try Lab.cardscan(["--device", pn532.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix(tag) && r.stdout.contains(record), "\(r.stdout)")
        }
    }

    @Test func watchThroughALibnfcDevice() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"), options: ["-v"])
            defer { pn532.stop() }
            let out = NSTemporaryDirectory() + "nfcwatch-\(UUID().uuidString)"
            let outFD = open(out, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            let watch = try Subprocess(
                [Lab.binDir + "/cardscan", "watch", "--device", pn532.connectionString, "--jsonl"],
                environment: Lab.childEnvironment(["LIBNFC_AUTO_SCAN": "false"]), stdout: outFD, stderr: outFD)
            close(outFD)
            defer { watch.terminate() }
            let deadline = Date().addingTimeInterval(10)
            var lines: [String] = []
            while Date() < deadline {
                lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if !lines.isEmpty { break }
                usleep(50_000)
            }
            #expect(lines.first?.hasPrefix("{\"profile\":\"suica\"") == true, "\(lines)")
            // The card stays: watch polls it again and again (seen in cardsim's log, not waited
            // for by the clock) and reports it no second time.
            let pollsAtReport = pn532.polls
            while Date() < deadline.addingTimeInterval(5), pn532.polls < pollsAtReport + 3 { usleep(20_000) }
            #expect(pn532.polls >= pollsAtReport + 3, "watch stopped polling: \(pn532.log.suffix(500))")
            #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").count == 1)
        }
    }
}
