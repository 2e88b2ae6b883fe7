import APDU
import CardReading
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

@Suite struct FieldDecoderTests {
    func spec(_ type: FieldType, offset: Int = 0, length: Int? = nil, _ tweak: (inout FieldSpec.Layout) -> Void = { _ in }) -> FieldSpec {
        var s = FieldSpec.Layout(source: .record, line: 1)
        s.type = type
        s.offset = offset
        s.length = length
        tweak(&s)
        return FieldSpec(s)
    }
    func decode(_ s: FieldSpec, _ hex: String) throws -> FieldValue? {
        try FieldDecoder.decode(s, from: Hex.parse(hex), answer: "a")
    }
    func failure(_ s: FieldSpec, _ hex: String) -> String? {
        do {
            _ = try FieldDecoder.decode(s, from: try! Hex.parse(hex), answer: "a")
            return nil
        } catch { return error.reason }
    }

    @Test func integersBothEndiansAndSigns() throws {
        #expect(try decode(spec(.uint, length: 4), "00 00 16 4E") == .int(5710))
        #expect(try decode(spec(.uint, length: 2) { $0.littleEndian = true }, "0A 01") == .int(0x010A))
        #expect(try decode(spec(.int, length: 3), "FF FF 9C") == .int(-100))
        #expect(try decode(spec(.int, length: 3), "7F FF FF") == .int(8_388_607))
        #expect(
            failure(spec(.uint, length: 8), "FF FF FF FF FF FF FF FF")
                == "FF FF FF FF FF FF FF FF is 18446744073709551615, too large for a 64-bit signed integer")
        #expect(try decode(spec(.int, length: 8), "FF FF FF FF FF FF FF FF") == .int(-1))
        #expect(try decode(spec(.uint, length: 8), "7F FF FF FF FF FF FF FF") == .int(.max))
        #expect(try decode(spec(.uint, offset: 2, length: 1), "00 01 02") == .int(2))
    }

    @Test func bitRangesMasksScale() throws {
        #expect(try decode(spec(.int, length: 4) { $0.bitRange = 0...30 }, "80 00 16 4E") == .int(5710))
        #expect(try decode(spec(.int, length: 4) { $0.bitRange = 0...30 }, "FF FF FF 9C") == .int(-100))
        #expect(try decode(spec(.uint, length: 4) { $0.bitRange = 0...30 }, "FF FF FF 9C") == .int(0x7FFF_FF9C))
        #expect(try decode(spec(.uint, length: 6) { $0.bitRange = 28...31 }, "00 00 60 01 23 45") == .int(6))
        #expect(try decode(spec(.uint, length: 2) { $0.mask = 0x0FFF }, "AB CD") == .int(0x0BCD))
        #expect(
            try decode(
                spec(.uint, length: 1) {
                    $0.scale = 10
                    $0.add = -3500
                }, "FF") == .int(-950))
    }

    /// `divide` drops the remainder towards zero, after `× scale + add` (tenths of a cent → cents).
    @Test func divideDropsTheRemainderTowardsZero() throws {
        #expect(
            try decode(
                spec(.uint, length: 4) {
                    $0.littleEndian = true
                    $0.divide = 10
                }, "39 30 00 00") == .int(1234))  // 12345
        #expect(try decode(spec(.int, length: 2) { $0.divide = 10 }, "FF F7") == .int(0))  // −9 → 0, not −1
        #expect(try decode(spec(.int, length: 2) { $0.divide = 10 }, "FF 85") == .int(-12))  // −123
        #expect(
            try decode(
                spec(.uint, length: 1) {
                    $0.scale = 3
                    $0.add = 1
                    $0.divide = 2
                }, "05") == .int(8))  // (15+1)/2
    }

    /// Card numbers as printed: padding, prefix, suffix, Luhn digit (checked against an
    /// independent computation), groups; a UID read backwards.
    @Test func cardNumbersAsPrinted() throws {
        func text(_ t: @escaping (inout NumberText) -> Void) -> (inout FieldSpec.Layout) -> Void {
            {
                var n = NumberText()
                t(&n)
                $0.numberText = n
            }
        }
        // Myki: bytes 4…7 little-endian = 12345678 → 308425 + 8 digits + Luhn.
        let myki = spec(.uint, offset: 4, length: 4) {
            $0.littleEndian = true
            text {
                $0.digits = 8
                $0.prefix = "308425"
                $0.checkDigit = .luhn
            }(&$0)
        }
        #expect(try decode(myki, "C9 B4 04 00 4E 61 BC 00") == .string("308425123456780"))
        // Zero padding keeps a short serial's width: 42 → 00000042.
        #expect(try decode(myki, "C9 B4 04 00 2A 00 00 00")?.description.hasPrefix("30842500000042") == true)
        // Nextfare: 15 digits after 0164, Luhn over all 19, groups of four.
        let nextfare = spec(
            .uint, offset: 1, length: 6,
            text {
                $0.digits = 15
                $0.prefix = "0164"
                $0.checkDigit = .luhn
                $0.group = [4, 4, 4, 4]
            })
        #expect(try decode(nextfare, "04 11 22 33 44 55 66") == .string("0164 0188 3858 6676 5820"))
        // PRESTO: a suffix inside the Luhn digit's reach; the rest after the last group.
        let presto = spec(
            .uint, length: 4,
            text {
                $0.digits = 8
                $0.prefix = "312401"
                $0.suffix = "00"
                $0.checkDigit = .luhn
                $0.group = [6, 4, 4]
            })
        #expect(try decode(presto, "00 BC 61 4E") == .string("312401 1234 5678 005"))
        // Text values are taken as they are: hex grouped, a UID backwards.
        #expect(
            try decode(spec(.hex, length: 8, text { $0.group = [4, 4, 4, 4] }), "04 01 23 45 67 89 01 23") == .string("0401 2345 6789 0123")
        )
        #expect(try decode(spec(.hex, length: 7) { $0.littleEndian = true }, "04 11 22 33 44 55 66") == .string("66554433221104"))
        #expect(NumberText.luhnDigit(of: "7992739871") == 3)  // the usual worked example
        #expect(NumberText.luhnDigit(of: "1-001-") == NumberText.luhnDigit(of: "1001"))  // non-digits skipped
    }

    @Test func bcdNumbersAndNonDecimalNibbles() throws {
        #expect(try decode(spec(.bcd, length: 3), "12 34 56") == .int(123456))
        #expect(failure(spec(.bcd, length: 2), "12 3A")?.contains("non-decimal BCD digit A in byte 1") == true)
    }

    @Test func bcdDatesAreValidatedNotGuessed() throws {
        #expect(try decode(spec(.bcdDate, length: 4), "20 19 03 01")?.description == "2019-03-01")
        #expect(try decode(spec(.bcdDate, length: 4), "00 00 00 00") == nil)  // empty: key left out
        #expect(failure(spec(.bcdDate, length: 4), "20 1A 03 01")?.contains("non-decimal BCD digit A") == true)
        #expect(failure(spec(.bcdDate, length: 4), "20 19 02 30")?.contains("not a valid date") == true)
        #expect(failure(spec(.bcdDate, length: 4), "20 19 13 01")?.contains("not a valid date") == true)
        #expect(try decode(spec(.bcdDate, length: 4), "20 24 02 29")?.description == "2024-02-29")
    }

    @Test func bcdDateTimesCarryTheZone() throws {
        let s = spec(.bcdDateTime, length: 7) { $0.zoneMinutes = 480 }
        #expect(try decode(s, "20 17 08 30 12 56 37")?.description == "2017-08-30T12:56:37+08:00")
        #expect(failure(s, "20 17 08 30 24 00 00")?.contains("not a valid date and time") == true)
        #expect(
            try decode(spec(.bcdDateTime, length: 7) { $0.zoneMinutes = -330 }, "20 17 08 30 12 56 37")?
                .description == "2017-08-30T12:56:37-05:30")
    }

    @Test func epochCounts() throws {
        let days = spec(.days, length: 2) { $0.epoch = CivilDate(year: 1995, month: 1, day: 1) }
        #expect(try decode(days, "2C 3A")?.description == "2025-12-31")  // 11322 days
        #expect(try decode(days, "00 00")?.description == "1995-01-01")
        let secs = spec(.seconds, length: 4) {
            $0.epoch = CivilDate(year: 1995, month: 1, day: 1)
            $0.zoneMinutes = 480
        }
        #expect(try decode(secs, "00 00 00 00")?.description == "1995-01-01T00:00:00+08:00")
        #expect(try decode(secs, "00 01 51 80")?.description == "1995-01-02T00:00:00+08:00")  // 86400 s
        #expect(try decode(secs, "37 EF 1A 38")?.description == "2024-09-26T07:18:16+08:00")
    }

    /// `utc: true`: the count is a moment (Rav-Kav's 30-bit date-time), shown in the zone's
    /// offset at that moment, the local day carried when the offset crosses midnight.
    @Test func secondsCountedInUTCAreShownInTheZone() throws {
        let utc = spec(.seconds, length: 4) {
            $0.epoch = CivilDate(year: 1997, month: 1, day: 1)
            $0.utc = true
            $0.timeZone = TimeZone(identifier: "Asia/Jerusalem")
        }
        #expect(try decode(utc, "33 B8 D5 20")?.description == "2024-07-01T13:00:00+03:00")  // 10:00 UTC, summer time
        #expect(try decode(utc, "32 DC 08 ED")?.description == "2024-01-16T00:30:05+02:00")  // 22:30:05 UTC the day before
        let local = spec(.seconds, length: 4) {
            $0.epoch = CivilDate(year: 1997, month: 1, day: 1)
            $0.timeZone = TimeZone(identifier: "Asia/Jerusalem")
        }
        #expect(try decode(local, "33 B8 D5 20")?.description == "2024-07-01T10:00:00+03:00")  // the same count, read as local time
        // Clipper: seconds since 1900-01-01 00:00 UTC. 0xDE440000 = 3,728,998,400 s =
        // 2018-03-02 16:53:20 UTC (Unix 1,520,009,600 + 2,208,988,800), 08:53:20 in Pacific time.
        let clipper = spec(.seconds, length: 4) {
            $0.epoch = CivilDate(year: 1900, month: 1, day: 1)
            $0.utc = true
            $0.timeZone = TimeZone(identifier: "America/Los_Angeles")
        }
        #expect(try decode(clipper, "DE 44 00 00")?.description == "2018-03-02T08:53:20-08:00")
    }

    /// Venezia Unica's times: an hour in 5 bits, a minute in 6; Lisboa Viva's Latin-1 name.
    @Test func packedTimesAndLatin1Text() throws {
        #expect(try decode(spec(.packedTime, length: 2), "03 AD")?.description == "14:45")  // 14 << 6 | 45
        #expect(failure(spec(.packedTime, length: 2), "03 BF")?.contains("not a packed time") == true)  // minute 63
        #expect(failure(spec(.packedTime, length: 2), "06 00")?.contains("not a packed time") == true)  // hour 24
        #expect(try decode(spec(.latin1, length: 12), "4A 4F C3 4F 00 53 49 4C 56 41 20 20") == .string("JOÃOSILVA"))
        #expect(try decode(spec(.latin1, length: 6), "4D 41 52 CD 41 FF") == .string("MARÍA"))
        #expect(failure(spec(.latin1, length: 3), "41 0A 42")?.contains("not ISO 8859-1 text") == true)
        #expect(failure(spec(.latin1, length: 2), "41 85")?.contains("not ISO 8859-1 text") == true)
    }

    @Test func packedSuicaDate() throws {
        // 2011-03-12: year 11 (7 bits), month 3 (4 bits), day 12 (5 bits) = 0x166C.
        #expect(try decode(spec(.packedDate, length: 2), "16 6C")?.description == "2011-03-12")
        #expect(try decode(spec(.packedDate, length: 2), "00 00") == nil)
        #expect(failure(spec(.packedDate, length: 2), "16 60")?.contains("not a valid packed date") == true)  // day 0
    }

    @Test func textTypes() throws {
        #expect(try decode(spec(.hex, length: 4), "00 12 AB CD") == .string("0012ABCD"))
        #expect(try decode(spec(.hex, length: 4) { $0.dropDigits = 1 }, "00 12 AB CD") == .string("012ABCD"))
        #expect(try decode(spec(.hex, length: 4) { $0.stripZeros = true }, "00 12 AB CD") == .string("12ABCD"))
        #expect(try decode(spec(.hex, length: 2) { $0.stripZeros = true }, "00 00") == .string("0"))
        #expect(try decode(spec(.ascii, length: 8), "45 57 31 32 20 20 00 00") == .string("EW12"))
        #expect(failure(spec(.ascii, length: 2), "41 07")?.contains("not printable ASCII") == true)
    }

    @Test func lookupTablesAndCheckDigits() throws {
        let kind = spec(.uint, length: 1) {
            $0.map = [2: "top-up", 6: "purchase"]
            $0.mapDefault = "other"
        }
        #expect(try decode(kind, "02") == .string("top-up"))
        #expect(try decode(kind, "07") == .string("other"))
        #expect(try decode(spec(.uint, length: 1) { $0.map = [2: "top-up"] }, "07") == .string("unknown-07"))
        #expect(
            try decode(
                spec(.uint, length: 4) {
                    $0.littleEndian = true
                    $0.numberText = {
                        var t = NumberText()
                        t.checkDigit = .digitSum10
                        return t
                    }()
                }, "39 30 0C 00") == .string("798777(5)"))
        #expect(try decode(spec(.uint, length: 4) { $0.decimalText = true }, "00 00 00 07") == .string("7"))
    }

    @Test func fieldPastTheEndNamesTheAnswer() {
        #expect(failure(spec(.uint, offset: 2, length: 4), "00 01 02") == "needs bytes 2…5 but answer 'a' has 3 byte(s)")
        #expect(failure(spec(.bcdDate, offset: 0, length: 4), "20 19") != nil)
    }

    /// Drip-fed answers: every strict prefix of a record gives a clean error, never a crash.
    @Test func dripFedRecordsGiveCleanErrors() throws {
        let record = try Hex.parse("00 02 00 00 00 00 00 03 E8 05 00 00 00 00 00 24 20 17 08 30 12 56 37")
        let fields: [FieldSpec] = [
            spec(.uint, offset: 0, length: 2), spec(.uint, offset: 5, length: 4),
            spec(.bcdDateTime, offset: 16, length: 7) { $0.zoneMinutes = 480 }, spec(.hex, offset: 10, length: 6),
        ]
        for f in fields {
            #expect(try FieldDecoder.decode(f, from: record, answer: "r") != nil)
            for n in 0..<(f.offset + f.length!) {
                #expect(throws: FieldDecoder.Failure.self) { try FieldDecoder.decode(f, from: Array(record.prefix(n)), answer: "r") }
            }
        }
    }
}

