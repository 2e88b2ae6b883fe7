import APDU
import CardProfiles
import CardReading
import Foundation
import MIFARECommands
import Testing

/// MIFARE Classic profiles over their recorded lab cards, each value worked out by hand in
/// docs/cards/classic.md (not by the code under test), and the language's Classic steps: a
/// sector named by a byte, an NDEF record's payload, a day-first packed date.
@Suite struct ClassicProfileTests {
    /// SmartRide, bank 1 (bit 4 of sector 0 block 1 byte 5 clear): balance D2 04 = 1234 cents;
    /// the last-transaction date 79 9C = 01111 0011 0011100: day 15, month 3, 28 + 1991 = 2019;
    /// the ride 79 E1 FE: day 15, month 3, 12 + 2007 = 2019, minute 510 = 08:30 NZDT =
    /// 2019-03-14T19:30Z = 1552591800 s, FA 00 = 250 cents; the top-up 71 E4 29: day 14, month 3,
    /// 2019, minute 1065 = 17:45 = 1552538700 s, D0 07 = 2000 cents (`TZ=Pacific/Auckland date -d
    /// "2019-03-15 08:30" +%s`).
    @Test func smartRideWorkedExample() throws {
        let r = try replayByDetection("smartride-rotorua/detected.apdu")
        #expect(r.profile == "smartride-rotorua" && r.balance?.minorUnits == 1234)
        #expect(r.card["serial"] == .string("A1B2C3D"))
        #expect(r.card["lastTransaction"] == .date(CivilDate(year: 2019, month: 3, day: 15)!))
        #expect(r.trips.map(\.instant) == [Date(timeIntervalSince1970: 1_552_591_800), Date(timeIntervalSince1970: 1_552_538_700)])
        #expect(r.trips.map { $0.amount?.minorUnits } == [-250, 2000] && r.trips.map(\.kind) == ["ride", "top-up"])
    }

    /// BUSIT with bank 5 in use (the bit set): sectors 6 and 7, NZ$50.00 (88 13); bank 1's
    /// older NZ$1.00 is not read.
    @Test func busitReadsTheBankInUse() throws {
        let r = try replayByDetection("busit/detected.apdu")
        #expect(r.profile == "busit" && r.name == "BUSIT (Waikato)" && r.balance?.minorUnits == 5000)
        #expect(r.trips.count == 2)
        let bank1 = try replayByDetection("busit/bank-1.apdu")
        #expect(bank1.balance?.minorUnits == 725 && bank1.trips.count == 2)
        let new = try replayByDetection("smartride-rotorua/no-trips.apdu")
        #expect(new.profile == "smartride-rotorua" && new.balance?.minorUnits == 500 && new.trips.isEmpty)
    }

    /// Strelka: sector 12 block 0 bytes 2–11 30 00 12 34 56 78 90 12 34 5F; the first 19 hex
    /// digits, and digits 8–18 grouped 4-4-3.
    @Test func strelkaNumbers() throws {
        let r = try replayByDetection("strelka/detected.apdu")
        #expect(r.profile == "strelka")
        #expect(r.card["number"] == .string("5678 9012 345") && r.card["longNumber"] == .string("3000123456789012345"))
    }

    /// pilet.ee: the record's `5A` "3086600012345678901" without its first 8 characters.
    @Test func tartuFromTheNDEFRecord() throws {
        let r = try replayByDetection("tartu/detected.apdu")
        #expect(r.profile == "tartu" && r.card["number"] == .string("12345678901"))
        #expect(r.card["issuerCountry"] == .string("233") && r.card["validUntil"] == .string("250831"))
        #expect(r.card["uid"] == .string("11223344"))
        // A signed card: the record lacks ME, a "Sig" record follows, the message runs into a
        // third sector.
        let signed = try replayByDetection("tartu/signed.apdu")
        #expect(signed.profile == "tartu" && signed.card["number"] == .string("12345678901") && signed.card["uid"] == .string("22334455"))
    }

