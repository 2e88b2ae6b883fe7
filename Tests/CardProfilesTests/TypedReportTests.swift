import APDU
import CardReading
import Foundation
import Testing

@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage

/// The report as a Swift program sees it: typed values whose text is the JSON report's, and
/// trips ordered by when they happened, not by how their time is written.
@Suite struct TypedReportTests {
    func at(_ y: Int, _ mo: Int, _ d: Int, _ s: Int?, offset: Int? = nil) -> FieldValue {
        let date = CivilDate(year: y, month: mo, day: d)!
        guard let s else { return .date(date) }
        return .dateTime(CivilDateTime(date: date, secondsOfDay: s, utcOffsetMinutes: offset)!)
    }

    @Test func valuesAreWrittenAsTheJSONReportWritesThem() {
        #expect(at(2024, 3, 5, 30615, offset: 480).description == "2024-03-05T08:30:15+08:00")
        #expect(at(2017, 8, 30, 45397, offset: -330).description == "2017-08-30T12:36:37-05:30")
        #expect(at(2024, 3, 5, 0).description == "2024-03-05T00:00:00")  // a terminal's local time
        #expect(at(2024, 2, 29, nil).description == "2024-02-29")
        #expect(FieldValue.time(TimeOfDay(hour: 14, minute: 45)!).description == "14:45")
        #expect(FieldValue.time(TimeOfDay(secondsOfDay: 86399)!).description == "23:59:59")
        #expect(TimeOfDay(secondsOfDay: 86400) == nil && TimeOfDay(hour: 24, minute: 0) == nil)
        let fare = FieldValue.money(Money(minorUnits: -300, currency: "CNY"))
        #expect(fare.description == "-300" && fare.json == .int(-300) && fare.intValue == -300)
        #expect(at(2024, 3, 5, nil).json == .string("2024-03-05"))
        // 2024-03-05T08:30:15+08:00 is 00:30:15 UTC: 1709598615 (date -u -d 2024-03-05T00:30:15Z +%s).
        if case .dateTime(let t) = at(2024, 3, 5, 30615, offset: 480) { #expect(t.unixSeconds == 1_709_598_615) }
    }

    @Test func tripsAreOrderedByTheirMomentAcrossASummerTimeChange() {
        // Paris, 27 October 2024: 02:30 summer time (00:30 UTC) came before 02:10 winter time (01:10 UTC).
        let summer: Trip = [("time", at(2024, 10, 27, 2 * 3600 + 30 * 60, offset: 120)), ("station", .string("A"))]
        let winter: Trip = [("time", at(2024, 10, 27, 2 * 3600 + 10 * 60, offset: 60)), ("station", .string("B"))]
        let ordered = TripOrder.newestFirst([summer, winter]) { $0.time }
        #expect(ordered.map(\.station) == ["B", "A"])
    }

    @Test func aDateAloneComesBeforeAnyTimeThatDayAndNoTimeComesLast() {
        let noon: Trip = [("time", at(2024, 3, 5, 43200)), ("kind", .string("noon"))]
        let day: Trip = [("time", at(2024, 3, 5, nil)), ("kind", .string("day"))]
        let none: Trip = [("kind", .string("none"))]
        let first: Trip = [("time", at(2024, 3, 5, nil)), ("kind", .string("day, read later"))]
        let ordered = TripOrder.newestFirst([none, day, noon, first]) { $0.time }
        #expect(ordered.map(\.kind) == ["noon", "day", "day, read later", "none"])
    }

    @Test func aPaymentCardsEntriesKeepTheirOwnCurrency() throws {
        let r = try #require(
            try TranscriptReplay.run(try transcript("emv/visa.apdu"), file: "visa.apdu", registry: builtInRegistry).result.report)
        #expect(r.currency == "XXX" && r.balance == nil)
        #expect(r.trips.first?.amount == Money(minorUnits: -450, currency: "EUR"))  // visa.expected.json: -450, EUR
        #expect(r.trips.first?.instant == nil)  // the terminal's local time: no offset, no moment
    }
}
