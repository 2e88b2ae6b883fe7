import CardProfiles
import Testing

@testable import cardscan

/// `--csv`: RFC 4180 rows of trips, one header for every report that follows.
@Suite struct TripTableTests {
    func report(_ profile: String, currency: String, number: String, trips: [Trip]) -> CardReport {
        var r = CardReport(profile: profile, name: profile, currency: currency)
        r.card = [("number", .string(number))]
        r.trips = trips
        return r
    }

    func won(_ minor: Int) -> FieldValue { .money(Money(minorUnits: minor, currency: "KRW")) }

    @Test func headerOnceAndRowsWithQuotingAndMajorUnits() {
        var table = TripTable()
        let first = report(
            "t-money", currency: "KRW", number: "1010",
            trips: [
                [
                    (
                        "time",
                        .dateTime(
                            CivilDateTime(date: CivilDate(year: 2024, month: 11, day: 5)!, secondsOfDay: 30612, utcOffsetMinutes: 540)!)
                    ), ("kind", .string("purchase")), ("amount", won(-1400)),
                    ("place", .string("Seoul, \"Stn\"")),
                ],
                [("kind", .string("top-up")), ("amount", won(10000)), ("place", .string("two\nlines"))],
            ])
        #expect(table.header(for: first) == "profile,card,time,kind,amount,currency,place,details\r\n")
        #expect(
            table.rows(for: first)
                == "t-money,1010,2024-11-05T08:30:12+09:00,purchase,-1400,KRW,\"Seoul, \"\"Stn\"\"\",\r\n"
                + "t-money,1010,,top-up,10000,KRW,\"two\nlines\",\r\n")
        // Another profile later (watch): its fields without a column go to `details`.
        let second = report(
            "shanghai-transit", currency: "CNY", number: "305419896",
            trips: [
                [
                    ("kind", .string("purchase")), ("amount", .money(Money(minorUnits: -300, currency: "CNY"))),
                    ("terminal", .string("11")), ("sequence", .int(12)),
                ]
            ])
        #expect(table.rows(for: second) == "shanghai-transit,305419896,,purchase,-3.00,CNY,,terminal=11; sequence=12\r\n")
        #expect(table.columns?.count == 8)
    }

    @Test func aReportWithoutTripsWritesOnlyTheHeader() {
        var table = TripTable()
        let empty = report("x", currency: "BHD", number: "", trips: [])
        #expect(table.header(for: empty) == "profile,card,time,kind,amount,currency,details\r\n")
        #expect(table.rows(for: empty).isEmpty)
        #expect(Money(minorUnits: -1250, currency: "BHD").decimalText == "-1.250")
        #expect(Money(minorUnits: 5, currency: "EUR").decimalText == "0.05")
    }
}