/// Card and profile numbers at their extremes: every field type gets all-00, all-FF and other
/// edge bytes, at every length it allows, with extreme scale and add. A field may fail (a
/// warning in the report), never trap.
@Suite struct FieldExtremesTests {
    static let fills: [UInt8] = [0x00, 0xFF, 0x99, 0x7F, 0x80, 0x01]
    static let scales = [1, -1, 100_000, Int.max, Int.min]
    static let adds = [0, Int.max, Int.min]

    @Test(arguments: FieldType.allCases)
    func extremeBytesAndNumbersNeverTrap(_ type: FieldType) {
        let lengths =
            type.fixedLength.map { [$0] }
            ?? (type == .hex || type == .ascii ? [1, 8, 64, 4096] : [1, 2, 4, 7, 8] + (type == .bcd ? [9] : []))
        var decoded = 0, failed = 0
        for length in lengths {
            for fill in Self.fills {
                let bytes = [UInt8](repeating: fill, count: length)
                for scale in (type.isInteger ? Self.scales : [1]) {
                    for add in (type.isInteger ? Self.adds : [0]) {
                        var s = FieldSpec.Layout(source: .record, line: 1)
                        s.type = type
                        s.length = length
                        s.scale = scale
                        s.add = add
                        s.epoch = CivilDate(year: 1970, month: 1, day: 1)
                        s.zoneMinutes = 14 * 60
                        if type == .bcd || type == .uint { s.map = nil }
                        do {
                            _ = try FieldDecoder.decode(FieldSpec(s), from: bytes, answer: "a")
                            decoded += 1
                        } catch { failed += 1 }
                    }
                }
            }
        }
        #expect(decoded + failed > 0)
    }

