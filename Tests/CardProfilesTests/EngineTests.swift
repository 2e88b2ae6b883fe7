import APDU
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

@Suite struct EngineTests {
    static let recordsProfile = profileYAML(
        """
        steps:
          - read-records: { sfi: 0x18, first: 1, length: 4 }
            as: log
        trips:
          from: log
          fields:
            kind: { offset: 0, length: 1, map: { 2: top-up }, default: purchase }
            amount: { offset: 1, length: 1 }
            balance: { offset: 2, length: 2 }
            change: { difference: [balance, older.balance] }
          credit-kinds: [top-up]
          skip: { zero: [amount] }
        """)

    @Test func recordsUntil6A83SkipEmptyAndDeriveAcrossRecords() throws {
        let p = try load(Self.recordsProfile)
        let r = try run(
            p,
            [
                ("00 B2 01 C4 04", "06 05 00 5A 90 00"),  // purchase 5, balance 90
                ("00 B2 02 C4 04", "00 00 00 00 90 00"),  // empty slot: skipped
                ("00 B2 03 C4 04", "02 64 00 5F 90 00"),  // top-up 100, balance 95
                ("00 B2 04 C4 04", "06 00 00 01 90 00"),  // amount 0: skipped by skip-when-zero
                ("00 B2 05 C4 04", "6A 83"),
            ])
        let report = try #require(r.report)
        #expect(r.error == nil)
        #expect(report.trips.count == 2)
        #expect(report.trips[0].map(\.0) == ["kind", "amount", "balance", "change"])
        #expect(report.trips[0].amount?.minorUnits == -5)  // charge: negative
        #expect(report.trips[0][3].1 == .int(90 - 95))  // balance − older.balance
        #expect(report.trips[1].amount?.minorUnits == 100)  // credit kind: positive
        #expect(report.trips[1].count == 3)  // oldest: no older record, no change
        #expect(report.exchanges == 5)
    }

