import APDU
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Bit-packed records (EN 1545): the bit reader, layouts with bitmaps and repeats, and the
/// profile fields that read them.
@Suite struct BitReaderTests {
    @Test func slicesAreMSBFirstAndRightAligned() throws {
        let data: [UInt8] = [0b1011_0011, 0b0101_1100]
        #expect(try BitReader.slice(data, at: 0, count: 3, for: "x") == BitValue(bytes: [0b101], width: 3))
        #expect(try BitReader.slice(data, at: 3, count: 9, for: "x") == BitValue(bytes: [0b1, 0b0011_0101], width: 9))
        #expect(try BitReader.slice(data, at: 12, count: 4, for: "x").integer == 0b1100)
        #expect(try BitReader.slice(data, at: 0, count: 16, for: "x").bytes == data)
        #expect(BitValue(bytes: [0b101], width: 3).bits == [true, false, true])
        #expect(throws: BitReader.Failure(reason: "x needs bits 10…16 but the record has 16")) {
            try BitReader.slice(data, at: 10, count: 7, for: "x")
        }
        #expect(throws: BitReader.Failure.self) { try BitReader.slice(data, at: Int.max, count: 2, for: "x") }
        #expect(throws: BitReader.Failure.self) { try BitReader.slice(data, at: 0, count: 0, for: "x") }
    }

    /// Every prefix of a record gives values or a clean problem, never a crash; so do random bytes.
    @Test func dripFedAndRandomRecordsNeverCrash() throws {
        let layout = try #require(try load(Self.eventProfile).layouts["event"])
        let record = try Hex.parse(Self.eventRecord)
        for n in 0...record.count {
            let d = layout.decode(Array(record.prefix(n)))
            if n < 12 { #expect(d.problem != nil, "prefix \(n)") }
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = layout.decode(bytes)
        }
    }

    /// The worked example of docs/profile-format.md §Bit-packed records: an Intercode event
    /// (date 14, time 11, a 28-bit bitmap with EventCode, ServiceProvider, LocationId and
    /// ContractPointer present).
    static let eventRecord = "9B 14 FF 10 00 08 A0 88 18 61 08 40 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
    static let eventProfile = profileYAML(
        """
        zone: "+01:00"
        steps:
          - read-records: { sfi: 0x08, first: 1, last: 1, length: 29 }
            as: events
            layout: event
        layouts:
          event:
            - { name: date, bits: 14 }
            - { name: time, bits: 11 }
            - bitmap: 28
              fields:
                - { name: display, bits: 8 }
                - { name: network, bits: 24 }
                - { name: code, bits: 8 }
                - { name: result, bits: 8 }
                - { name: provider, bits: 8 }
                - { name: not-ok-counter, bits: 8 }
                - { name: serial, bits: 24 }
                - { name: destination, bits: 16 }
                - { name: location, bits: 16 }
                - { name: gate, bits: 8 }
                - { name: device, bits: 16 }
                - { name: route, bits: 16 }
                - { name: route-variant, bits: 8 }
                - { name: journey-run, bits: 16 }
                - { name: vehicle, bits: 16 }
                - { name: vehicle-class, bits: 8 }
                - { name: location-type, bits: 5 }
                - { name: employee, bits: 240 }
                - { name: location-reference, bits: 16 }
                - { name: interchanges, bits: 8 }
                - { name: period-journeys, bits: 16 }
                - { name: total-journeys, bits: 16 }
                - { name: distance, bits: 16 }
                - { name: price, bits: 16 }
                - { name: price-unit, bits: 16 }
                - { name: contract, bits: 5 }
                - { name: authenticator, bits: 16 }
                - { unused: 25 }
        trips:
          from: events
          fields:
            time: { field: [date, time], type: days, epoch: 1997-01-01 }
            code: { field: code, type: hex }
            provider: { field: provider }
            station: { field: location }
            route: { field: route }
            contract: { field: contract }
        """)

    @Test func theWorkedIntercodeEvent() throws {
        let p = try load(Self.eventProfile)
        let r = try run(p, [("00 B2 01 44 1D", Self.eventRecord + " 90 00")])
        let report = try #require(r.report)
        #expect(r.error == nil && report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.trips.count == 1)
        let trip = report.trips[0]
        #expect(trip["time"]?.description == "2024-03-05T08:30:00+01:00")
        #expect(trip["code"] == .string("11"))
        #expect(trip["provider"] == .int(3))
        #expect(trip["station"] == .int(0x0C21))
        #expect(trip["contract"] == .int(1))
        #expect(trip["route"] == nil)  // not in the bitmap: absent, no warning
        #expect(report.trips[0].map(\.0) == ["time", "code", "provider", "station", "contract"])
    }

    /// Found by an audit: a `time-field` 64 bits wide holding 0x7FFF…FFC0 trapped multiplying
    /// into seconds: as minutes, and as a packed time (its minute, the low 6 bits, is 0, under
    /// 60, so the huge hour was multiplied). It is no time of day: a warning.
    /// A packed time that wide is refused when the profile loads (a packed time is 16 bits at most).
    @Test func aTimeFieldTooLargeForSecondsIsAWarningNotATrap() throws {
        let p = try load(
            profileYAML(
                """
                zone: "+01:00"
                steps:
                  - read-records: { sfi: 0x08, first: 1, last: 1, length: 10 }
                    as: events
                    layout: wide
                layouts:
                  wide:
                    - { name: date, bits: 14 }
                    - { name: time, bits: 64 }
                    - { unused: 2 }
                trips:
                  from: events
                  fields:
                    time: { field: [date, time], type: days, epoch: 1997-01-01 }
                """))
        // The date's 14 bits, then the time: 01, 56 ones, 000000 (the last byte's top 6 bits).
        let r = try run(p, [("00 B2 01 44 0A", "26 C5 FF FF FF FF FF FF FF 03 90 00")])
        let report = try #require(r.report)
        #expect(report.warnings.map(\.field) == ["trips[0].time"], "\(report.warnings)")
        let packed = profileYAML(
            "steps: [{ read-records: { sfi: 0x08, first: 1, last: 1, length: 10 }, as: e, layout: w }]\n"
                + "layouts: { w: [{ name: date, bits: 14 }, { name: time, type: packed-time, bits: 64 }] }\n")
        #expect(throws: ProfileLoadError.self) { try load(packed) }
    }

    @Test func aRecordCutShortNamesTheFieldsItLost() throws {
        let p = try load(Self.eventProfile)
        let short = String(Self.eventRecord.prefix(3 * 9 - 1))  // 9 bytes: the location is cut
        let r = try run(p, [("00 B2 01 44 1D", short + " 90 00")])
        let report = try #require(r.report)
        #expect(report.trips.count == 1)
        #expect(report.warnings.map(\.field).sorted() == ["trips[0].contract", "trips[0].station"], "\(report.warnings)")
        #expect(report.warnings.first?.reason.contains("needs bits") == true)
    }

    @Test func fixedBitsReversedBytesSignedValuesLettersAndDates() throws {
        // 16 bytes, least significant byte first (as Opal stores them): after reversing, bits
        // 0-3 are 1010, 4-24 a signed 21-bit balance (-182), 25-44 the letters "CARD",
        // 45-58 an EN 1545 date (9925 = 2024-03-05), 59-69 a time (510 = 08:30).
        var bits = "1010" + String(String((1 << 21) - 182, radix: 2).suffix(21))
        bits += ["00011", "00001", "10010", "00100"].joined()
        bits += String(9925, radix: 2).leftPadded(14) + String(510, radix: 2).leftPadded(11)
        bits += String(repeating: "0", count: 128 - bits.count)
        let bytes = stride(from: 0, to: 128, by: 8).map { UInt8(bits.dropFirst($0).prefix(8), radix: 2)! }
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x07, length: 16 }
                    as: purse
                    endian: little
                card:
                  flags: { from: purse, bit-offset: 0, bit-length: 4 }
                  word: { from: purse, bit-offset: 25, bit-length: 20, type: letters }
                  day: { from: purse, bit-offset: 45, bit-length: 14, type: days, epoch: 1997-01-01 }
                  at: { from: purse, bit-offset: 59, bit-length: 11, type: minutes }
                balance: { from: purse, bit-offset: 4, bit-length: 21, type: int }
                """))
        let r = try run(p, [("00 B0 87 00 10", Array(bytes.reversed()).hexString + " 90 00")])
        let report = try #require(r.report)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.balance?.minorUnits == -182)
        #expect(report.card["flags"] == .int(0b1010))
        #expect(report.card["word"] == .string("CARD"))
        #expect(report.card["day"]?.description == "2024-03-05")
        #expect(report.card["at"]?.description == "08:30")
    }

    /// A counted repeat (an Intercode contract list: count, then Bitmap3{network, tariff,
    /// pointer} per entry), and a count taken from an earlier field.
    @Test func repeatsByCountBitsAndByAnEarlierField() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x1E, length: 29 }
                    as: list
                    layout: list
                layouts:
                  list:
                    - repeat: contracts
                      count-bits: 4
                      fields:
                        - bitmap: 3
                          fields:
                            - { name: network, bits: 24 }
                            - { name: tariff, bits: 16 }
                            - { name: pointer, bits: 5 }
                    - { name: n, bits: 2 }
                    - repeat: extra
                      count-from: n
                      fields: [ { name: v, bits: 3 } ]
                card:
                  count: { from: list, field: contracts.count }
                  first-tariff: { from: list, field: "contracts[0].tariff", type: hex }
                  second-pointer: { from: list, field: "contracts[1].pointer" }
                  second-network: { from: list, field: "contracts[1].network", optional: true }
                  last-extra: { from: list, field: "extra[1].v" }
                """))
        // count 2; entry 0: bitmap 110 (tariff, pointer): tariff 0x1234, pointer 3;
        // entry 1: bitmap 100 (pointer): pointer 7; n = 2; extras 5, 6.
        let bits = "0010" + "110" + "0001001000110100" + "00011" + "100" + "00111" + "10" + "101" + "110"
        let padded = bits + String(repeating: "0", count: 29 * 8 - bits.count)
        let bytes = stride(from: 0, to: padded.count, by: 8).map { UInt8(padded.dropFirst($0).prefix(8), radix: 2)! }
        let r = try run(p, [("00 B0 9E 00 1D", bytes.hexString + " 90 00")])
        let report = try #require(r.report)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.card["count"] == .int(2))
        #expect(report.card["first-tariff"] == .string("1234"))
        #expect(report.card["second-pointer"] == .int(7))
        #expect(report.card["second-network"] == nil)
        #expect(report.card["last-extra"] == .int(6))
    }

    /// What follows depends on an earlier value (MOBIB's record version): the case whose
    /// values hold it, else the default; a name may appear in several cases.
    @Test func aChoiceByAnEarlierValue() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - read-binary: { sfi: 0x07, length: 2 }
                    as: env
                    layout: env
                layouts:
                  env:
                    - { name: version, bits: 4 }
                    - choose: version
                      cases:
                        - values: [0-2, 7]
                          fields: [ { name: network, bits: 4 }, { unused: 4 } ]
                      otherwise:
                        - { unused: 4 }
                        - { name: network, bits: 4 }
                        - { name: extra, bits: 4 }
                card:
                  version: { from: env, field: version }
                  network: { from: env, field: network }
                  extra: { from: env, field: extra, optional: true }
                """))
        for (answer, version, network, extra) in [("2A 50", 2, 10, nil), ("7A 50", 7, 10, nil), ("3A 5C", 3, 5, 12)]
            as [(String, Int, Int, Int?)]
        {
            let r = try run(p, [("00 B0 87 00 02", answer + " 90 00")])
            let report = try #require(r.report)
            #expect(report.card["version"] == .int(version) && report.card["network"] == .int(network), "\(answer)")
            #expect(report.card["extra"] == extra.map { .int($0) }, "\(answer)")
        }
    }

    /// `when`: a field of a record shown only when some bits of a layout value are (or are
    /// not) among given values; a `packed-time` element joins a packed date and time.
    @Test func conditionsAndPackedDateTimes() throws {
        let p = try load(
            profileYAML(
                """
                zone: Europe/Rome
                steps:
                  - read-records: { sfi: 0x08, first: 1, last: 2, length: 4 }
                    as: log
                    layout: entry
                layouts:
                  entry:
                    - { name: kind, bits: 8 }
                    - { name: date, bits: 14 }
                    - { name: time, type: packed-time, bits: 10 }
                trips:
                  from: log
                  fields:
                    time: { field: [date, time], type: packed-date }
                    counted: { field: kind, when: { field: kind, bit-range: 4-6, not-in: 4 } }
                    pass: { field: kind, when: { field: kind, bit-range: 4-6, in: [4, 6-7] } }
                """))
        // 2024-07-15 (24 << 9 | 7 << 5 | 15 = 0x30EF) at 14:45 (packed 14 << 6 | 45, in 10 bits of 11: 0x3AD).
        func record(_ kind: UInt8) -> String {
            let bits =
                String(kind, radix: 2).leftPadded(8) + String(0x30EF, radix: 2).leftPadded(14) + String(0x3AD, radix: 2).leftPadded(10)
            return stride(from: 0, to: 32, by: 8).map { String(format: "%02X", UInt8(bits.dropFirst($0).prefix(8), radix: 2)!) }.joined(
                separator: " ")
        }
        let r = try run(p, [("00 B2 01 44 04", record(0x41) + " 90 00"), ("00 B2 02 44 04", record(0x21) + " 90 00")])
        let trips = try #require(r.report).trips
        #expect(trips.count == 2)
        #expect(trips[0]["time"]?.description == "2024-07-15T14:45:00+02:00")
        #expect(trips[0].first { $0.0 == "counted" } == nil && trips[0].first { $0.0 == "pass" }?.1 == .int(0x41))
        #expect(trips[1].first { $0.0 == "counted" }?.1 == .int(0x21) && trips[1].first { $0.0 == "pass" } == nil)
    }

    /// Detection decodes only as far as the value it tests (`until`); the whole record gives
    /// the same value.
    @Test func decodingStopsAtTheValueDetectionNeeds() throws {
        let layout = BitLayout(
            name: "env",
            elements: [
                .value(name: "version", bits: 4),
                .bitmap(bits: 2, elements: [.value(name: "network", bits: 8), .value(name: "end", bits: 4)]),
            ],
            line: 1)
        let record: [UInt8] = [0x3D, 0x5A, 0x80]  // 0011 11 01010110 1010: version 3, bitmap 11, network 0x56, end 0xA
        let early = layout.decode(record, until: "network")
        #expect(early.values["network"]?.integer == 0x56 && early.values["end"] == nil && early.problem == nil)
        #expect(layout.decode(record).values["end"]?.integer == 0xA)
        #expect(layout.decode([0x3D], until: "network").problem != nil)  // cut short before it: a problem, not a value
    }

    /// A bitmap's absent elements are told apart from values a record cut short, under the
    /// prefix of the repeat they sit in (and a nested element's names, with theirs).
    @Test func absentMeansLeftOutByABitmapNotCutShort() throws {
        let layout = BitLayout(
            name: "list",
            elements: [
                .repeated(
                    name: "c", countBits: 2, countFrom: nil,
                    elements: [
                        .bitmap(
                            bits: 2,
                            elements: [.value(name: "a", bits: 4), .sequence([.value(name: "b", bits: 2), .value(name: "d", bits: 2)])])
                    ]),
                .value(name: "z", bits: 8),
            ],
            line: 1)
        // count 2; c[0]: bitmap 01 (a), a = 1010; c[1]: bitmap 10 (b, d), b = 01, d = 01; z = 0xFF.
        let full: [UInt8] = [0b1001_1010, 0b1001_0111, 0b1111_1100]
        let whole = layout.decode(full)
        #expect(whole.problem == nil && whole.values["z"]?.integer == 0xFF && whole.values["c[1].d"]?.integer == 1)
        let cut = layout.decode(Array(full.prefix(2)))  // z is not reached
        #expect(cut.problem != nil && cut.values["z"] == nil)
        #expect(cut.isAbsent("c[0].b") && cut.isAbsent("c[0].d") && cut.isAbsent("c[1].a"))
        #expect(!cut.isAbsent("c[0].a") && !cut.isAbsent("c[1].b") && !cut.isAbsent("z"))
        #expect(!cut.isAbsent("b") && !cut.isAbsent("c[2].a") && !cut.isAbsent("c[0].bd"))
    }

    /// What can never work is refused when the profile loads, with the line.
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
