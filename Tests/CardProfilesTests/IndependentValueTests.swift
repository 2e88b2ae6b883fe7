import APDU
import CardReading
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Values of the fixtures worked out by hand from their bytes — the profile's layout and
/// docs/cards/ for each family, not cardscan's output (the expected reports are snapshots of
/// that output: these are the check that the snapshots are right). Each comment says which
/// bytes give the value. Lab-recorded folders (Calypso, DESFire, KS X 6924, FeliCa purses,
/// EMV) are checked against their generators' named values by the *LabTests suites; what
/// those leave out is here too.
@Suite struct IndependentValueTests {
    /// A report value at `path` (`balance.amount`, `trips[3].kind`, `trips#` for a count), or
    /// nil when absent.
    static func value(_ json: JSONValue, _ path: String) -> JSONValue? {
        var node: JSONValue? = json
        for part in path.split(separator: ".") {
            var name = String(part)
            var index: Int? = nil
            if name.hasSuffix("#") {
                guard case .array(let a)? = node?[String(name.dropLast())] else { return nil }
                return .int(a.count)
            }
            if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
                index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)])
                name = String(name[..<open])
            }
            node = node?[name]
            if let index {
                guard case .array(let a)? = node, index < a.count else { return nil }
                node = a[index]
            }
        }
        return node
    }

    static let checks: [(file: String, values: [(String, JSONValue?)])] = [
        // Shanghai: record 10 (`00 01 …`) is transaction 1, so no 11th READ RECORD; record 1 starts `00 0A`.
        ("shanghai-transit/first-ten.apdu", [("exchanges", .int(13)), ("trips[9].sequence", .int(1)), ("trips[0].sequence", .int(10))]),
        // The 7th 23-byte slice of the all-records answer: type 09, amount 03 E8; balance 00 00 16 4E.
        (
            "shanghai-transit/all-records.apdu",
            [("trips[6].kind", .string("compound-purchase")), ("trips[6].amount", .int(-1000)), ("balance.amount", .int(5710))]
        ),
        // Xi'an: EF 15 bytes 16–19 `78 56 34 12`, little-endian; GET BALANCE `00 00 03 E8`.
        ("city-union/xian-full.apdu", [("card.number", .string("305419896")), ("balance.amount", .int(1000))]),
        // Both log requests answer 6A 82; the log step is optional.
        ("city-union/no-log-file.apdu", [("balance.amount", .int(0)), ("trips#", .int(0)), ("partial", .bool(false))]),
        // SFI 4 bytes 0–7 as hex; balance 00 00 27 10; record 2: type 02, 13 88, ATC 00 14, 2023-11-11 12:00:00.
        (
            "beijing-yikatong/full-read.apdu",
            [
                ("card.number", .string("1000000012345678")), ("balance.amount", .int(10000)), ("trips[1].kind", .string("top-up")),
                ("trips[1].amount", .int(5000)), ("trips[1].sequence", .int(20)), ("trips[1].time", .string("2023-11-11T12:00:00+08:00")),
            ]
        ),
        (
            "beijing-yikatong/one-trip.apdu",
            [("balance.amount", .int(100)), ("trips#", .int(1)), ("trips[0].amount", .int(-300)), ("exchanges", .int(4))]
        ),
        // EF 15 bytes 16–19 `39 30 0C 00` little-endian = 798777, digit sum 45 → check 5; terminal >> 28 = 6 (metro).
        ("shenzhen-tong/full-read.apdu", [("card.number", .string("798777(5)")), ("trips[0].mode", .string("metro"))]),
        (
            "shenzhen-tong/empty-log.apdu",
            [("card.number", .string("798777(5)")), ("balance.amount", .int(0)), ("trips#", .int(0)), ("exchanges", .int(5))]
        ),
        // SFI 0A `27 01 00 12 34`; SFI 05 bytes 16–19 / 20–23; balance 00 00 0B B8.
        (
            "wuhan-tong/full-read.apdu",
            [
                ("card.number", .string("2701001234")), ("card.validUntil", .string("2032-01-01")),
                ("card.validFrom", .string("2022-01-01")),
                ("balance.amount", .int(3000)),
            ]
        ),
        // `80 00 0B B8`: bit 31 is not part of the balance (docs/cards/china.md).
        ("wuhan-tong/top-bit-balance.apdu", [("balance.amount", .int(3000))]),
        // EF 15 bytes 10–19 less the first digit; EF 17; purse 00 00 1F 40 − overdraft 0.
        (
            "t-union/full-read.apdu",
            [
                ("card.number", .string("3104400001234567890")), ("card.province", .string("3100")), ("card.city", .string("3110")),
                ("card.cardType", .int(2)), ("balance.amount", .int(8000)),
            ]
        ),
        (
            "t-union/missing-optional-files.apdu",
            [("balance.amount", .int(50)), ("card.overdraft", nil), ("card.province", nil), ("card.cardType", nil)]
        ),
        // Purse 00 00 00 00, overdraft 00 00 01 5E: the balance is always purse − overdraft.
        ("t-union/money-owed.apdu", [("balance.amount", .int(-350)), ("card.purse", .int(0)), ("card.overdraft", .int(350))]),
        ("t-union/purse-equals-overdraft.apdu", [("balance.amount", .int(0)), ("card.purse", .int(800)), ("card.overdraft", .int(800))]),
        // SFI 15 bytes 11–15 and 44–45; balance 00 00 07 D0; the 7th READ RECORD answers 6A 83.
        (
            "lingnan-pass/full-read.apdu",
            [
                ("card.number", .string("5100123456")), ("card.version", .string("0102")), ("balance.amount", .int(2000)),
                ("trips#", .int(6)),
            ]
        ),
        (
            "lingnan-pass/all-records.apdu",
            [("trips#", .int(2)), ("trips[1].amount", .int(-200)), ("trips[1].sequence", .int(11)), ("exchanges", .int(5))]
        ),
        // READ PURSE: balance bytes 2–4, expiry 0x2C3A days after 1995-01-01; history record 1: type 30, FF FF 68, time 36 E0 E7 88.
        (
            "ezlink/full-read.apdu",
            [
                ("card.number", .string("1009123456781234")), ("balance.amount", .int(1234)), ("card.validUntil", .string("2025-12-31")),
                ("trips[0].time", .string("2024-03-05T08:30:00+08:00")), ("trips[0].kind", .string("mrt")), ("trips[0].amount", .int(-152)),
                ("trips[0].place", .string("EW12NS1")),
            ]
        ),
        (
            "ezlink/more-history.apdu",
            [
                ("trips#", .int(17)), ("trips[16].kind", .string("top-up")), ("trips[16].amount", .int(5000)),
                ("trips[16].place", .string("TOPUP")), ("balance.amount", .int(3456)),
            ]
        ),
        // CAN 111…; place `43 41 46 C9 00 52 55 45` in Latin-1, the NUL dropped; amount FF FE 3E.
        (
            "ezlink/flashpay.apdu",
            [
                ("name", .string("NETS FlashPay")), ("trips[0].place", .string("CAFÉRUE")), ("trips[0].amount", .int(-450)),
                ("trips[0].kind", .string("retail")), ("balance.amount", .int(777)),
            ]
        ),
        (
            "ezlink/negative-no-history.apdu",
            [("balance.amount", .int(-320)), ("trips#", .int(0)), ("card.number", .string("1009000011112222"))]
        ),
        // Request Service: PASMO's services exist (01 00), Suica's do not (FF FF); balances 10 and 170.
        (
            "suica/two-trips.apdu",
            [("name", .string("PASMO")), ("balance.amount", .int(10)), ("trips[0].amount", .int(-160)), ("trips[1].amount", nil)]
        ),
        (
            "suica/unknown-issuer.apdu",
            [
                ("name", .string("Suica / PASMO / ICOCA (CJRC transit)")), ("balance.amount", .int(2010)),
                ("trips[0].time", .string("2024-02-27")),
                ("trips[0].kind", .string("top-up")), ("trips[0].console", .string("ticket-machine")), ("trips[0].amount", .int(2000)),
            ]
        ),
        (
            "suica/two-issuers.apdu",
            [("name", .string("Suica / PASMO / ICOCA (CJRC transit)")), ("trips#", .int(1)), ("trips[0].amount", nil)]
        ),
        (
            "suica/removed-before-issuer.apdu",
            [
                ("partial", .bool(true)), ("name", .string("Suica / PASMO / ICOCA (CJRC transit)")), ("balance.amount", .int(10)),
                ("trips#", .int(2)),
            ]
        ),
        // Block 0 `C8 46 … 7B 80`: a vending record's time 15:28; balances 1720 and 1840.
        (
            "suica/corrections.apdu",
            [
                ("trips[0].time", .string("2024-03-08T15:28:00+09:00")), ("trips[0].amount", .int(-120)),
                ("trips[1].kind", .string("auto-charge-fare")),
                ("trips[3].amount", nil), ("name", .string("PASMO")),
            ]
        ),
        // Environment bits 13–36: network 0x250000 (Pass Pass); bits 45–58: 12052 days after 1997-01-01.
        (
            "intercode/pass-pass.apdu",
            [
                ("name", .string("Pass Pass (Hauts-de-France)")), ("card.validUntil", .string("2029-12-31")),
                ("contracts[0].counter", .int(2_359_476)),
            ]
        ),
        ("intercode/unknown-network.apdu", [("name", .string("Intercode (France, network 250777)"))]),
        // A 15-byte environment: the number (bits 98–173) is past its end; the end date (bits 42–55) is not,
        // nor the birth date (bits 66–97, all zero: an anonymous card keeps it empty, and it is named hidden all the same).
        (
            "mobib/short-environment.apdu",
            [
                ("card.number", nil), ("card.validUntil", .string("2038-02-04")), ("warnings[0].field", .string("card.number")),
                ("hidden", .array([.string("card.birthDate")])),
            ]
        ),
        ("mobib/full-read-v2.apdu", [("card.number", .string("6396531111222233334"))]),
        ("mobib/detected-v2.apdu", [("card.number", .string("6396531111222233334"))]),
        // FCI BF0C/C7 `00 00 00 00 12 34 56 78`; a 6E 00 or an empty Le-00 answer costs one retry.
        ("navigo/full-read.apdu", [("card.number", .string("0000000012345678")), ("card.validUntil", .string("2029-12-31"))]),
        ("navigo/class-94-card.apdu", [("card.number", .string("0000000012345678")), ("exchanges", .int(12))]),
        ("navigo/le-00-empty.apdu", [("card.number", .string("0000000012345678")), ("exchanges", .int(12))]),
        // File 8 bytes 1–9 as hex; file 2's first 20 bits 0x004CE.
        ("hsl-v1/full-read.apdu", [("card.number", .string("924620001234567891")), ("balance.amount", .int(1230))]),
        ("waltti/full-read.apdu", [("card.number", .string("924620001234567891")), ("balance.amount", .int(1230))]),
        // FCI B0 bytes 4–11.
        ("cashbee/full-read.apdu", [("card.number", .string("1040000000112233"))]),
        ("snapper/full-read.apdu", [("card.number", .string("0131000012345678"))]),
        // The phone wallet's Track 2 PAN (4895370012345671), masked to 6 and 4.
        ("emv/detected.apdu", [("card.pan", .string("476173******0010")), ("trips#", .int(10)), ("trips[2].amount", .int(1999))]),
        ("emv/phone-wallet.apdu", [("card.pan", .string("489537******5671")), ("card.atc", .int(3))]),
    ]

    @Test(arguments: checks.indices)
    func valuesWorkedOutByHand(_ i: Int) throws {
        let check = Self.checks[i]
        let outcome = try TranscriptReplay.run(try transcript(check.file), file: check.file, registry: builtInRegistry)
        let json = try #require(outcome.result.report).json
        for (path, expected) in check.values {
            #expect(
                Self.value(json, path) == expected,
                "\(check.file): \(path) is \(Self.value(json, path).map { $0.serialized() } ?? "absent")")
        }
    }
}
