import GRDB

/// The history database's tables, made and changed by migrations (GRDB's `DatabaseMigrator`):
/// a database written by an older cardscan is brought up to date when it is opened.
///
/// - `card`: one row per card seen, by ``CardKey``.
/// - `read`: one row per saved read: when, which reader, which profile, the balance, the report.
/// - `trip`: each trip once, by its ``TripIdentity``, with the read that first saw it.
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
        return m
    }
}
