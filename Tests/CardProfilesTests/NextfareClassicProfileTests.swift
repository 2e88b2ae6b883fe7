import CardProfiles
import CardReading
import Foundation
import Testing

@testable import ProfileLanguage

/// The Nextfare family on Classic over its recorded lab cards (scripts/classic_cards/nextfare.py),
/// each value worked out by hand in docs/cards/nextfare-classic.md: little-endian numbers, a sign
/// bit and a magnitude, the newer balance copy by its write counter, records by their place.
@Suite struct NextfareClassicProfileTests {
    func instants(_ r: CardReport) -> [TimeInterval] { r.trips.compactMap { $0.instant?.timeIntervalSince1970 } }

    /// UID 4E 61 BC 00 read little-endian is 12,345,678: 0160 00012345678 and its Luhn digit 8.
    /// Balance copies versions 2A, 2B: the second, 85 07 = 1925. Expiry 9F 3D: 0011110 1100 11111 =
    /// 2030-12-31. The top-up: date 0x3064 = 2024-03-04, minute 0x41A = 1050 = 17:30, D0 07 =
    /// 2000. The tap-on: 0x3065 = 2024-03-05, minute 0x1EF = 08:15, E0 81: sign set, −0x1E0 =
    /// −480, journey 0x2461 >> 5 = 291; the tap-off 08:47, +155: one trip. The type-71 sale is left out.
    @Test func genericCard() throws {
        let r = try replayByDetection("nextfare/detected.apdu")
        #expect(r.profile == "nextfare" && r.balance?.minorUnits == 1925 && r.card["number"] == .string("0160 0001 2345 6788"))
        #expect(r.card["validUntil"] == .date(CivilDate(year: 2030, month: 12, day: 31)!) && r.card["ticketClass"] == .string("2049"))
        // The tap-on and the tap-off of journey 291 and mode 5 are one trip: −480 + 155 = −325,
        // from station 0036 at 08:15 to 0040 at 08:47.
        #expect(instants(r) == [1_709_626_500, 1_709_573_400])
        #expect(r.trips.map { $0.amount?.minorUnits } == [-325, 2000])
        #expect(r.trips[0]["journey"] == .int(291) && r.trips[0]["endStation"] == .string("0040"))
        #expect(r.trips[0]["endTime"]?.description.hasPrefix("2024-03-05T08:47:00") == true && r.trips[1]["source"] == .string("automatic"))
        #expect(r.contracts.count == 1)
    }

    /// SEQ: copies versions 00 and FF; 00 is the newer (FF + 1 wraps), 3C 00 = 60 with byte 1
    /// B0's bit 7 set: −60. Class 08A5: Concession. Taps at 08:02 (−400) and 08:31 (+90) on
    /// 2024-07-01 +10:00, journey 0x7D01 >> 5 = 1000; a manual top-up of 200 at 2024-06-30 17:45.
    @Test func seqGoCard() throws {
        let r = try replayByDetection("seq-go/detected.apdu")
        #expect(r.profile == "seq-go" && r.balance?.minorUnits == -60 && r.currency == "AUD")
        #expect(r.card["number"] == .string("0160 0008 7654 3212") && r.card["ticketClass"] == .string("Concession"))
        #expect(instants(r) == [1_719_784_920, 1_719_733_500])
        #expect(r.trips.map { $0.amount?.minorUnits } == [-310, 200] && r.trips[0].mode == "train")  // −400 + 90
        #expect(r.trips[1]["source"] == .string("manual"))
    }

    /// LA TAP (block 2 starts 00 00 00 00) and Go-To (block 2 the value block): the generic
    /// card's records in their zones, each tap its own trip (they pair nothing); the Go-To card's
    /// undated type-89 record is left out.
    @Test func laAndMinneapolis() throws {
        let la = try replayByDetection("lax-tap/detected.apdu")
        #expect(la.profile == "lax-tap" && la.balance?.minorUnits == 1925 && la.card["number"] == .string("0160 0029 8676 8283"))
        #expect(instants(la).first == 1_709_657_220 && la.trips.first?.mode == "LA Metro")
        let msp = try replayByDetection("msp-goto/detected.apdu")
        #expect(msp.profile == "msp-goto" && msp.trips.count == 3 && msp.card["number"] == .string("0160 0058 5007 9810"))
    }

    /// `sign-bit` and `negative-if` read sign and magnitude, refused on what is not an integer.
    @Test func signAndMagnitude() throws {
        let base = "technology: classic\nsteps:\n  - read-sector: { sector: 1 }\n    as: s\nbalance: "
        #expect(throws: Never.self) {
            try load(profileYAML(base + "{ from: s, offset: 2, length: 2, sign-bit: 15, negative-if: { offset: 1, mask: \"80\" } }\n"))
        }
        expectRefused(
            profileYAML(base + "{ from: s, offset: 2, length: 2, type: hex, sign-bit: 15 }\n"),
            because: "'sign-bit' applies to integer types")
        expectRefused(profileYAML(base + "{ from: s, offset: 2, length: 2, negative-if: { offset: 1 } }\n"), because: "mask")
    }
}
