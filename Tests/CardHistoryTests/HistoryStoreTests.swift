import CardHistory
import CardReports
import Foundation
import ProfileLanguage
import Testing

/// The history in a real SQLite file: reads saved, trips merged by identity, cards found by
/// number or position, forgotten whole; values worked out by hand.
@Suite struct HistoryStoreTests {
    let path = NSTemporaryDirectory() + "cardscan-history-\(UUID().uuidString)/history.sqlite"

    /// A Shanghai-like report: balance in fen, trips `(sequence, time, amount)` newest first.
    func report(balance: Int, _ trips: [(Int, String, Int)], number: String = "305419896") -> CardReport {
        var r = CardReport(profile: "shanghai-transit", name: "Shanghai Public Transportation Card", currency: "CNY")
        r.card = [("number", .string(number))]
        r.balance = Money(minorUnits: balance, currency: "CNY")
        r.trips = trips.map { s, t, a in
            [
                ("time", .string(t)), ("kind", .string(a < 0 ? "purchase" : "top-up")),
                ("amount", .money(Money(minorUnits: a, currency: "CNY"))),
                ("sequence", .int(s)),
            ]
        }
        return r
    }

    @Test func overlappingReadsMergeIntoOneList() throws {
        let store = try HistoryStore(path: path)
        let first = try store.save(
            report(balance: 5710, [(12, "2024-03-05T08:30:15+08:00", -300), (11, "2024-03-04T19:01:44+08:00", -200)]),
            reader: "Virtual PCD 00 00")
        #expect(first == .init(card: "shanghai-transit:305419896", newTrips: 2, knownTrips: 0))
        // The log moved on: one new trip, the oldest fell off the card.
        let second = try store.save(
            report(balance: 5410, [(13, "2024-03-06T08:00:00+08:00", -300), (12, "2024-03-05T08:30:15+08:00", -300)]),
            reader: "Virtual PCD 00 00")
        #expect(second == .init(card: "shanghai-transit:305419896", newTrips: 1, knownTrips: 1))
        let card = try store.card(matching: "305419896")
        #expect(card.trips == 3 && card.reads == 2 && card.balance == Money(minorUnits: 5410, currency: "CNY"))
        #expect(try store.trips(of: card).map { $0.json.serialized() }.count == 3)
        #expect(try store.trips(of: card).compactMap(\.amount?.minorUnits) == [-300, -300, -200])
        #expect(try store.balances(of: card).compactMap(\.balance?.minorUnits) == [5710, 5410])
        #expect(try store.integrityCheck() == "ok")
    }

    /// The same time and amount with another sequence number is another trip (two rides at one
    /// gate in the same second on a card that counts them); the same sequence is the same trip.
    @Test func theCardsOwnSequenceTellsTripsApart() throws {
        let store = try HistoryStore(path: path)
        try store.save(
            report(balance: 100, [(2, "2024-03-05T08:30:15+08:00", -300), (1, "2024-03-05T08:30:15+08:00", -300)]),
            reader: "Virtual PCD 00 00")
        try store.save(report(balance: 100, [(2, "2024-03-05T08:30:15+08:00", -300)]), reader: "Virtual PCD 00 00")
        #expect(try store.cards().first?.trips == 2)
    }

    @Test func cardsAreFoundAndForgotten() throws {
        let store = try HistoryStore(path: path)
        try store.save(report(balance: 100, [], number: "305419896"), reader: "Virtual PCD 00 00")
        try store.save(report(balance: 200, [(1, "2024-01-01T00:00:00+08:00", -100)], number: "305419897"), reader: "Virtual PCD 00 00")
        #expect(try store.cards().map(\.number) == ["305419897", "305419896"])  // the one seen last first
        #expect(try store.card(matching: "2").number == "305419896")
        #expect(throws: HistoryError.self) { try store.card(matching: "3054198") }  // both
        #expect(throws: HistoryError.self) { try store.card(matching: "999") }
        let gone = try store.forget(try store.card(matching: "305419897"))
        #expect(gone.reads == 1 && gone.trips == 1)
        #expect(try store.cards().map(\.number) == ["305419896"])
    }

    /// Opening again keeps what was saved (the migrations run once); the file is its owner's.
    @Test func aReopenedHistoryKeepsItsReads() throws {
        try HistoryStore(path: path).save(report(balance: 100, [(1, "2024-01-01T00:00:00+08:00", -100)]), reader: "Virtual PCD 00 00")
        let again = try HistoryStore(path: path)
        #expect(try again.cards().first?.trips == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func notADatabaseIsSaidWithItsPath() throws {
        let file = NSTemporaryDirectory() + "cardscan-not-a-db-\(UUID().uuidString)"
        try "not SQLite".write(toFile: file, atomically: true, encoding: .utf8)
        #expect { try HistoryStore(path: file).cards() } throws: { ($0 as? HistoryFileError)?.message.hasPrefix(file + ": ") == true }
    }

    /// The page's queries: trips filtered by day and kind, at most so many; spending per month
    /// and per week (from Monday), kept as trips are added. 2024-03-04 is a Monday.
    @Test func filtersAndSpending() throws {
        let store = try HistoryStore(path: path)
        try store.save(
            report(
                balance: 1000,
                [
                    (4, "2024-03-11T09:00:00+08:00", -400), (3, "2024-03-10T09:00:00+08:00", -300),
                    (2, "2024-03-04T09:00:00+08:00", 5000), (1, "2024-02-29T09:00:00+08:00", -200),
                ]), reader: "Virtual PCD 00 00")
        let card = try store.card(matching: "305419896")
        #expect(
            try store.trips(of: card, TripFilter(from: "2024-03-04", to: "2024-03-10")).compactMap(\.amount?.minorUnits) == [-300, 5000])
        #expect(try store.trips(of: card, TripFilter(kind: "top-up")).compactMap(\.amount?.minorUnits) == [5000])
        #expect(try store.trips(of: card, TripFilter(limit: 2)).compactMap(\.amount?.minorUnits) == [-400, -300])
        let spent = try store.spending(of: card).map { "\($0.period)=\($0.amount)" }
        #expect(
            spent == [
                "week of 2024-03-11=400", "week of 2024-03-04=300", "week of 2024-02-26=200", "month 2024-03=700", "month 2024-02=200",
            ],
            "\(spent)")
        #expect(try store.kinds(of: card) == ["purchase", "top-up"])
    }
}
