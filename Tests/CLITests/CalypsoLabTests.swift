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

    /// The other Calypso networks' lab cards (scripts/calypso-lab-images.py writes them from
    /// named values) and what their reports must hold: values worked out from those values,
    /// not copied from a run (docs/cards/calypso.md decodes one record of each by hand).
    static let networks: [(image: String, profile: String, expected: [String], absent: [String])] = [
        (
            "mobib-image.json", "mobib",
            [
                #""number": "6396530000123456783""#, #""validUntil": "2038-02-04""#, #""time": "2024-05-06T08:15:00+02:00""#,
                #""station": 8011"#, #""stop": 2345"#, #""route": 71"#, #""name": "Jump 10 trips""#, #""remaining": 7"#,
                #""name": "Jump 24 hours + airport line""#,
            ],
            [#""remaining": 1"#]  // the 24-hour pass's counter counts time, not trips
        ),
        (
            "mobib-v2-image.json", "mobib",
            [
                #""validUntil": "2027-06-30""#, #""mode": "premetro""#, #""station": 2593"#, #""passengers": 1"#,
                #""time": "2024-01-31T17:30:00+01:00""#, #""mode": "tram""#, #""route": 92"#, #""name": "Jump 1 trip""#,
            ], [#""birthDate""#]
        ),
        (
            "ravkav-image.json", "ravkav",
            [
                #""number": "506281035""#, #""holder": "anonymous""#, #""time": "2024-07-01T08:10:00+03:00""#,
                #""time": "2024-03-12T08:40:00+02:00""#, #""provider": "Egged""#, #""amount": -1650"#, #""route": 480"#,
                #""name": "Stored value""#, #""value": 3250"#, #""name": "Trips""#, #""remaining": 8"#,
            ], []
        ),
        (
            "opus-image.json", "opus",
            [
                #""number": "2460000123""#, #""validUntil": "2030-01-31""#, #""time": "2024-10-03T08:05:00-04:00""#,
                #""provider": "STM (Montréal)""#, #""mode": "metro""#, #""route": 747"#, #""name": "Monthly pass""#,
                #""name": "10 trips""#, #""remaining": 6"#,
            ], []
        ),
        (
            "lisboa-viva-image.json", "lisboa-viva",
            [
                #""number": "2749123""#, #""issuer": "Metropolitano de Lisboa""#, #""time": "2024-03-20T15:44:38+00:00""#,
                #""station": 9"#, #""time": "2024-07-10T08:12:00+01:00""#, #""name": "Navegante Lisboa""#,
                #""periodUnit": "months""#, #""name": "Zapping""#, #""value": 130"#, #""card.holderName""#,
            ], ["JOÃO"]
        ),
        (
            "venezia-unica-image.json", "venezia-unica",
            [
                #""validUntil": "2029-12-31""#, #""time": "2024-08-14T10:02:00+02:00""#, #""mode": "ferry""#,
                #""time": "2024-08-13T21:30:00+02:00""#, #""ticket": "Airport bus ticket""#, #""remaining": 3"#,
            ], []
        ),
        (
            "carta-mobile-pisa-image.json", "carta-mobile-pisa",
            [
                #""number": "0012345678""#, #""time": "2024-11-04T07:35:00+01:00""#, #""time": "2024-11-03T19:05:30+01:00""#,
                #""name": "Carnet of 10 tickets (70 minutes), Pisa""#, #""remaining": 4"#, #""name": "Monthly personal pass, Pisa""#,
            ], []
        ),
    ]

    @Test(arguments: networks.indices, Lab.Path.allCases) func eachNetwork(_ i: Int, through path: Lab.Path) throws {
        let network = Self.networks[i]
        let r = try Lab.readLabCard(network.image, through: path, path == .libnfc ? ["-v"] : [])
        let problems = Lab.reportProblems(r, profile: network.profile, expected: network.expected, absent: network.absent)
        #expect(problems.isEmpty, "\(network.image) through \(path): \(problems.joined(separator: "\n"))")
        if path == .libnfc { #expect(r.stderr.contains("ISO 14443-B, PUPI"), "\(r.stderr)") }
    }

    /// Every ISO 7816 lab card image (Calypso networks, more as they come) but the EMV cards:
    /// a dump walks the file system, and an EMV card's records are reached through GET
    /// PROCESSING OPTIONS, which the dump does not send (it counts in the card's ATC).
    static let images: [String] = {
        let dir = Lab.root + "/Tests/LabCards"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { name in
            name.hasSuffix("-image.json") && !name.hasPrefix("emv-")
                && ((try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))?.contains("\"technology\": \"iso7816\"") ?? false)
        }.sorted()
    }()

    /// `cardscan dump --image` of each image gives back an image that reads to the same report.
    @Test(arguments: images) func aDumpReadsToTheSameReport(_ name: String) throws {
        let (before, dump, after) = try Lab.dumpRoundTrip(name, command: "dump")
        #expect(before.status == 0 && dump.status == 0 && after.status == 0, "\(before.stderr)\(dump.stderr)\(after.stderr)")
        #expect(dump.stdout.contains("exchange(s) with the card") && dump.stdout.contains("DF "), "\(dump.stdout)")
        #expect(after.stdout == before.stdout)
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