    @Test func overflowsAreNamedNotTrapped() throws {
        var s = FieldSpec.Layout(source: .record, line: 1)
        s.type = .uint
        s.length = 8
        s.scale = 1_000_000
        let big = try Hex.parse("00 00 16 4E 00 00 00 0A")  // the Shanghai purse read as 8 bytes
        do {
            _ = try FieldDecoder.decode(FieldSpec(s), from: big, answer: "a")
            Issue.record("decoded")
        } catch {
            #expect(error.reason == "24524263260170 × scale 1000000 + add 0 does not fit a 64-bit signed integer")
        }
        s.type = .days
        s.scale = 1
        s.epoch = CivilDate(year: 1970, month: 1, day: 1)
        do {
            _ = try FieldDecoder.decode(FieldSpec(s), from: [0x7F] + [UInt8](repeating: 0xFF, count: 7), answer: "a")
            Issue.record("decoded")
        } catch {
            #expect(error.reason.hasSuffix("is past the year 9999"))
        }
        s.type = .seconds
        s.zoneMinutes = 0
        do {
            _ = try FieldDecoder.decode(FieldSpec(s), from: [0x7F] + [UInt8](repeating: 0xFF, count: 7), answer: "a")
            Issue.record("decoded")
        } catch {
            #expect(error.reason.hasSuffix("is past the year 9999"))
        }
        s.type = .int
        #expect(try FieldDecoder.decode(FieldSpec(s), from: [0x80] + [UInt8](repeating: 0, count: 7), answer: "a") == .int(.min))
    }

