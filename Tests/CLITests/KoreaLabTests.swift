import Foundation
import LabSupport
import Testing

/// The KS X 6924 lab cards (scripts/korea-lab-images.py) read through the real pcscd (vpcd)
/// and the real libnfc (the emulated PN532, ISO 14443-A), detected without --profile.
@Suite struct KoreaLabTests {
    /// What each card must read to: values worked out from the image script's named values.
    static let cards: [(image: String, profile: String, expected: [String], absent: [String])] = [
        (
            "t-money-image.json", "t-money",
            [
                #""amount": 12350,\#n    "currency": "KRW""#, #""number": "1010030000987654""#,
                #""validFrom": "2023-03-15""#, #""validUntil": "2028-03-14""#, #""userType": "adult""#,
                #""maxBalance": 500000"#, #""time": "2024-11-05T08:30:12+09:00""#, #""amount": -1400"#,
                #""amount": 10000"#, #""kind": "top-up""#,
            ],
            [#""sequence": 0"#]  // the unused fifth record is skipped
        ),
        (
            "cashbee-image.json", "cashbee",
            [
                #""amount": 8800,\#n    "currency": "KRW""#, #""issuer": "eB (Cashbee)""#, #""time": "2024-09-20T12:30:00+09:00""#,
                #""amount": -1500"#,
            ],
            []
        ),
        (
            "snapper-image.json", "snapper",
            [
                #""amount": 1830,\#n    "currency": "NZD""#, #""time": "2024-11-06T17:30:05+13:00""#, #""tap": "tap-off""#,
                #""time": "2024-11-04T08:01:30+13:00""#, #""amount": -350"#, #""amount": 2000"#, #""operator": "0000123456""#,
            ],
            [#""profile": "t-money""#]
        ),
    ]

    @Test(arguments: cards.indices, Lab.Path.allCases) func eachCard(_ i: Int, through path: Lab.Path) throws {
        let card = Self.cards[i]
        let problems = Lab.reportProblems(
            try Lab.readLabCard(card.image, through: path), profile: card.profile, expected: card.expected, absent: card.absent)
        #expect(problems.isEmpty, "\(card.image) through \(path): \(problems.joined(separator: "\n"))")
    }

    /// The purse's balance as the terminal prints it: won have no minor unit.
    @Test func wonArePrintedWithoutDecimals() throws {
        try Lab.exclusive {
            let served = try Lab.Card(Lab.root + "/Tests/LabCards/t-money-image.json")
            defer { served.stop() }
            let r = try Lab.cardscan(["scan", "--timeout", "5"])
            #expect(r.stdout.contains("₩12,350") && r.stdout.contains("-₩1,400") && !r.stdout.contains("KRW 123.50"), "\(r.stdout)")
        }
    }
}
