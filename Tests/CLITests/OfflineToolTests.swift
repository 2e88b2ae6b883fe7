import CardProfiles
import Foundation
import LabSupport
import Testing

/// `cardscan atr` and `cardscan apdu` without a reader, and card images refused by name.
extension OfflineCLITests {
    @Test func atrBreakdown() throws {
        let r = try cardscan("atr", "3B:8B:80:01:20:85:00:8B:03:0F:E0:9A:A0:E0:40:52")
        #expect(r.status == 0)
        #expect(r.stdout.contains("  TD2         01  protocol T=1"))
        #expect(r.stdout.contains("  TCK         52  (correct)"))
        #expect(r.stdout.contains("Identified: Shanghai Public Transportation Card"))  // pcsc-tools' list, read at run time
        let none = try cardscan("atr", "3B 02 14 50", env: ["CARDSCAN_SMARTCARD_LIST": "/nonexistent"])
        #expect(none.stdout.contains("(install pcsc-tools"))
        // 3B 8B 80 01 …: the form a contactless reader gives an ISO 14443-4 card; 11 historical
        // bytes, so not the Type B layout.
        #expect(r.stdout.contains("PC/SC part 3 contactless card: ISO 14443-4 smart card\n"), "\(r.stdout)")
        let felica = try cardscan("atr", "3B8F8001804F0CA0000003061100 3B0000000042")
        #expect(
            felica.stdout.contains("PC/SC part 3 contactless card: standard 11, card name 00 3B: FeliCa\n  read it with `cardscan`"),
            "\(felica.stdout)")
        let bad = try cardscan("atr", "3B 8B 80")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("ATR truncated"))
    }

    @Test func apduRefusesWritesWithoutAllowWrite() throws {
        let r = try cardscan("apdu", "00 D6 00 00 02 12 34")
        #expect(r.status == 64)
        #expect(r.stderr.contains("argument 1: refused 00 D6 00 00 02 12 34: it is UPDATE BINARY, which changes the card"))
        #expect(r.stderr.contains("--allow-write"))
        let badHex = try cardscan("apdu", "00A4G")
        #expect(badHex.status == 65)
    }
}

/// cardsim's FeliCa card images are data too: a malformed one is refused by name, exit 65,
/// before any reader is touched.
@Suite struct CardImageErrorTests {
    static let cases: [(json: String, words: String)] = [
        ("{ not json", "not a JSON object"),
        ("{\"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": []}", "no 'idm'"),
        (
            "{\"idm\": \"01 02 03 04 05 06 07 08\", \"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": []}",
            "systems must be a non-empty list"
        ),
        (
            "{\"idm\": \"01 02 03 04 05 06 07 08\", \"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": [{\"code\": \"0003\", \"services\": {\"8B\": []}}]}",
            "service code 8B must be hex of 2 bytes"
        ),
        (
            "{\"idm\": \"01 02 03 04 05 06 07 08\", \"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": [{\"code\": \"0003\", \"services\": {\"008B\": [\"00 11\"]}}]}",
            "a block of service 008B must be hex of 16 bytes"
        ),
        (
            "{\"idm\": \"01 02 03 04 05 06 07 08\", \"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": [{\"code\": \"0003\", \"areas\": [\"0040\"], \"services\": {}}]}",
            "an area (code and end"
        ),
        // 17 systems: IDm's nibble numbers 16, and the 17th trapped numbering its IDm.
        (
            "{\"idm\": \"01 02 03 04 05 06 07 08\", \"pmm\": \"00 00 00 00 00 00 00 00\", \"systems\": ["
                + (0..<17).map { "{\"code\": \"\(String(format: "%04X", 0x8000 + $0))\", \"services\": {}}" }.joined(separator: ", ")
                + "]}",
            "systems lists 17; a card has at most 16"
        ),
    ]

    @Test(arguments: cases)
    func refused(_ c: (json: String, words: String)) throws {
        let file = NSTemporaryDirectory() + "image-\(UUID().uuidString).json"
        try c.json.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        for sub in [["pn532", "--pty", NSTemporaryDirectory() + "never-made-\(UUID().uuidString)"], ["vpcd", "--once"]] {
            let r = try Lab.shell([Lab.binDir + "/cardsim"] + sub + [file], timeout: 10)
            #expect(r.status == 65, "\(sub[0]): \(r.stderr)")
            #expect(r.stderr.contains(file) && r.stderr.contains(c.words), "\(sub[0]): \(r.stderr)")
            // One hint: pn532 printed the image's own hint and then cardsim's.
            let hints = r.stderr.split(separator: "\n").filter { $0.hasPrefix("hint: ") }
            #expect(
                hints == ["hint: serve a cardscan transcript or card image (docs/transcripts.md, docs/lab.md)"], "\(sub[0]): \(r.stderr)")
        }
    }

    /// Suica blocks with no date are not trips; `--trace` says which were left out and why.
    @Test func skippedHistoryBlocksAreNamedInTheTrace() throws {
        let r = try Lab.cardscan(["replay", Lab.fixture("suica/corrections.apdu"), "--trace"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("4 trips"), "\(r.stdout)")
        #expect(
            r.stderr.contains(
                "trips: record 5 of 'history' skipped: time decodes to 0 or nothing (skip.zero) — 00 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00"
            ), "\(r.stderr)")
        #expect(r.stderr.contains("trips: 14 unused record(s) of 'history' skipped (all 00 or all FF)"))
        let quiet = try Lab.cardscan(["replay", Lab.fixture("suica/corrections.apdu")])
        #expect(!quiet.stderr.contains("skipped"))
    }
}
