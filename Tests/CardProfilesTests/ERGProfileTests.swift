import CardProfiles
import CardReading
import Foundation
import Testing

@testable import ProfileLanguage

/// The ERG family over its recorded lab cards (scripts/classic_cards/erg.py), each value worked
/// out by hand in docs/cards/classic.md §ERG: the newer index copy, the records it names, the
/// last balance record, days and minutes after the card's epoch counted in UTC.
@Suite struct ERGProfileTests {
    /// Manly: index versions 0x0012 (sector 1) > 0x0011, so S3B0, S3B1 are balances (the last,
    /// 0x0E42 = 3650) and S4B0–2 purse records; S3B2, named only by the stale copy, is not read.
    /// Epoch 0x0E45 = 3653 days = 2010-01-01. S4B0: day 0x765 = 1893, minute 0x424 = 1060 →
    /// 2015-03-09 17:40Z, +5000; S4B1: 2015-03-10 08:15Z, −900; S4B2: 08:20Z, −450.
    @Test func manlyFastFerry() throws {
        let r = try replayByDetection("manly-fast-ferry/detected.apdu")
        #expect(r.profile == "manly-fast-ferry" && r.balance?.minorUnits == 3650 && r.currency == "AUD")
        #expect(r.card["number"] == .string("0A1B2C3D") && r.card["cardEpoch"] == .date(CivilDate(year: 2010, month: 1, day: 1)!))
        #expect(r.trips.map(\.instant) == [1_425_975_600, 1_425_975_300, 1_425_922_800].map { Date(timeIntervalSince1970: $0) })
        #expect(r.trips.map { $0.amount?.minorUnits } == [-450, -900, 5000] && r.trips.allSatisfy { $0.mode == "ferry" })
        #expect(r.trips[2]["time"]?.description.hasSuffix("+11:00") == true)
    }

    /// Metrocard: versions 0x0040 < 0x0041, so sector 2's copy; balance 0x0802 = 2050; number
    /// 0x075BCD15 = 123456789; epoch 0x0CD8 = 3288 days = 2009-01-01; the top-up by operator 6
    /// (Metro) at 2014-02-13 16:05Z; a Red Bus trip's mark and fare at 07:50Z; Go Bus at 08:20Z.
    @Test func christchurchMetrocard() throws {
        let r = try replayByDetection("chc-metrocard/detected.apdu")
        #expect(r.profile == "chc-metrocard" && r.balance?.minorUnits == 2050 && r.card["number"] == .string("123456789"))
        #expect(
            r.trips.map(\.instant)
                == [1_392_366_000, 1_392_364_200, 1_392_364_200, 1_392_307_500].map { Date(timeIntervalSince1970: $0) })
        #expect(r.trips.map { $0["agency"]?.description } == ["Go Bus", "Red Bus", "Red Bus", "Metro"])
        #expect(r.trips.map { $0.amount?.minorUnits }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [-250, 0, 0, 2000])
        #expect(r.trips.last?.mode == "ticket-machine")
    }

    /// The generic card (agency 0ABC): equal versions (9), so the second copy; S3B1 has bytes
    /// 7–8 = 05 05 and is no balance: the last balance is S3B2's 0x05DC = 1500. S4B2 (index 04)
    /// and S5B0 (type 05) are not records; S7B1 (index byte 16) and S15B2 (index byte 41) are.
    @Test func genericERG() throws {
        let r = try replayByDetection("erg/detected.apdu")
        #expect(r.profile == "erg" && r.balance?.minorUnits == 1500 && r.currency == "XXX")
        #expect(
            r.trips.map(\.instant)
                == [1_622_655_900, 1_622_655_900, 1_622_619_000, 1_622_548_800].map { Date(timeIntervalSince1970: $0) })
        #expect(r.trips.map { $0.amount?.minorUnits }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [-300, -266, 0, 2000])
    }

    /// Without the card's keys: sector 0 opens with the transport key, so the card is known and
    /// numbered; sectors 1–15 are named locked, and nothing is made up.
    @Test func withoutKeysTheLockedSectorsAreNamed() throws {
        let r = try replayByDetection("erg/no-keys.apdu")
        #expect(r.profile == "erg" && r.card["number"] == .string("0012D687") && r.balance == nil && r.trips.isEmpty)
        #expect(r.locked == Array(1...15))
    }

    /// The language the family needs, refused where it is wrong, each problem at its place.
    @Test func itsLanguageIsChecked() throws {
        let base = "technology: classic\nsteps:\n  - read-sector: { sector: 1 }\n    as: index\n  - read-sector: "
        let good =
            base + "{ sector: 3, last: 15 }\n    as: purse\n    records: { size: 16, keep: [{ by: index, offset: 3, equals: \"14\" }] }\n"
        #expect(throws: Never.self) { try load(profileYAML(good)) }
        for (yaml, reason) in [
            (base + "{ sector: 3, last: 2 }\n    as: purse\n", "must come after"),
            (base + "{ sector: { from: index, sectors: { 0: 2 } }, last: 9 }\n    as: purse\n", "'last' reads a run"),
            (base + "{ sector: 3 }\n    as: purse\n    records: { size: 16, keep: [{ by: later, equals: \"14\" }] }\n", "later"),
            (
                base + "{ sector: 3 }\n    as: purse\n    records: { size: 16, keep: [{ offset: 1 }] }\n",
                "one of 'equals', 'one-of' or 'none-of'"
            ),
            (base + "{ sector: 3 }\n    as: purse\n    records: { size: 16, keep: [{ one-of: [\"14\", \"15 16\"] }] }\n", "one length"),
            (base + "{ sector: 3 }\n    as: purse\n    copies: { size: 24, counter: 23, length: 2 }\n", "not inside"),
        ] {
            expectRefused(profileYAML(yaml), because: reason)
        }
    }
}
