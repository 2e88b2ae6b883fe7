import Foundation
import LabSupport
import Testing

/// Edy, KMT and MRT Jakarta lab cards (scripts/felica-lab-images.py) read through the real
/// pcscd (vpcd, FeliCa in pseudo-APDUs) and the real libnfc (the emulated PN532), detected
/// without --profile.
@Suite struct FeliCaPursesLabTests {
    /// What each card must read to: values worked out from the image script's named values.
    static let cards: [(image: String, profile: String, expected: [String])] = [
        (
            "edy-image.json", "edy",
            [
                #""number": "1234567890ABCDEF""#, #""amount": 4150,\#n    "currency": "JPY""#,
                #""time": "2024-10-03T12:15:30+09:00""#, #""amount": -850"#, #""kind": "charge""#, #""amount": 5000"#,
                #""time": "2024-09-28T23:59:59+09:00""#, #""kind": "gift""#, #""amount": 120"#,
            ]
        ),
        (
            "kmt-image.json", "kmt",
            [
                #""number": "0195000012345678""#, #""amount": 3750000,\#n    "currency": "IDR""#, #""transactions": 17"#,
                #""time": "2024-05-06T07:30:00+07:00""#, #""amount": -300000"#, #""kind": "top-up""#, #""amount": 5000000"#,
                // Kept 6 hours ahead by the card before 2019: the clock shift takes them off.
                #""time": "2018-12-30T08:00:00+07:00""#, #""station": 261"#,
            ]
        ),
        ("mrt-jakarta-image.json", "mrt-jakarta", [#""amount": 2400000,\#n    "currency": "IDR""#, #""lastAmount": 1400000"#]),
    ]

    @Test(arguments: cards.indices, Lab.Path.allCases) func eachCard(_ i: Int, through path: Lab.Path) throws {
        let card = Self.cards[i]
        let problems = Lab.reportProblems(try Lab.readLabCard(card.image, through: path), profile: card.profile, expected: card.expected)
        #expect(problems.isEmpty, "\(card.image) through \(path): \(problems.joined(separator: "\n"))")
    }

    /// Edy beside PASMO: plain cardscan reads both purses, PASMO first (Edy is tried after the
    /// transit profiles) and Edy in `otherApplications`, each a section of the text report;
    /// `--first-match` stops at PASMO, `--profile edy` reads Edy alone; the PASMO card without
    /// Edy's services (FE00 alone, as on every Suica-family card) is never taken for Edy.
    @Test func aDualCardReadsEachPurseWithItsProfile() throws {
        try Lab.exclusive {
            let served = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-edy-image.json")
            defer { served.stop() }
            let both = try Lab.cardscan(["scan", "--json", "--timeout", "5"])
            let json = try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any]
            let others = json?["otherApplications"] as? [[String: Any]] ?? []
            #expect(json?["profile"] as? String == "suica" && json?["name"] as? String == "PASMO", "\(both.stdout)")
            #expect((json?["balance"] as? [String: Any])?["amount"] as? Int == 1234)
            #expect(others.map { $0["profile"] as? String } == ["edy"], "\(both.stdout)")
            #expect((others.first?["balance"] as? [String: Any])?["amount"] as? Int == 4150)
            #expect((others.first?["card"] as? [String: Any])?["number"] as? String == "1234567890ABCDEF")
            let text = try Lab.cardscan(["scan", "--timeout", "5"])
            let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "PASMO  (suica)" && lines.contains("Rakuten Edy  (edy)"), "\(text.stdout)")
            #expect(lines.contains("  Balance  ¥1,234") && lines.contains("  Balance  ¥4,150"), "\(text.stdout)")
            #expect(lines.last { !$0.isEmpty }?.hasPrefix("  PASMO: 3 trips, Rakuten Edy: 4 transactions, ") == true, "\(text.stdout)")
            let first = try Lab.cardscan(["scan", "--json", "--first-match", "--timeout", "5"])
            #expect(first.stdout.contains("\"name\": \"PASMO\"") && !first.stdout.contains("otherApplications"), "\(first.stdout)")
            let edy = try Lab.cardscan(["scan", "--json", "--profile", "edy", "--timeout", "5"])
            #expect(edy.status == 0, "\(edy.stderr)")
            #expect(
                edy.stdout.contains(#""amount": 4150,\#n    "currency": "JPY""#) && edy.stdout.contains(#""number": "1234567890ABCDEF""#))
        }
        try Lab.exclusive {
            let served = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { served.stop() }
            let r = try Lab.cardscan(["scan", "--json", "--profile", "edy", "--timeout", "5"])
            #expect(r.status == 76, "\(r.stdout)\(r.stderr)")
        }
    }
}