    /// The profile of the CardReading issue: Shanghai's balance read as 8 bytes × 100000.
    @Test func theOverflowingShanghaiProfileReadsWithAWarning() throws {
        // Shanghai's profile with a balance of its own (its parent, city-union, gives the usual one).
        let yaml =
            try String(contentsOfFile: packageRoot + "/profiles/shanghai-transit.yaml", encoding: .utf8)
            + "\nbalance: { from: app, offset: 2, length: 8, type: uint, scale: 100000 }\n"
        let p = try ProfileLoader.load(yaml: yaml, file: "big.yaml")
        let t = try transcript("shanghai-transit/full-read.apdu")
        let (connection, _) = try TranscriptReplay.connection(t, file: "full-read.apdu")
        let read = CardReader(registry: builtInRegistry, profile: p).read(connection)
        let report = try #require(read.report)
        #expect(read.error == nil && report.balance == nil && report.trips.count == 10)
        #expect(report.warnings.count == 1 && report.warnings[0].field == "balance")
        #expect(report.warnings[0].reason.contains("too large for a 64-bit signed integer"))
    }

    /// Found by the fuzzer (target field-decoder): a packed date's year base plus its 7-bit
    /// year overflowed. The loader keeps year-base in 1900…2100; the decoder copes anyway.
    @Test func aPackedDateYearThatOverflowsIsAFailure() {
        var s = FieldSpec.Layout(source: .record, line: 1)
        s.type = .packedDate
        s.length = 2
        s.yearBase = Int.max - 100
        #expect(throws: FieldDecoder.Failure.self) { try FieldDecoder.decode(FieldSpec(s), from: [0xFF, 0xF7], answer: "a") }
    }

    /// Found by the fuzzer (target field-decoder): sign-extending a 63-bit `int` (`bit-range: 0-62`)
    /// subtracted 2^63 and overflowed.
    @Test func a63BitSignedFieldSignExtends() throws {
        var s = FieldSpec.Layout(source: .record, line: 1)
        s.type = .int
        s.length = 8
        s.bitRange = 0...62
        #expect(try FieldDecoder.decode(FieldSpec(s), from: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], answer: "a") == .int(-1))
        #expect(try FieldDecoder.decode(FieldSpec(s), from: [0x40, 0, 0, 0, 0, 0, 0, 0], answer: "a") == .int(-(1 << 62)))
        #expect(
            try FieldDecoder.decode(FieldSpec(s), from: [0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], answer: "a")
                == .int((1 << 62) - 1))
    }

    @Test func aBCDNumberLongerThanAnIntegerHoldsIsRefusedAtLoad() {
        #expect(throws: ProfileLoadError.self) {
            try load(profileYAML("steps:\n  - command: \"80 5C 00 02 04\"\n    as: p\ncard:\n  n: { from: p, length: 10, type: bcd }\n"))
        }
    }
}
