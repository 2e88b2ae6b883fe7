import Foundation
import LabSupport
import Testing

/// What a recording and a trace keep of personal data, read from lab cards through the real
/// pcscd, and what a replay of such a recording says.
@Suite struct PersonalDataLabTests {
    /// The Navigo lab card's environment record (READ RECORD 1 of SFI 07), as the card sends it.
    static let environment = "24 39 28 48 08 1D E2 90 48 CC 80 10 A8 04 90 A0 00 00 00 00 00 00 00 00 00 00 00 00 00 90 00"
    /// The same record with the birth date hidden, worked out by hand: the layout
    /// (layouts/intercode.yaml) puts the 32-bit BCD birth date 0x19900215 at bit 69 of the
    /// record (the 6-bit version, the bitmaps and values before it), so it is the low 3 bits of
    /// byte 8 (48 = 01001|000), bytes 9–11 whole (CC 80 10) and the top 5 bits of byte 12
    /// (A8 = 10101|000): 000 11001100 10000000 00010000 10101 = 0001 1001 1001 0000 0000 0010
    /// 0001 0101. Byte 8 keeps its top 5 bits (they belong to the holder bitmap before it) and
    /// byte 12 its low 3.
    static let hiddenEnvironment = "24 39 28 48 08 1D E2 90 48/07 .. .. .. 00/F8 04 90 A0 00 00 00 00 00 00 00 00 00 00 00 00 00 90 00"

    @Test func aRecordingAndATraceHideTheBitsOfAPersonalValue() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/navigo-image.json")
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "cardscan-navigo-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(["--record", file, "--trace", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains("< " + Self.hiddenEnvironment), "\(text)")
            #expect(!text.contains(Self.environment))
            #expect(r.stderr.contains("< " + Self.hiddenEnvironment), "\(r.stderr)")
            #expect(!r.stderr.contains(Self.environment))

            // The replay says the value was redacted instead of decoding the zeros it holds.
            let replay = try Lab.cardscan(["replay", "--json", "--show-personal", file])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("\"redacted\": [\n    \"card.birthDate\"\n  ]"), "\(replay.stdout)")
            #expect(!replay.stdout.contains("birthDate\":"))
            let shown = try Lab.cardscan(["replay", "--show-personal", file])
            #expect(shown.stdout.contains("redacted in the recording: card.birthDate"), "\(shown.stdout)")
            // The rest of the record decodes as before: the values beside the hidden bits.
            #expect(
                replay.stdout.contains("\"network\": \"Navigo (Île-de-France)\"") && replay.stdout.contains("\"holder\": \"personalised\""))

            // Asked for raw bytes, the recording keeps the card's answer as it was.
            let raw = NSTemporaryDirectory() + "cardscan-navigo-raw-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: raw) }
            let r2 = try Lab.cardscan(["--record", raw, "--record-raw", "--timeout", "5"])
            #expect(r2.status == 0, "\(r2.stderr)")
            #expect(try String(contentsOfFile: raw, encoding: .utf8).contains("< " + Self.environment))
            let rawReplay = try Lab.cardscan(["replay", "--json", "--show-personal", raw])
            #expect(rawReplay.stdout.contains("\"birthDate\": \"1990-02-15\"") && !rawReplay.stdout.contains("\"redacted\""))
        }
    }

    /// A payment card recorded as usual hides the PAN's middle digits; `--show-pan` on its replay
    /// cannot show them and says so, instead of showing the zeros the recording holds.
    @Test func showPANOnARedactedRecordingKeepsItMasked() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/emv-visa-image.json")
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "cardscan-visa-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(["--record", file, "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let replay = try Lab.cardscan(["replay", "--json", "--show-pan", file])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("\"pan\": \"476173******0010\""), "\(replay.stdout)")
            #expect(!replay.stdout.contains("4761730000000010"))
            #expect(replay.stdout.contains("\"redacted\": [\n    \"card.pan\"\n  ]"), "\(replay.stdout)")
            // The expiry date and service code are not hidden in Track 2: they stay.
            #expect(replay.stdout.contains("\"expiry\": \"2028-05\"") && replay.stdout.contains("\"serviceCode\": \"201\""))
            let text = try Lab.cardscan(["replay", "--show-pan", file])
            #expect(text.stdout.contains("redacted in the recording: card.pan"), "\(text.stdout)")
            #expect(!text.stdout.contains("masked: card.pan"))
        }
    }
}