    /// RFC 1321's own test values, and a salted key digest worked out with Python's hashlib
    /// (`hashlib.md5(b"podorozhnik" + bytes.fromhex("A1B2C3D4E5F6") + b"podorozhnik")`).
    @Test func keyDigests() {
        func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(ClassicKeyHash.md5([])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(hex(ClassicKeyHash.md5(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hex(ClassicKeyHash.md5([UInt8](repeating: 0x61, count: 100))) == "36a92cc94a9e0fa21f625f8bfb007adf")
        #expect(
            ClassicKeyHash.digest(key: [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], salt: "podorozhnik") == "a022e4cdf913c0b206f6b80340e71c0b")
    }

    /// Podorozhnik, recorded through pcscd with the lab's copy of the profile (the lab card's
    /// keys are random): the replay's keys are stand-ins, so the key check holds for the profile
    /// the recording names. Values worked out by hand: the UID 04 11 22 33 44 55 66 read
    /// little-endian is 28804199028494596, Luhn over 96433078 and it gives 0; 39 30 = 12345
    /// kopecks; minute 0x71C28F = 7,455,375 after 2010-01-01 00:00 +03:00 = 2024-03-05 08:15;
    /// validator 0x1943 = 6467: station 101, gate 3; 0x1964 = 6500; the top-up at minute
    /// 0x71ACF0 = 2024-03-01 12:00, 0xC350 = 50000.
    @Test func podorozhnikWorkedExample() throws {
        let t = try transcript("podorozhnik/detected.apdu")
        let r = try #require(try TranscriptReplay.run(t, file: "f", registry: builtInRegistry).result.report)
        #expect(r.profile == "podorozhnik" && r.balance?.minorUnits == 12345)
        #expect(r.card["number"] == .string("9643 3078 2880 4199 0284 9459 60"))
        #expect(r.card["metroTrips"] == .int(12) && r.card["groundTrips"] == .int(34))
        #expect(r.trips.map(\.instant) == [Date(timeIntervalSince1970: 1_709_615_700), Date(timeIntervalSince1970: 1_709_283_600)])
        #expect(r.trips.map { $0.amount?.minorUnits } == [-6500, 50000] && r.trips[0].mode == "metro")
        #expect(r.trips[0]["station"] == .int(101) && r.trips[0]["gate"] == .int(3))
        // Another recording's name: the check cannot be made, and fails.
        var other = t
        other.headers.removeAll { $0.key == "detected" }
        other.headers.append(Transcript.Header("detected", "troika"))
        #expect(try TranscriptReplay.run(other, file: "f", registry: builtInRegistry).result.report?.profile != "podorozhnik")
    }

    /// `key-md5` takes 16-byte digests and a salt, and checks no bytes.
    @Test func keyCheckIsChecked() throws {
        let base = "technology: classic\nsteps:\n  - read-sector: { sector: 4 }\n    as: s\ndetect:\n  require:\n    - "
        #expect(throws: Never.self) { try load(profileYAML(base + "{ from: s, salt: x, key-md5: [00112233445566778899AABBCCDDEEFF] }\n")) }
        for (check, reason) in [
            ("{ from: s, salt: x, key-md5: [AABB] }", "16"),
            ("{ from: s, key-md5: [00112233445566778899AABBCCDDEEFF] }", "salt"),
            ("{ from: s, salt: x, offset: 2, key-md5: [00112233445566778899AABBCCDDEEFF] }", "checks no bytes"),
            ("{ from: s, salt: x }", "'salt' goes with 'key-md5'"),
        ] {
            expectRefused(profileYAML(base + check + "\n"), because: reason)
        }
        // Only a read-sector step's answer has a key that opened it.
        let ndef = "technology: classic\nsteps:\n  - ndef-record: { type: x }\n    as: s\ndetect:\n  require:\n    - "
        expectRefused(profileYAML(ndef + "{ from: s, salt: x, key-md5: [00112233445566778899AABBCCDDEEFF] }\n"), because: "read-sector")
    }

    /// A sector named by a byte: each problem at its place.
    @Test func sectorChoiceIsChecked() throws {
        let base = """
            technology: classic
            steps:
              - read-sector: { sector: 0 }
                as: s0

            """
        #expect(throws: Never.self) {
            try load(
                profileYAML(
                    base
                        + "  - read-sector: { sector: { from: s0, offset: 21, mask: \"10\", sectors: { 0x00: 2, 0x10: 6 } } }\n    as: bank\n"
                ))
        }
        for (step, reason) in [
            ("{ sector: { from: s0, sectors: { x: 2 } } }", "a value is a byte (e.g. 0x10), not 'x'"),
            ("{ sector: { from: s0, sectors: { 0x10: 40 } } }", "40"),
            ("{ sector: { from: s0 } }", "sectors"),
            ("{ sector: { from: s9, sectors: { 0: 1 } } }", "s9"),
        ] {
            expectRefused(profileYAML(base + "  - read-sector: \(step)\n    as: bank\n"), because: reason)
        }
    }

    /// `ndef-record` is a Classic step, and needs a type.
    @Test func ndefRecordIsChecked() throws {
        let ok = "technology: classic\nsteps:\n  - ndef-record: { type: \"pilet.ee:ekaart:2\" }\n    as: card\n"
        #expect(throws: Never.self) { try load(profileYAML(ok)) }
        for (yaml, reason) in [
            ("technology: classic\nsteps:\n  - ndef-record: {}\n    as: card\n", "type"),
            ("steps:\n  - ndef-record: { type: x }\n    as: card\n", "technology: classic"),
        ] {
            expectRefused(profileYAML(yaml), because: reason)
        }
    }
}
