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
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "-v", "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("ISO 14443-B, PUPI 1A 2B 3C 4D"))
            expectNavigo(r.stdout, r.stderr)
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
