import CardReports
import Foundation
import GRDB
import ProfileLanguage

/// The cards cardscan has read, kept only when asked (`--save`): every read, and every trip
/// once across reads. SQLite through GRDB, in write-ahead-log mode (a page reading it while a
/// read is saved waits for nothing), at `$XDG_DATA_HOME/cardscan/history.sqlite`.
public final class HistoryStore: Sendable {
    /// The database file.
    public let path: String
    let pool: DatabasePool

    /// Opens (or makes) the history at `path`, its folder readable by its owner only, and
    /// brings its tables up to date.
    public init(path: String) throws(HistoryFileError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw HistoryFileError(path: path, error) }
        var config = Configuration()
        config.busyMode = .timeout(5)
        // A long-running `serve` keeps its memory flat: two reading connections, each caching
        // at most 512 KiB of the file (SQLite's default is 2 MiB a connection, GRDB's five
        // readers), so that the cache stops growing with the history after a few hundred reads.
        config.maximumReaderCount = 2
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -512") }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            chmod(path, 0o600)
            try HistorySchema.migrator.migrate(pool)
        } catch { throw HistoryFileError(path: path, error) }
    }

    /// `body` on a reading connection; a database error says which file.
    func reading<T>(_ body: (Database) throws -> T) throws(HistoryFileError) -> T {
        do { return try pool.read(body) } catch { throw HistoryFileError(path: path, error) }
    }

    /// `body` in a write transaction; a database error says which file.
    func writing<T>(_ body: (Database) throws -> T) throws(HistoryFileError) -> T {
        do { return try pool.write(body) } catch { throw HistoryFileError(path: path, error) }
    }

    /// `$XDG_DATA_HOME/cardscan/history.sqlite` (default `~/.local/share/…`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return base + "/cardscan/history.sqlite"
    }

    /// What saving a read added.
    public struct Saved: Equatable, Sendable {
        /// The card's key (``CardKey``).
        public var card: String
        /// Trips this read showed that the history did not have yet.
        public var newTrips: Int
        /// Trips this read showed that the history had already.
        public var knownTrips: Int
        /// What saving a read of card `card` added.
        public init(card: String, newTrips: Int, knownTrips: Int) {
            self.card = card
            self.newTrips = newTrips
            self.knownTrips = knownTrips
        }
    }

    /// Saves one read of a card: the read, and its trips the history does not have yet.
    @discardableResult
    public func save(_ report: CardReport, reader: String, at time: Date = Date()) throws -> Saved {
        let key = CardKey.of(report), now = HistoryTime.text(time)
        return try writing { db in
            try db.execute(
                sql: """
                    INSERT INTO card (key, profile, name, number, currency, firstSeen, lastSeen) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET name = excluded.name, lastSeen = excluded.lastSeen
                    """,
                arguments: [key, report.profile, report.name, CardKey.number(of: report), report.currency, now, now])
            let cardId = try Int64.fetchOne(db, sql: "SELECT id FROM card WHERE key = ?", arguments: [key])!
            try db.execute(
                sql: "INSERT INTO read (cardId, time, reader, profile, balance, currency, partial, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    cardId, now, reader, report.profile, report.balance?.minorUnits, report.balance?.currency, report.partial,
                    report.json.serialized(),
                ])
            let readId = db.lastInsertedRowID
            var saved = Saved(card: key, newTrips: 0, knownTrips: 0)
            for trip in report.trips {
                try db.execute(
                    sql: """
                        INSERT INTO trip (cardId, identity, time, kind, amount, currency, json, firstReadId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(cardId, identity) DO NOTHING
                        """,
                    arguments: [
                        cardId, TripIdentity.of(trip), trip.time?.description, trip.kind, trip.amount?.minorUnits,
                        trip.amount?.currency ?? report.currency, trip.json.serialized(), readId,
                    ])
                if db.changesCount > 0 {
                    saved.newTrips += 1
                    try HistorySchema.addSpending(db, card: cardId, time: trip.time?.description, amount: trip.amount?.minorUnits)
                } else {
                    saved.knownTrips += 1
                }
            }
            return saved
        }
    }

    /// Every card in the history, the one seen last first.
    public func cards() throws -> [CardSummary] {
        try summaries("ORDER BY lastSeen DESC, id DESC")
    }

    /// The card of row id `id` (``CardSummary/id``), nil when there is none.
    public func card(id: Int64) throws -> CardSummary? {
        try summaries("WHERE card.id = ?", [id]).first
    }

    /// The card of key `key` (``CardKey``, ``Saved/card``), nil when there is none.
    public func card(key: String) throws -> CardSummary? {
        try summaries("WHERE card.key = ?", [key]).first
    }

    /// Cards with their counts and last balance, as `tail` (a WHERE or ORDER BY clause) picks them.
    private func summaries(_ tail: String, _ arguments: StatementArguments = []) throws -> [CardSummary] {
        try reading { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT card.*,
                      (SELECT COUNT(*) FROM trip WHERE trip.cardId = card.id) AS trips,
                      (SELECT COUNT(*) FROM read WHERE read.cardId = card.id) AS reads,
                      (SELECT balance FROM read WHERE read.cardId = card.id AND balance IS NOT NULL ORDER BY id DESC LIMIT 1) AS balance,
                      (SELECT currency FROM read WHERE read.cardId = card.id AND balance IS NOT NULL ORDER BY id DESC LIMIT 1) AS balanceCurrency
                    FROM card \(tail)
                    """, arguments: arguments
            ).map(CardSummary.init(row:))
        }
    }

    /// The card `text` names: its key, its number, its position in ``cards()`` (1 = the first),
    /// or a part of its number or name that only it has.
    public func card(matching text: String) throws -> CardSummary {
        let all = try cards()
        if let exact = all.first(where: { $0.key == text || $0.number == text }) { return exact }
        if let n = Int(text), n >= 1, n <= all.count, !all.contains(where: { $0.number?.contains(text) == true }) { return all[n - 1] }
        let partial = all.filter { $0.number?.contains(text) == true || $0.name.localizedCaseInsensitiveContains(text) }
        guard partial.count == 1 else {
            throw HistoryError(card: text, candidates: partial.map { "\($0.name) \($0.number ?? $0.key)" })
        }
        return partial[0]
    }

    /// The card's trips, each once, newest first (a trip with no time after those with one):
    /// all of them, or those of `filter` (days `from`…`to`, a `kind`), at most `filter.limit`.
    public func trips(of card: CardSummary, _ filter: TripFilter = TripFilter()) throws -> [StoredTrip] {
        var conditions = "cardId = ?"
        var arguments: StatementArguments = [card.id]
        if let from = filter.from {
            conditions += " AND time >= ?"
            _ = arguments.append(contentsOf: [from])
        }
        if let to = filter.to {
            conditions += " AND substr(time, 1, 10) <= ?"
            _ = arguments.append(contentsOf: [to])
        }
        if let kind = filter.kind {
            conditions += " AND kind = ?"
            _ = arguments.append(contentsOf: [kind])
        }
        let limit = filter.limit.map { " LIMIT \(max(0, $0))" } ?? ""
        return try reading { db in
            // Timed trips by the (cardId, time) index, newest first; those with no time after them.
            var rows = try Row.fetchAll(
                db, sql: "SELECT * FROM trip WHERE \(conditions) AND time IS NOT NULL ORDER BY time DESC, id ASC\(limit)",
                arguments: arguments)
            if filter.from == nil, filter.to == nil, filter.limit.map({ rows.count < $0 }) ?? true {
                let rest = filter.limit.map { " LIMIT \($0 - rows.count)" } ?? ""
                rows += try Row.fetchAll(
                    db, sql: "SELECT * FROM trip WHERE \(conditions) AND time IS NULL ORDER BY id\(rest)", arguments: arguments)
            }
            return rows.map(StoredTrip.init(row:))
        }
    }

    /// The kinds of the card's trips (`purchase`, `top-up`, …), sorted.
    public func kinds(of card: CardSummary) throws -> [String] {
        try reading { db in
            // From each kind to the next by the (cardId, kind) index: as many lookups as kinds.
            try String.fetchAll(
                db,
                sql: """
                    WITH RECURSIVE k(kind) AS (
                      SELECT MIN(kind) FROM trip WHERE cardId = ?1
                      UNION ALL SELECT (SELECT MIN(kind) FROM trip WHERE cardId = ?1 AND kind > k.kind) FROM k WHERE k.kind IS NOT NULL)
                    SELECT kind FROM k WHERE kind IS NOT NULL ORDER BY kind
                    """, arguments: [card.id])
        }
    }

    /// What the card's trips spent (the sum of their charges, a positive amount) per month
    /// (`2024-03`) and per week (`week of 2024-03-04`, weeks from Monday), newest first.
    public func spending(of card: CardSummary) throws -> [(period: String, amount: Int)] {
        try reading { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT period, amount FROM spending WHERE cardId = ? ORDER BY period DESC", arguments: [card.id])
            return rows.map { ($0["period"], $0["amount"]) }
        }
    }

    /// The balance each saved read showed, oldest first.
    public func balances(of card: CardSummary) throws -> [BalancePoint] {
        try reading { db in
            try Row.fetchAll(
                db, sql: "SELECT time, balance, currency, partial FROM read WHERE cardId = ? ORDER BY id", arguments: [card.id]
            )
            .map(BalancePoint.init(row:))
        }
    }

    /// Deletes everything the history holds about `card`: the card, its reads, its trips.
    public func forget(_ card: CardSummary) throws -> (reads: Int, trips: Int) {
        try writing { db in
            let reads = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM read WHERE cardId = ?", arguments: [card.id]) ?? 0
            let trips = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trip WHERE cardId = ?", arguments: [card.id]) ?? 0
            try db.execute(sql: "DELETE FROM card WHERE id = ?", arguments: [card.id])
            return (reads, trips)
        }
    }

    /// SQLite's own check of the file (`PRAGMA integrity_check`): `ok`, or what is wrong.
    public func integrityCheck() throws -> String {
        try reading { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }
}