    @Test func allRecordsFirstThenFallBack() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-records: { sfi: 0x18, first: 1, last: 2, length: 2, try-all-first: true }
                    as: log
                trips:
                  from: log
                  fields: { v: { offset: 0, length: 2 } }
                """))
        let all = try run(p, [("00 B2 01 C5 00", "00 01 00 02 00 03 90 00")])
        #expect(all.report?.trips.map { $0[0].1 } == [.int(1), .int(2)])  // capped at `last`
        let fallback = try run(p, [("00 B2 01 C5 00", "6D 00"), ("00 B2 01 C4 02", "00 07 90 00"), ("00 B2 02 C4 02", "00 08 90 00")])
        #expect(fallback.report?.trips.map { $0[0].1 } == [.int(7), .int(8)])
        #expect(fallback.report?.exchanges == 3)
    }

    @Test func anErrorStatusMidReadIsPartialAndNamesTheStep() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - command: "80 5C 00 02 04"
                    as: purse
                  - read-binary: { sfi: 0x15, length: 4 }
                    as: info
                card:
                  n: { from: info, offset: 0, length: 4 }
                balance: { from: purse, offset: 0, length: 4 }
                """))
        let r = try run(p, [("80 5C 00 02 04", "00 00 00 0A 90 00"), ("00 B0 95 00 04", "69 82")])
        #expect(r.report?.partial == true)
        #expect(r.report?.balance?.minorUnits == 10)
        guard case .stepFailed(_, let step, let line, let command, .status(let sw))? = r.error else {
            Issue.record("\(String(describing: r.error))")
            return
        }
        #expect(step == "info" && line == 7 && sw == StatusWord(0x6982) && command == "00 B0 95 00 04")
    }

    @Test func optionalStepsLeaveTheirFieldsOut() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x17, length: 2 }
                    as: extra
                    optional: true
                card:
                  x: { from: extra, offset: 0, length: 2 }
                """))
        let r = try run(p, [("00 B0 97 00 02", "6A 82")])
        #expect(r.error == nil && r.report?.card.isEmpty == true)
    }

    @Test func fieldFromATagPathAndUseIfPresent() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - select: { aid: A0 01 }
                    as: app
                  - read-binary: { sfi: 0x15, length: 2 }
                    as: info
                    use-if-present: app:6F/A5/9F0C
                card:
                  label: { from: "app:6F/50", type: ascii }
                  v: { from: info, offset: 0, length: 2 }
                """))
        let withFCI = try run(p, [("00 A4 04 00 02 A0 01 00", "6F 0B 50 02 48 49 A5 05 9F 0C 02 12 34 90 00")])
        #expect(withFCI.report?.card["label"] == .string("HI"))
        #expect(withFCI.report?.card["v"] == .int(0x1234))
        #expect(withFCI.report?.exchanges == 1)
        let without = try run(p, [("00 A4 04 00 02 A0 01 00", "6F 04 50 02 48 49 90 00"), ("00 B0 95 00 02", "56 78 90 00")])
        #expect(without.report?.card["v"] == .int(0x5678))
    }

    @Test func aFieldPastTheAnswerIsLeftOutWithAWarning() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x15, length: 30 }
                    as: info
                card:
                  number: { from: info, offset: 16, length: 4 }
                """))
        let r = try run(p, [("00 B0 95 00 1E", "00 01 02 90 00")])
        #expect(r.error == nil)
        let report = try #require(r.report)
        #expect(report.card.isEmpty && !report.partial)
        #expect(report.warnings == [ReportWarning(field: "card.number", reason: "needs bytes 16…19 but answer 'info' has 3 byte(s)")])
    }

    @Test func nonDecimalBCDIsAWarningNotAWrongDate() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x15, length: 4 }
                    as: info
                card:
                  validFrom: { from: info, offset: 0, type: bcd-date }
                """))
        let r = try run(p, [("00 B0 95 00 04", "20 1F 03 01 90 00")])
        #expect(r.error == nil && r.report?.card["validFrom"] == nil)
        #expect(r.report?.warnings.first?.field == "card.validFrom")
        #expect(r.report?.warnings.first?.reason.contains("non-decimal BCD digit F") == true)
    }

    /// The allow-list: reads pass, anything that may write is refused at load time.
    @Test(arguments: [
        "00 D6 00 00 01 00", "00 DC 01 04 01 00", "00 E2 00 00 01 00", "00 0E 00 00", "80 54 01 00 04 00 00 00 01",
        "80 50 00 02 0B 01 00 00 00 00 00 00 00 00 00 10", "00 DA 00 01 01 00", "00 24 00 01 02 31 32", "84 D6 00 00 01 00",
        "FF D6 00 04 04 01 02 03 04",
        // FeliCa Write Without Encryption in pseudo-APDUs (direct, and PN532), and a frame whose length byte lies.
        "FF 00 00 00 20 20 08 01 2E 4C D0 1A 2B 3C 4D 01 09 00 01 80 00 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41",
        "FF 00 00 00 23 D4 40 01 20 08 01 2E 4C D0 1A 2B 3C 4D 01 09 00 01 80 00 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41",
        "FF 00 00 00 0A 0C 06 01 2E 4C D0 1A 2B 3C 4D", "FF 00 00 00 02 D4 40",
        // FeliCa frames belong in felica steps, even read-only ones: a profile's ISO 7816 commands never carry them.
        "FF 00 00 00 10 10 06 01 2E 4C D0 1A 2B 3C 4D 01 8B 00 01 80 00",
        // EMV: GENERATE AC, VERIFY (a wrong PIN counts down), PIN CHANGE, EXTERNAL AUTHENTICATE,
        // COMPUTE CRYPTOGRAPHIC CHECKSUM, APPLICATION/CARD BLOCK (docs/cards/emv.md).
        "80 AE 80 00 00", "00 20 00 80 08 24 12 34 FF FF FF FF FF", "84 24 00 00 00", "00 82 00 00 00", "80 2A 8E 80 04 00 00 00 01 00",
        "84 1E 00 00 00", "84 16 00 00 00",
    ])
    func writeCommandsAreRefused(_ hex: String) {
        let yaml = profileYAML("steps:\n  - command: \"\(hex)\"\n    as: x\n")
        do {
            _ = try load(yaml)
            Issue.record("accepted \(hex)")
        } catch {
            #expect(error.issues[0].reason.hasPrefix("refused:"), "\(error.message)")
            #expect(error.issues[0].line == 5)
        }
    }

    @Test(arguments: [
        "00 C0 00 00 10", "00 CA 9F 36 02", "00 84 00 00 08", "80 5C 00 02 04", "90 32 03 00 00", "80 CA 00 00 00", "FF CA 00 00 00",
        "FF B0 00 04 10",
    ])
    func readCommandsAreAllowed(_ hex: String) throws {
        _ = try load(profileYAML("steps:\n  - command: \"\(hex)\"\n    as: x\n"))
    }

    /// A standard SELECT, READ BINARY or READ RECORD has a step of its own: one way to write it.
    @Test(arguments: [("00 A4 04 00 02 A0 00 00", "select"), ("00 B0 95 00 1E", "read-binary"), ("00 B2 01 C4 17", "read-record")])
    func standardReadsAreWrittenAsTheirSteps(_ hex: String, _ step: String) {
        #expect {
            try load(profileYAML("steps:\n  - command: \"\(hex)\"\n    as: x\n"))
        } throws: { ($0 as? ProfileLoadError)?.issues.first?.reason.contains("write it as a `\(step)` step") == true }
    }
}

