import GRDB

/// The history database's tables, made and changed by migrations (GRDB's `DatabaseMigrator`):
/// a database written by an older cardscan is brought up to date when it is opened.
///
/// - `card`: one row per card seen, by ``CardKey``.
/// - `read`: one row per saved read: when, which reader, which profile, the balance, the report.
/// - `trip`: each trip once, by its ``TripIdentity``, with the read that first saw it.
/// - `spending`: what each card's trips spent per month and per week (v2).
enum HistorySchema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE card (
                      id INTEGER PRIMARY KEY,
                      key TEXT NOT NULL UNIQUE,
                      profile TEXT NOT NULL,
                      name TEXT NOT NULL,
                      number TEXT,
                      currency TEXT NOT NULL,
                      firstSeen TEXT NOT NULL,
                      lastSeen TEXT NOT NULL
                    );
                    CREATE TABLE read (
                      id INTEGER PRIMARY KEY,
                      cardId INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
                      time TEXT NOT NULL,
                      reader TEXT NOT NULL,
                      profile TEXT NOT NULL,
                      balance INTEGER,
                      currency TEXT,
                      partial INTEGER NOT NULL,
                      report TEXT NOT NULL
                    );
                    CREATE INDEX readByCard ON read(cardId, time);
                    CREATE TABLE trip (
                      id INTEGER PRIMARY KEY,
                      cardId INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
                      identity TEXT NOT NULL,
                      time TEXT,
                      kind TEXT,
                      amount INTEGER,
                      currency TEXT,
                      json TEXT NOT NULL,
                      firstReadId INTEGER NOT NULL REFERENCES read(id) ON DELETE CASCADE,
                      UNIQUE (cardId, identity)
                    );
                    CREATE INDEX tripByCard ON trip(cardId, time);
                    """)
        }
        // What each card's trips spent, per month and per week, kept as trips are added: the
        // page asks for it on every look at a card, and summing 100,000 trips each time is slow.
        m.registerMigration("v2-spending") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spending (
                      cardId INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
                      period TEXT NOT NULL,
                      amount INTEGER NOT NULL,
                      PRIMARY KEY (cardId, period)
                    );
                    INSERT INTO spending (cardId, period, amount)
                      SELECT cardId, 'month ' || substr(time, 1, 7), -SUM(amount) FROM trip
                      WHERE amount < 0 AND time IS NOT NULL GROUP BY cardId, substr(time, 1, 7);
                    INSERT INTO spending (cardId, period, amount)
                      SELECT cardId, 'week of ' || date(substr(time, 1, 10), 'weekday 0', '-6 days'), -SUM(amount) FROM trip
                      WHERE amount < 0 AND time IS NOT NULL GROUP BY cardId, date(substr(time, 1, 10), 'weekday 0', '-6 days');
                    """)
        }
        // The kinds of a card's trips, for the page's filter: an index that the query walks
        // from one kind to the next (a few lookups, not 100,000 rows).
        m.registerMigration("v3-kinds") { db in
            try db.execute(sql: "CREATE INDEX tripKinds ON trip(cardId, kind)")
        }
        return m
    }

    /// Adds a new trip's charge to its card's month and week (``migrator``'s `spending`).
    static func addSpending(_ db: Database, card: Int64, time: String?, amount: Int?) throws {
        guard let time, let amount, amount < 0, time.count >= 10 else { return }
        try db.execute(
            sql: """
                INSERT INTO spending (cardId, period, amount) VALUES (?, 'month ' || substr(?, 1, 7), ?), (?, 'week of ' || date(substr(?, 1, 10), 'weekday 0', '-6 days'), ?)
                ON CONFLICT(cardId, period) DO UPDATE SET amount = amount + excluded.amount
                """, arguments: [card, time, -amount, card, time, -amount])
    }
}
