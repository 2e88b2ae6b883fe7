import Foundation
import LabSupport
import Testing

/// `--save` and `cardscan history` through the real pcscd: one Shanghai card tapped three
/// times, its log moving between the taps (scripts/history-lab-transcripts.py): 14 trips once
/// each, sequence 16 down to 3, no gap; the balance ¥57.10, ¥52.10, ¥68.10.
@Suite struct HistoryLabTests {
    @Test func threeTapsMergeIntoOneTripList() throws {
        let env = ["XDG_DATA_HOME": NSTemporaryDirectory() + "cardscan-history-\(UUID().uuidString)", "LANG": "C.UTF-8"]
        for n in 1...3 {
            try Lab.exclusive {
                let card = try Lab.Card(Lab.root + "/Tests/LabCards/shanghai-tap-\(n).apdu")
                defer { card.stop() }
                let r = try Lab.cardscan(["--save", "--timeout", "5"], environment: env)
                #expect(r.status == 0, "\(r.stderr)")
                let added = ["10 new trip(s), 0 already kept", "2 new trip(s), 8 already kept", "2 new trip(s), 8 already kept"][n - 1]
                #expect(r.stderr.contains("saved in the history: \(added)"), "\(r.stderr)")
            }
        }
        let json = try Lab.cardscan(["history", "305419896", "--json"], environment: env)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let sequences = (object?["trips"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int }
        #expect(sequences == Array((3...16).reversed()), "\(json.stdout)")
        let balances = (object?["balances"] as? [[String: Any]])?.compactMap { ($0["balance"] as? [String: Any])?["amount"] as? Int }
        #expect(balances == [5710, 5210, 6810])
        let list = try Lab.cardscan(["history"], environment: env)
        #expect(list.stdout.contains("Shanghai Public Transportation Card  305419896   ¥68.10     14      3"), "\(list.stdout)")
        let chart = try Lab.cardscan(["history", "1", "--chart"], environment: env)
        #expect(chart.stdout.contains("  ▃▁█  ¥52.10 … ¥68.10 over 3 reads"), "\(chart.stdout)")
        let plain = try Lab.cardscan(["history", "1", "--chart"], environment: env.merging(["LANG": "C", "LC_ALL": "C"]) { $1 })
        #expect(!plain.stdout.contains("▁") && plain.stdout.contains("  2024-03-07 18:00:00 +08:00  purchase"), "\(plain.stdout)")
        let csv = try Lab.cardscan(["history", "1", "--csv"], environment: env)
        #expect(csv.stdout.hasPrefix("profile,card,time,kind,amount,currency,terminal,sequence,details\r\n"))
        #expect(csv.stdout.contains("shanghai-transit,305419896,2024-03-07T12:00:00+08:00,top-up,20.00,CNY,120000000005,15,\r\n"))
        let forget = try Lab.cardscan(["history", "forget", "305419896"], environment: env)
        #expect(forget.stdout == "forgot Shanghai Public Transportation Card 305419896: 3 read(s), 14 trip(s)\n", "\(forget.stdout)")
        #expect(try Lab.cardscan(["history"], environment: env).stdout.hasPrefix("The history is empty"))
    }

    /// A payment card's PAN is kept masked even when the screen showed it whole.
    @Test func aPANIsKeptMasked() throws {
        let home = NSTemporaryDirectory() + "cardscan-history-\(UUID().uuidString)"
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/emv-visa-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["--save", "--show-pan", "--timeout", "5"], environment: ["XDG_DATA_HOME": home])
            #expect(r.status == 0 && r.stdout.contains("4761739001010010"), "\(r.stdout)\(r.stderr)")
        }
        let list = try Lab.cardscan(["history", "--json"], environment: ["XDG_DATA_HOME": home])
        #expect(
            list.stdout.contains(#""number" : "476173******0010""#) || list.stdout.contains(#""number": "476173******0010""#),
            "\(list.stdout)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: home + "/cardscan/history.sqlite"))
        #expect(bytes.range(of: Data("4761739001010010".utf8)) == nil, "the whole PAN is not in the file")
    }
}