/// A step that reads the current file is not sent when the SELECT before it failed: it would
/// read whatever file was current (Lisboa Viva's ID file 0003 on a card that refuses it).
@Suite struct CurrentFileTests {
    static let yaml = profileYAML(
        """
        steps:
          - select: { aid: A0000000038698070100 }
            as: app
          - read-binary: { sfi: 0x15, length: 4 }
            as: info
          - select: { fid: "0003" }
            as: id-file
            optional: true
          - read-record: { record: 1, length: 4 }
            as: id
            optional: true
        card:
          info: { from: info, type: hex }
          id: { from: id, type: hex, optional: true }
        """)

    @Test func aFailedSelectStopsTheReadOfTheCurrentFile() throws {
        let r = try run(
            try load(Self.yaml),
            [
                ("00 A4 04 00 0A A0 00 00 00 03 86 98 07 01 00 00", "6F 00 90 00"), ("00 B0 95 00 04", "01 02 03 04 90 00"),
                ("00 A4 00 00 02 00 03 00", "6A 82"),
            ])
        let report = try #require(r.report)
        #expect(report.card["info"] == .string("01020304") && report.card["id"] == nil)
        #expect(report.exchanges == 3)  // the READ RECORD of the current file was not sent
    }

    @Test func aSuccessfulSelectLetsItBeRead() throws {
        let r = try run(
            try load(Self.yaml),
            [
                ("00 A4 04 00 0A A0 00 00 00 03 86 98 07 01 00 00", "6F 00 90 00"), ("00 B0 95 00 04", "01 02 03 04 90 00"),
                ("00 A4 00 00 02 00 03 00", "90 00"), ("00 B2 01 04 04", "4A 4F 41 4F 90 00"),
            ])
        #expect(try #require(r.report).card["id"] == .string("4A4F414F"))
    }

