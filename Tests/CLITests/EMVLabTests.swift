import Foundation
import LabSupport
import Testing

/// EMV payment card images (scripts/emv-lab-images.py) read through the real pcscd (vpcd)
/// and the real libnfc (the emulated PN532), and what a recording of one keeps private.
@Suite struct EMVLabTests {
    /// Each lab card and what its report must hold, worked out from the generator's named
    /// values (docs/cards/emv.md), not copied from a run.
    static let cards: [(image: String, expected: [String], absent: [String])] = [
        (
            "emv-visa-image.json",
            [
                #""name": "VISA DEBIT""#, #""pan": "476173******0010""#, #""expiry": "2028-05""#, #""serviceCode": "201""#,
                #""issuerCountry": "FR""#, #""pinTriesLeft": 3"#, #""atc": 66"#, #""lastOnlineAtc": 62"#,
                #""time": "2024-11-18T08:30:15""#, #""amount": -450"#, #""merchant": "BOULANGERIE DU PONT""#,
                #""kind": "refund""#, #""amount": 1999"#, #""currency": "GBP""#, #""country": "GB""#, #""amount": -5640"#,
                #""kind": "purchase-with-cashback""#, #""time": "2024-10-30T10:10:10""#, #""card.holder""#,
            ],
            ["DUPONT", "4761739001010010"]
        ),
        (
            "emv-mastercard-image.json",
            [
                #""name": "Mastercard""#, #""pan": "541333******0434""#, #""expiry": "2027-09""#, #""serviceCode": "221""#,
                #""issuerCountry": "GB""#, #""pinTriesLeft": 2"#, #""atc": 263"#, #""trips": []"#,
            ],
            ["SMITH"]
        ),
        (
            "emv-two-applications-image.json",
            [
                #""name": "Maestro""#, #""pan": "679999*********0018""#, #""application": "Debit Mastercard""#,
                #""pan": "541333******0011""#, #""merchant": "NS STATION""#, #""merchant": "ALBERT HEIJN""#,
                #""kind": "refund""#, #""amount": 2500"#, #""applications[1].card.pan""#,
            ],
            ["EFTPOS"]
        ),
        (
            "emv-phone-wallet-image.json",
            [#""name": "VISA""#, #""pan": "489537******5671""#, #""expiry": "2027-11""#, #""atc": 3"#, #""trips": []"#],
            [#""pinTriesLeft""#]
        ),
    ]

    @Test(arguments: cards.indices, Lab.Path.allCases) func eachCard(_ i: Int, through path: Lab.Path) throws {
        let card = Self.cards[i]
        let r = try Lab.readLabCard(card.image, through: path)
        let problems = Lab.reportProblems(r, profile: "emv", expected: card.expected, absent: card.absent)
        #expect(problems.isEmpty, "\(card.image) through \(path): \(problems.joined(separator: "\n"))")
        #expect(r.stdout.contains("GET PROCESSING OPTIONS, as every payment terminal does"))
    }

    /// A recording holds no full PAN, no Track 2 secret and no name; it replays to the same
    /// report (the terminal values it sent are in its header); `--record-raw` keeps them.
    @Test func aRecordingIsPrivateAndReplays() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/emv-visa-image.json")
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "cardscan-emv-visa.apdu"
            let r = try Lab.cardscan(["scan", "--profile", "emv", "--json", "--record", file, "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for secret in ["47 61 73 90 01 01 00 10", "4761739001010010", "44 55 50 4F 4E 54", "12 34 56 78 90 12 3F"] {
                #expect(!text.contains(secret), "\(secret) in the transcript")
            }
            #expect(text.contains("5A 08 47 61 73 .. .. .. 00 10 5F 24 03 28 05 31"))
            #expect(text.range(of: #"# terminal: 9A=\d{6} 9F37=[0-9A-F]{8}\n"#, options: .regularExpression) != nil, "\(text)")
            let replay = try Lab.cardscan(["replay", "--json", file])
            #expect(replay.status == 0 && replay.stdout == r.stdout, "\(replay.stderr)")
            let full = try Lab.cardscan(["replay", "--json", "--show-pan", "--show-personal", file])
            // The hidden digits are not in the file: the PAN stays masked, and the report says why.
            #expect(full.stdout.contains(#""pan": "476173******0010""#) && !full.stdout.contains("4761730000000010"))
            #expect(full.stdout.contains("\"redacted\": [\n    \"card.pan\",\n    \"card.holder\"\n  ]"), "\(full.stdout)")

            let raw = NSTemporaryDirectory() + "cardscan-emv-visa-raw.apdu"
            let again = try Lab.cardscan([
                "scan", "--profile", "emv", "--json", "--show-pan", "--record", raw, "--record-raw", "--timeout", "5",
            ])
            #expect(again.stdout.contains(#""pan": "4761739001010010""#))
            #expect(try String(contentsOfFile: raw, encoding: .utf8).contains("47 61 73 90 01 01 00 10"))
            let trace = try Lab.cardscan(["scan", "--profile", "emv", "--trace", "--timeout", "5"])
            #expect(trace.stderr.contains("57 13 47 61 73 .. .. .. 00 10 D2 80 52 01 .."), "\(trace.stderr)")
            #expect(!trace.stderr.contains("90 01 01 00 10"))
        }
    }

    /// The phone wallet counts refusals: the read asks for the one record its AFL lists and
    /// nothing else of the file system.
    @Test func aPhoneWalletIsNotProbed() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/emv-phone-wallet-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["scan", "--profile", "emv", "--trace", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let reads = r.stderr.split(separator: "\n").filter { $0.hasPrefix("> 00 B2") }
            #expect(reads == ["> 00 B2 01 0C 00"], "\(r.stderr)")
            #expect(r.stdout.contains("7 exchanges"))
        }
    }

    /// The commands that would spend, block or authenticate are refused by `cardscan apdu`
    /// before anything is sent.
    @Test(arguments: [
        ("80 AE 80 00 00", "GENERATE APPLICATION CRYPTOGRAM"), ("00 20 00 80 08 24 12 34 FF FF FF FF FF", "VERIFY"),
        ("84 24 00 00 00", "PIN CHANGE/UNBLOCK"), ("00 82 00 00 00", "EXTERNAL AUTHENTICATE"), ("84 16 00 00 00", "CARD BLOCK"),
    ])
    func apduRefusesPaymentCommands(_ hex: String, _ name: String) throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/emv-visa-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["apdu", hex])
            #expect(r.status != 0 && r.stderr.contains(name) && r.stderr.contains("--allow-write"), "\(r.stderr)")
        }
    }
}
