import APDU
import CardReports
import Foundation
import GRDB
import ProfileLanguage

/// A card the history holds, with what it knows of it.
public struct CardSummary: Equatable, Sendable {
    /// The row's id.
    public var id: Int64
    /// ``CardKey``: profile and identifying value.
    public var key: String
    /// The profile that read it.
    public var profile: String
    /// Its name, as the last read gave it.
    public var name: String
    /// Its number (or other identifying value), as the reads showed it.
    public var number: String?
    /// The currency of its purse.
    public var currency: String
    /// When it was first and last saved (ISO 8601, local time).
    public var firstSeen: String, lastSeen: String
    /// The balance of the last read that gave one.
    public var balance: Money?
    /// Trips kept, reads saved.
    public var trips: Int, reads: Int

    init(row: Row) {
        id = row["id"]
        key = row["key"]
        profile = row["profile"]
        name = row["name"]
        number = row["number"]
        currency = row["currency"]
        firstSeen = row["firstSeen"]
        lastSeen = row["lastSeen"]
        let minor: Int? = row["balance"]
        balance = minor.map { Money(minorUnits: $0, currency: row["balanceCurrency"] ?? row["currency"]) }
        trips = row["trips"]
        reads = row["reads"]
    }

    /// As `history --json` writes it.
    public var json: JSONValue {
        .object([
            ("card", .string(key)), ("profile", .string(profile)), ("name", .string(name)), ("number", number.map { .string($0) } ?? .null),
            ("balance", balance.map { .object([("amount", .int($0.minorUnits)), ("currency", .string($0.currency))]) } ?? .null),
            ("trips", .int(trips)), ("reads", .int(reads)), ("firstSeen", .string(firstSeen)), ("lastSeen", .string(lastSeen)),
        ])
    }
}

/// One trip as the history keeps it: its report values, and the columns it is sorted by.
public struct StoredTrip: Sendable {
    /// ISO 8601 as the report gave it; nil when the card keeps no time for it.
    public var time: String?
    /// `purchase`, `top-up`, …
    public var kind: String?
    /// The change to the balance.
    public var amount: Money?
    /// Every value of the trip, as the report's JSON has it.
    public var json: JSONValue

    init(row: Row) {
        time = row["time"]
        kind = row["kind"]
        let minor: Int? = row["amount"]
        amount = minor.map { Money(minorUnits: $0, currency: row["currency"] ?? "XXX") }
        json = (try? JSONValue(parsingInOrder: row["json"] as String)) ?? .object([])
    }
}

/// Which of a card's trips to give: days from and to (`2024-03-01`, inclusive), one kind, at
/// most so many (the newest).
public struct TripFilter: Sendable {
    /// The first day.
    public var from: String?
    /// The last day.
    public var to: String?
    /// Only trips of this kind.
    public var kind: String?
    /// At most this many, the newest.
    public var limit: Int?
    /// A filter: nil parts do not filter.
    public init(from: String? = nil, to: String? = nil, kind: String? = nil, limit: Int? = nil) {
        (self.from, self.to, self.kind, self.limit) = (from, to, kind, limit)
    }
}

/// The balance one saved read showed.
public struct BalancePoint: Sendable {
    /// When the read was saved (ISO 8601, local time).
    public var time: String
    /// The balance, when the read gave one.
    public var balance: Money?
    /// The read stopped early.
    public var partial: Bool

    init(row: Row) {
        time = row["time"]
        let minor: Int? = row["balance"]
        balance = minor.map { Money(minorUnits: $0, currency: row["currency"] ?? "XXX") }
        partial = row["partial"]
    }
}

/// A card the history does not hold, or that more than one matches.
public struct HistoryError: UserFacingError {
    /// What the user named the card by.
    public var card: String
    /// The cards that match it, when more than one does.
    public var candidates: [String]
    public var message: String {
        candidates.isEmpty
            ? "no card in the history matches '\(card)'"
            : "'\(card)' matches \(candidates.count) cards: \(candidates.joined(separator: "; "))"
    }
    public var hint: String? { "`cardscan history` lists the cards it holds; name one by its number or its position in that list" }
}

/// The history file could not be opened, read or written: which file, and SQLite's reason.
public struct HistoryFileError: UserFacingError {
    /// The database file.
    public var path: String
    /// What failed, as SQLite or the file system says it.
    public var reason: String
    /// The disk or the file system failed (full, read-only, unreadable), not the file's content.
    public var isInputOutput: Bool

    init(path: String, _ error: any Error) {
        self.path = path
        if let e = error as? DatabaseError {
            reason = e.message ?? "\(e.resultCode)"
            isInputOutput = [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(
                e.resultCode.primaryResultCode)
        } else {
            reason = (error as NSError).localizedDescription
            isInputOutput = true
        }
    }

    public var message: String { "\(path): \(reason)" }
    public var hint: String? { "the history is a SQLite file: check its folder's space and permissions, or name another with --db" }
}

/// The history's times: ISO 8601 in local time with its offset (`2026-11-27T08:30:15+01:00`).
public enum HistoryTime {
    /// `date` as the history writes it.
    public static func text(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = .current
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}
