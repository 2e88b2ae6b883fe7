import Foundation
import LabSupport
import Testing

/// MIFARE Ultralight lab cards (scripts/ultralight-lab-images.py) through the real libnfc and
/// the real pcscd: `cardscan ultralight`, and libnfc's and libfreefare's own tools.
@Suite struct UltralightLabTests {
    static let ev1 = Lab.root + "/Tests/LabCards/ultralight-ev1-image.json"
    static let plain = Lab.root + "/Tests/LabCards/ultralight-image.json"

    /// The image as cardscan writes one: keys sorted, no note.
    func canonical(_ file: String) throws -> NSDictionary {
        let o = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)), options: .mutableContainers)
                as? NSMutableDictionary)
        o.removeObject(forKey: "note")
        return o
    }

    /// Through libnfc: GET_VERSION names the EV1 (MF0UL11, 20 pages); pages 12–19 are refused
    /// (its password protects them) and kept unknown; the tag, halted by the refusal, is polled
    /// again for READ_CNT (counter 0 is 7). The copy it writes is the image.
    @Test func ev1ThroughLibnfc() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Self.ev1)
            defer { pn532.stop() }
            let copy = NSTemporaryDirectory() + "ul-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let r = try Lab.cardscan(
                ["ultralight", "--device", pn532.connectionString, "--timeout", "5", "--image", copy], environment: pn532.environment)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("MIFARE Ultralight EV1 (MF0UL11), UID 04 5A 6B 7C 8D 9E AF, 20 pages"), "\(r.stdout)")
            #expect(r.stdout.contains("   3  00 00 00 00  yes     OTP (one-time programmable)"), "\(r.stdout)")
            #expect(r.stdout.contains("   8  18 20 30 40  no      user memory"), "\(r.stdout)")
            #expect(r.stdout.contains("  16  protected     -       configuration 0 (MOD, AUTH0)"), "\(r.stdout)")
            #expect(r.stdout.contains("Counters   7, 0, 0"))
            #expect(r.stdout.contains("note: pages 12–19: refused (a protected area: no password is tried)"))
            #expect(try canonical(copy) == canonical(Self.ev1))
        }
    }

    /// Through pcscd: the reader carries READ only, so no version and no counters; the first
    /// refused READ (page 12) ends the listing.
    @Test func ev1ThroughPCSC() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.ev1)
            defer { card.stop() }
            let r = try Lab.cardscan(["ultralight", "--timeout", "5", "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            #expect(o["model"] as? String == "unknown" && o["version"] == nil && o["counters"] == nil)
            #expect((o["pages"] as? [String])?.count == 12)
            #expect((o["pages"] as? [String])?.last == "1B 20 30 40")
        }
    }

    /// A plain Ultralight through pcscd: every page; the copy serves to the same listing.
    @Test func plainThroughPCSCRoundTrip() throws {
        let r = try Lab.dumpRoundTrip("ultralight-image.json", command: "ultralight")
        #expect(r.dump.status == 0, "\(r.dump.stderr)")
        #expect(r.dump.stdout.contains("MIFARE Ultralight (MF0ICU1), UID 04 11 22 33 44 55 66, 16 pages"), "\(r.dump.stdout)")
        #expect(r.dump.stdout.contains("  15  0F 0F 0F 0F  no      user memory"), "\(r.dump.stdout)")
    }

    /// libnfc's nfc-mfultralight reads the emulated tag page by page: its dump is the image's
    /// 64 bytes (BCC0 = 88⊕04⊕11⊕22 = BF, BCC1 = 33⊕44⊕55⊕66 = 44). libfreefare's mifare-ultralight-info names it.
    @Test func peersReadTheEmulatedTag() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Self.plain)
            defer { pn532.stop() }
            let dump = NSTemporaryDirectory() + "ul-\(UUID().uuidString).mfd"
            defer { try? FileManager.default.removeItem(atPath: dump) }
            let r = try Lab.shell(["nfc-mfultralight", "r", dump], environment: pn532.environment, timeout: 30)
            #expect(r.status == 0 && r.stdout.contains("Done, 16 of 16 pages read (0 pages failed)."), "\(r.stdout)\(r.stderr)")
            var expected = Data([0x04, 0x11, 0x22, 0xBF, 0x33, 0x44, 0x55, 0x66, 0x44, 0x48, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00])
            for p in 4..<16 { expected += Data(repeating: UInt8(p), count: 4) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: dump)) == expected)
            let info = try Lab.shell(["mifare-ultralight-info"], environment: pn532.environment, timeout: 30)
            #expect(info.stdout.contains("Tag with UID 04112233445566 is a Mifare UltraLight"), "\(info.stdout)\(info.stderr)")
        }
    }

    /// Each Ultralight ticket's lab card read by detection through the real pcscd and the real
    /// libnfc: the profile, and values worked out by hand in docs/cards/nextfare-ultralight.md.
    static let tickets: [(image: String, profile: String, expected: [String])] = [
        (
            "compass-image.json", "compass",
            [
                #""serial": "0001 0200 1599 8343 8681""#, #""station": "Metrotown Station""#,
                #""time": "2025-06-18T08:12:00-07:00""#,
            ]
        ),
        ("ventra-image.json", "ventra", [#""product": "1-Day""#, #""validUntil": "2025-01-11T17:52:00-06:00""#]),
        ("nextfare-ul-image.json", "nextfare-ul", [#""time": "2024-02-28T12:00:00+00:00""#, #""location": 7"#]),
        ("troika-ul-image.json", "troika-ul", [#""serial": "0012 345 678""#, #""time": "2018-03-05T18:42:00+03:00""#]),
        ("clipper-ul-image.json", "clipper-ul", [#""serial": 708529245"#, #""time": "2019-03-02T17:45:00-08:00""#]),
        ("mrt-singapore-ul-image.json", "mrt-singapore-ul", [#""serial": "0001 0001 2345 6789""#]),
        ("pisa-ul-image.json", "pisa-ul", [#""time": "2020-02-10T07:50:00+01:00""#]),
        ("venezia-ul-image.json", "venezia-ul", [#""serial": "53087137254609413""#, #""validUntil": "2023-09-15T15:47:00+02:00""#]),
        ("ovc-ul-image.json", "ovc-ul", [#""kind": "check-out""#, #""operator": "NS""#]),
        ("hsl-ul-image.json", "hsl-ul", [#""number": "924621003401380717""#, #""zones": "BC""#, #""line": 1006"#]),
    ]

    @Test(arguments: Lab.Path.allCases)
    func ticketsReadByDetection(_ path: Lab.Path) throws {
        for t in Self.tickets {
            let r = try Lab.readLabCard(t.image, through: path)
            #expect(
                Lab.reportProblems(r, profile: t.profile, expected: t.expected).isEmpty,
                "\(t.image): \(Lab.reportProblems(r, profile: t.profile, expected: t.expected))")
            // At most four READs: the whole 16 pages, as a full dump would read them.
            #expect(["2", "3", "4"].contains { r.stdout.contains(#""exchanges": \#($0)"#) }, "\(t.image)")
        }
    }

    /// `cardscan ultralight --image` of each ticket, through pcscd, gives a copy that reads to
    /// the same report (the dump reads all 16 pages, then page 16, refused).
    @Test func aDumpedTicketReadsTheSame() throws {
        for t in Self.tickets {
            let r = try Lab.dumpRoundTrip(t.image, command: "ultralight")
            #expect(r.before.status == 0 && r.dump.status == 0, "\(t.image): \(r.before.stderr)\(r.dump.stderr)")
            #expect(r.dump.stdout.contains(", 16 pages"), "\(t.image): \(r.dump.stdout)")
            #expect(r.after.stdout == r.before.stdout, "\(t.image): \(r.after.stdout)\(r.after.stderr)")
        }
    }
}
