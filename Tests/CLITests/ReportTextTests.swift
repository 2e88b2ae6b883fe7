import Foundation
import LabSupport
import Testing

/// The text report reads like one: values named in words (or by the profile's `label`), money
/// as money, one date-time style, a validity without `?`, the log's entries by their name.
/// Values worked out from the lab image scripts' named values (scripts/*-lab-images.py).
@Suite struct ReportTextTests {
    func replay(_ fixture: String) throws -> [String] {
        let r = try Lab.cardscan(["replay", Lab.fixture(fixture)])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// T-money's limits and balance after each trip are money (KS X 6924 keeps won, which have
    /// no minor unit); names in words, not the profile's keys.
    @Test func moneyIsMoneyAndNamesAreWords() throws {
        let lines = try replay("t-money/full-read.apdu")
        #expect(lines.contains("  Max balance        ₩500,000"), "\(lines)")
        #expect(lines.contains("  Per payment limit  ₩100,000"))
        #expect(lines.contains("  Time                        Kind       Amount  Balance after  Sequence"))
        #expect(lines.contains("  2024-11-05 08:30:12 +09:00  purchase  -₩1,400        ₩12,350         9"))
        #expect(lines.last == "  4 transactions, 8 exchanges with the card")
        #expect(!lines.joined().contains("maxBalance") && !lines.joined().contains("BalanceAfter"))
    }

    /// Navigo's card gives no start of validity: only its end is said, and a contract's
    /// unknown end is left out.
    @Test func anUnknownStartIsLeftOut() throws {
        let lines = try replay("navigo/full-read.apdu")
        #expect(lines.contains("  Valid    until 2029-12-31"), "\(lines)")
        #expect(lines.contains("  • Ticket t+  valid from 2024-03-10, tariff 5000, remaining 9, status started"))
        #expect(!lines.joined().contains("?"))
        #expect(lines.last == "  1 trip, 11 exchanges with the card")
    }

    /// HSL's transfer deadline and a contract's validity are written as the trip times are;
    /// a price is money.
    @Test func oneDateTimeStyle() throws {
        let lines = try replay("hsl/full-read.apdu")
        #expect(lines.contains("  2024-03-05 07:58:00 +02:00  2024-03-05 09:18:00 +02:00  -€2.95  value ticket"), "\(lines)")
        #expect(
            lines.contains(
                "  • value ticket  valid 2024-03-05 07:58:00 +02:00 → 2024-03-05 09:28:00 +02:00, product 250, zones ABC, price €2.95, passengers 1"
            ))
        #expect(!lines.joined().contains("T07:58"))
    }

    /// A payment card's log is payments; pounds are written with their sign, as euros are.
    @Test func aPaymentCardsLogIsPayments() throws {
        let lines = try replay("emv/visa.apdu")
        #expect(lines.contains("  PIN tries left   3") && lines.contains("  Last online ATC  62"), "\(lines)")
        #expect(lines.contains { $0.contains("-£56.40  GBP") } && lines.contains { $0.contains("-€4.50  EUR") })
        #expect(lines.last?.hasPrefix("  10 payments, ") == true)
    }

    /// A card number has one JSON type across profiles: text (Opal's, Rav-Kav's, Opus' and
    /// Lisboa Viva's decode from integers).
    @Test func aCardNumberIsAlwaysText() throws {
        let root = Lab.root + "/Tests/Fixtures"
        var checked = 0
        for dir in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(dir)")) ?? [] where f.hasSuffix(".expected.json") {
                let data = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(dir)/\(f)"))
                let card = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["card"] as? [String: Any]
                guard let number = card?["number"] else { continue }
                #expect(number is String, "\(dir)/\(f): card.number is \(type(of: number))")
                checked += 1
            }
        }
        #expect(checked > 60)
        let opal = try Lab.cardscan(["replay", "--json", Lab.fixture("opal/full-read.apdu")])
        #expect(opal.stdout.contains(#""number": "3085220123456787""#), "\(opal.stdout)")
    }
}
