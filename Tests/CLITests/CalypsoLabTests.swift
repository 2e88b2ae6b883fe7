import Foundation
import LabSupport
import Testing

/// Calypso card images (ISO 7816 file systems served by cardsim) read through the real pcscd
/// (vpcd) and the real libnfc (the emulated PN532, ISO 14443-B).
@Suite struct CalypsoLabTests {
    let navigo = Lab.root + "/Tests/LabCards/navigo-image.json"

    /// What the Navigo lab card holds, as docs/cards/calypso.md decodes it by hand.
    func expectNavigo(_ json: String, _ stderr: String) {
        #expect(json.contains("\"name\": \"Navigo (Île-de-France)\""), "\(stderr)")
        #expect(json.contains("\"time\": \"2024-03-15T08:42:00+01:00\"") && json.contains("\"mode\": \"metro\""))
        #expect(json.contains("\"station\": 592") && json.contains("\"contract\": 1"))
        #expect(json.contains("\"name\": \"Ticket t+\"") && json.contains("\"remaining\": 9"))
        #expect(json.contains("\"name\": \"Navigo Mois\"") && json.contains("\"validUntil\": \"2024-03-31\""))
        #expect(json.contains("\"hidden\": [\n    \"card.birthDate\"\n  ]"))
        #expect(!json.contains("1990"))  // the birth date stays hidden
    }

    @Test func navigoThroughPCSC() throws {
        try Lab.exclusive {
            let card = try Lab.Card(navigo)
            defer { card.stop() }
            let r = try Lab.cardscan(["scan", "--json", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            expectNavigo(r.stdout, r.stderr)
            let personal = try Lab.cardscan(["scan", "--json", "--profile", "navigo", "--show-personal", "--timeout", "5"])
            #expect(personal.stdout.contains("\"birthDate\": \"1990-02-15\"") && !personal.stdout.contains("\"hidden\""))
        }
    }

    @Test func navigoThroughLibnfcAsTypeB() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(navigo)
            defer { pn532.stop() }
            let record = NSTemporaryDirectory() + "cardscan-navigo-typeb.apdu"
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "-v", "--record", record, "--timeout", "5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("ISO 14443-B, PUPI 1A 2B 3C 4D"))
            #expect(try String(contentsOfFile: record, encoding: .utf8).contains("# pupi: 1A 2B 3C 4D\n"))
            expectNavigo(r.stdout, r.stderr)
        }
    }

    /// Every ISO 7816 lab card image (Calypso networks, more as they come).
    static let images: [String] = {
        let dir = Lab.root + "/Tests/LabCards"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { name in
            name.hasSuffix("-image.json")
                && ((try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))?.contains("\"technology\": \"iso7816\"") ?? false)
        }.sorted()
    }()

    /// `cardscan dump --image` of each image gives back an image that reads to the same report.
    @Test(arguments: images) func aDumpReadsToTheSameReport(_ name: String) throws {
        try Lab.exclusive {
            let original = try Lab.Card(Lab.root + "/Tests/LabCards/" + name)
            let before = try Lab.cardscan(["scan", "--json", "--timeout", "5"])
            let copy = NSTemporaryDirectory() + "cardscan-dump-\(name)"
            let dump = try Lab.cardscan(["dump", "--image", copy, "--timeout", "5"])
            original.stop()
            #expect(before.status == 0 && dump.status == 0, "\(before.stderr)\(dump.stderr)")
            #expect(dump.stdout.contains("exchange(s) with the card") && dump.stdout.contains("DF "), "\(dump.stdout)")
            let served = try Lab.Card(copy)
            defer { served.stop() }
            let after = try Lab.cardscan(["scan", "--json", "--timeout", "5"])
            #expect(after.status == 0, "\(after.stderr)")
            #expect(after.stdout == before.stdout)
            #expect(before.stdout.contains("\"trips\""))
        }
    }

    @Test func aDumpThroughLibnfcKnowsTheCardIsTypeB() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(navigo)
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["dump", "--device", pn532.connectionString, "--json", "--trace", "--timeout", "5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"iso14443\" : \"b\""), "\(r.stdout)")
            #expect(r.stderr.contains("ISO 14443-B, PUPI 1A 2B 3C 4D"))  // --trace names the card first
            #expect(r.stdout.contains("\"aid\" : \"31 54 49 43 2E 49 43 41\""))
        }
    }

    @Test func aMalformedImageIsRefusedByFileAndPlace() throws {
        let bad = try Lab.writeTranscript(
            #"{"technology": "iso7816", "atr": "3B 80 80 01 01", "files": [{"fid": "2000", "files": [{"sfi": 31, "records": ["00"]}]}]}"#,
            name: "bad-image.json")
        let r = try Lab.shell([Lab.binDir + "/cardsim", "vpcd", "--once", bad])
        #expect(r.status == 65)
        #expect(r.stderr.contains("bad-image.json.apdu: files[0].files[0].sfi: 31 is outside 1…30"), "\(r.stderr)")
    }
}