    /// `record: N` takes a card field or the balance from one record of a records answer
    /// (the balance after the newest transaction); a missing record is a warning.
    @Test func aFieldFromOneRecordOfARecordsAnswer() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-records: { sfi: 4 }
                    as: log
                card:
                  lastCounter: { from: log, record: 2, offset: 0, length: 1, type: uint }
                  missing: { from: log, record: 5, offset: 0, length: 1, type: uint }
                balance: { from: log, record: 1, offset: 1, length: 2, type: uint }
                """))
        let r = try run(p, [("00 B2 01 24 00", "07 01 F4 90 00"), ("00 B2 02 24 00", "06 00 C8 90 00"), ("00 B2 03 24 00", "6A 83")])
        #expect(r.error == nil)
        #expect(r.report?.balance?.minorUnits == 500)
        #expect(r.report?.card["lastCounter"] == .int(6))
        #expect(r.report?.card["missing"] == nil)
        #expect(r.report?.warnings.map(\.reason) == ["answer 'log' has 2 record(s): no record 5"])
        // Without `record`, a records answer is refused for the balance, and the error says how.
        #expect {
            try load(
                profileYAML("steps:\n  - read-records: { sfi: 4 }\n    as: log\nbalance: { from: log, offset: 0, length: 2, type: uint }\n")
            )
        } throws: { ($0 as? ProfileLoadError)?.message.contains("or pick one with record: N") == true }
    }

    /// A card field of one record reads it as the trips do: reversed by the step's `endian:
    /// little` and decoded by its layout (`field`), and `record: last` takes the last.
    @Test func oneRecordIsReversedAndDecodedByItsLayout() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-records: { sfi: 4 }
                    as: log
                    endian: little
                    layout: entry
                layouts:
                  entry: [{ name: high, bits: 8 }, { name: low, bits: 8 }]
                card:
                  first: { from: log, record: 1, field: high }
                  lastLow: { from: log, record: last, field: low }
                  lastBytes: { from: log, record: last, offset: 0, length: 2, type: hex }

                """))
        let r = try run(p, [("00 B2 01 24 00", "01 02 90 00"), ("00 B2 02 24 00", "03 04 90 00"), ("00 B2 03 24 00", "6A 83")])
        // 01 02 reversed is 02 01: high 2; the last, 03 04, reversed is 04 03: low 3.
        #expect(r.report?.card["first"] == .int(2) && r.report?.card["lastLow"] == .int(3))
        #expect(r.report?.card["lastBytes"] == .string("0403") && r.report?.warnings == [])
    }

    /// `join`: record i of another records answer pairs with trip i (before unused slots are
    /// dropped), and a trip field reads it with `from`; the trips' own answer cannot be joined.
    @Test func tripsJoinASecondRecordListByPosition() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-records: { sfi: 4 }
                    as: fares
                  - read-records: { sfi: 3 }
                    as: taps
                    layout: tap
                layouts:
                  tap:
                    - { name: flags, bits: 4 }
                    - { name: place, bits: 12 }
                trips:
                  from: fares
                  join: [taps]
                  fields:
                    amount: { offset: 0, length: 1, type: uint }
                    stop: { from: taps, offset: 1, length: 1, type: uint, optional: true }
                    place: { from: taps, field: place, optional: true }
                """))
        let r = try run(
            p,
            [
                ("00 B2 01 24 00", "05 90 00"), ("00 B2 02 24 00", "FF 90 00"), ("00 B2 03 24 00", "09 90 00"), ("00 B2 04 24 00", "6A 83"),
                ("00 B2 01 1C 00", "00 0A 90 00"), ("00 B2 02 1C 00", "00 0B 90 00"), ("00 B2 03 1C 00", "00 0C 90 00"),
                ("00 B2 04 1C 00", "6A 83"),
            ])
        #expect(r.error == nil)
        // The FF slot is dropped; the third fare still pairs with the third tap (0C).
        let trips = r.report?.trips ?? []
        #expect(trips.map { $0["stop"] } == [.int(10), .int(12)])
        // Read by the joined answer's own layout: 00 0A's low 12 bits are 10, 00 0C's 12.
        #expect(trips.map { $0["place"] } == [.int(10), .int(12)])
        #expect(trips.map { $0.amount?.minorUnits } == [5, 9])
        #expect {
            try load(
                profileYAML(
                    "steps:\n  - read-records: { sfi: 4 }\n    as: fares\ntrips:\n  from: fares\n  fields:\n    x: { from: fares, offset: 0, length: 1, type: uint }\n"
                ))
        } throws: { ($0 as? ProfileLoadError)?.message.contains("may only name an answer listed in trips.join") == true }
    }

    /// `clock-shift`: counts before the moment get the shift (KMT's clock, 6 hours ahead until
    /// 2019); later ones do not. It needs a UTC `seconds` count.
    @Test func aClockShiftCorrectsCountsBeforeItsMoment() throws {
        let p = try load(
            profileYAML(
                """
                zone: Asia/Jakarta
                steps:
                  - read-binary: { sfi: 1, length: 8 }
                    as: t
                card:
                  old: { from: t, offset: 0, length: 4, type: seconds, epoch: 2000-01-01, utc: true, clock-shift: { before: "2019-01-01T00:00:00+07:00", seconds: -21600 } }
                  new: { from: t, offset: 4, length: 4, type: seconds, epoch: 2000-01-01, utc: true, clock-shift: { before: "2019-01-01T00:00:00+07:00", seconds: -21600 } }
                """))
        // 2018-12-30T01:00Z + 6 h as the card kept it; 2024-05-06T00:30Z.
        let old = 599_446_800 + 21_600, new = 768_270_600
        let bytes = withUnsafeBytes(of: UInt32(old).bigEndian, Array.init) + withUnsafeBytes(of: UInt32(new).bigEndian, Array.init)
        let r = try run(p, [("00 B0 81 00 08", bytes.map { String(format: "%02X", $0) }.joined(separator: " ") + " 90 00")])
        #expect(r.report?.card["old"]?.description == "2018-12-30T08:00:00+07:00")
        #expect(r.report?.card["new"]?.description == "2024-05-06T07:30:00+07:00")
        #expect {
            try load(
                profileYAML(
                    "zone: +07:00\nsteps:\n  - read-binary: { sfi: 1, length: 4 }\n    as: t\ncard:\n  x: { from: t, offset: 0, length: 4, type: seconds, epoch: 2000-01-01, clock-shift: { before: \"2019-01-01T00:00+07:00\", seconds: -60 } }\n"
                ))
        } throws: { ($0 as? ProfileLoadError)?.message.contains("use it with type seconds and utc: true") == true }
    }
}
