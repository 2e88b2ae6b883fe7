import APDU
import CardProfiles
import CardReading
import Foundation
import MIFARECommands
import Testing

/// MIFARE Ultralight profiles: the page reads, days counted back from a date the card keeps,
/// and the Nextfare tickets' values worked out by hand (docs/cards/nextfare-ultralight.md).
@Suite struct UltralightProfileTests {
    /// One READ per four pages from the first; a last READ of fewer ends at the last page.
    @Test func pageReadPlans() {
        #expect(UltralightPages.plan(4...15).map { [$0.start, $0.skip, $0.take] } == [[4, 0, 4], [8, 0, 4], [12, 0, 4]])
        #expect(UltralightPages.plan(4...9).map { [$0.start, $0.skip, $0.take] } == [[4, 0, 4], [6, 2, 2]])
        #expect(UltralightPages.plan(0...1).map { [$0.start, $0.skip, $0.take] } == [[0, 0, 2]])
        #expect(UltralightPages.plan(15...15).map { [$0.start, $0.skip, $0.take] } == [[12, 3, 1]])
    }

    /// docs/cards/nextfare-ultralight.md's worked Compass ticket, read by detection among every
    /// built-in profile: 4 READs, the serial from the UID (0x123456789ABC + 10^15, Luhn 1), the
    /// last valid day B = 0x32D4 (2025-06-20), the exit at 08:31 two days before it, PDT:
    /// 15:31 UTC = 1750260660 s (`date -u -d 2025-06-18T15:31:00Z +%s`).
    @Test func compassWorkedExample() throws {
        var t = try transcript("compass/detected.apdu")
        t.headers.removeAll { $0.key == "detected" }
        let outcome = try TranscriptReplay.run(t, file: "f", registry: builtInRegistry)
        let r = try #require(outcome.result.report)
        #expect(r.profile == "compass" && r.exchanges == 4 && r.balance == nil)
        #expect(r.card["serial"] == .string("0001 0200 1599 8343 8681"))
        #expect(r.card["fare"] == .string("concession") && r.card["product"] == .string("Two Zone"))
        #expect(r.card["machine"] == .int(0x1234))
        #expect(r.card["lastDay"] == .date(CivilDate(year: 2025, month: 6, day: 20)!))
        #expect(r.trips.count == 2)
        #expect(r.trips[0].instant == Date(timeIntervalSince1970: 1_750_260_660))
        #expect(r.trips[0].station == "Metrotown Station" && r.trips[1].station == "Waterfront Station")
        #expect(r.trips[0].kind == "validation" && r.trips[1].kind == "entry" && r.trips[0].mode == "train")
        // Expiry: a day before the last day, at minute 0: 2025-06-19 00:00 PDT = 07:00 UTC.
        let until = try #require(r.trips[0].first { $0.0 == "validUntil" }?.1)
        #expect(until.description == "2025-06-19T00:00:00-07:00")
    }

    /// `epoch` names a card or let value read from the card; anything else is refused at its line.
    @Test func epochFromAValueIsChecked() throws {
        let base = """
            technology: ultralight
            zone: UTC
            steps:
              - read-pages: { first: 4, count: 4 }
                as: t
            card:
              last: { from: t, offset: 0, length: 2, type: packed-date }
              number: { from: t, offset: 2, length: 2 }

            """
        #expect(throws: Never.self) {
            try load(profileYAML(base + "  back: { from: t, offset: 4, length: 1, type: days, epoch: last, direction: before }\n"))
        }
        for (field, reason) in [
            (
                "{ from: t, offset: 4, length: 1, type: days, epoch: lsat }",
                "'lsat' is not a card or let value (the date counting starts from): did you mean 'last'?"
            ),
            ("{ from: t, offset: 4, length: 1, type: days, epoch: number }", "'number' is not a date (its type is uint)"),
            (
                "{ from: t, offset: 4, length: 1, type: days, epoch: 1997-13-01 }",
                "'1997-13-01' is neither a date (YYYY-MM-DD) nor the name of a card or let value"
            ),
        ] {
            do {
                _ = try load(profileYAML(base + "  back: \(field)\n"))
                Issue.record("loaded with \(field)")
            } catch { #expect(error.issues.contains { $0.reason.hasSuffix(reason) }, "\(error.issues)") }
        }
    }
}
