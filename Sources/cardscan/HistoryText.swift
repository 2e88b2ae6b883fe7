import CardHistory
import CardProfiles
import Foundation

/// How `cardscan history` prints: the list of cards, one card's balance over time and merged
/// trips (as the report's trip table), its JSON and its CSV.
enum HistoryText {
    /// The cards, last seen first, numbered for `history N`.
    static func list(_ cards: [CardSummary], style: Style) -> String {
        if cards.isEmpty { return "The history is empty: `cardscan --save` keeps a read in it." }
        let rows = cards.enumerated().map { i, c in
            [String(i + 1), c.name, c.number ?? "", c.balance?.description ?? "", String(c.trips), String(c.reads), spaced(c.lastSeen)]
        }
        let header = ["#", "Card", "Number", "Balance", "Trips", "Reads", "Last seen"]
        let widths = header.indices.map { i in max(header[i].count, rows.map { $0[i].count }.max() ?? 0) }
        let right: Set<Int> = [0, 3, 4, 5]
        func line(_ cells: [String]) -> String {
            var s =
                "  "
                + cells.indices.map { right.contains($0) ? cells[$0].leftPadding(widths[$0]) : cells[$0].padding(widths[$0]) }
                .joined(separator: "  ")
            while s.last == " " { s.removeLast() }
            return s
        }
        return ([style.bold(line(header))] + rows.map(line)).joined(separator: "\n")
    }

    /// One card: its reads, its balance over time (and the chart), its trips newest first.
    static func card(_ c: CardSummary, _ trips: [StoredTrip], _ balances: [BalancePoint], chart: String?, style: Style) -> String {
        var lines = [style.bold(c.name) + "  " + (c.number ?? "") + style.dim("  (\(c.profile))")]
        lines.append("  Seen     \(ReportPrinter.count(c.reads, "read")), \(spaced(c.firstSeen)) → \(spaced(c.lastSeen))")
        if let b = c.balance { lines.append("  Balance  " + style.bold(b.description)) }
        let known = balances.filter { $0.balance != nil }
        if !known.isEmpty {
            lines.append("")
            lines.append(style.bold("  Balance over time"))
            for p in known {
                lines.append(
                    "  \(spaced(p.time))  \(p.balance!.description.leftPadding(12))" + (p.partial ? style.dim("  (partial read)") : ""))
            }
            if let chart { lines += ["", chart] }
        }
        let report = self.report(c, trips, spacedTimes: true)
        lines += ReportPrinter(style: style).tripTable(report)
        lines.append(style.dim("  " + ReportPrinter.count(trips.count, "trip") + " kept, each once"))
        return lines.joined(separator: "\n")
    }

    /// `history CARD --json`: the card, its balance over time, its trips newest first.
    static func json(_ c: CardSummary, _ trips: [StoredTrip], _ balances: [BalancePoint]) -> JSONValue {
        .object([
            ("card", c.json),
            (
                "balances",
                .array(
                    balances.map { p in
                        .object([
                            ("time", .string(p.time)),
                            (
                                "balance",
                                p.balance.map { .object([("amount", .int($0.minorUnits)), ("currency", .string($0.currency))]) } ?? .null
                            ),
                            ("partial", .bool(p.partial)),
                        ])
                    })
            ),
            ("trips", .array(trips.map(\.json))),
        ])
    }

    /// `history CARD --csv`: the trips as `cardscan --csv` writes a read's.
    static func csv(_ c: CardSummary, _ trips: [StoredTrip]) -> String {
        var table = TripTable()
        let report = self.report(c, trips)
        return table.header(for: report) + table.rows(for: report)
    }

    /// The merged trips as a report's, for the report's table (times `spacedTimes` as the text
    /// report writes them) and CSV (as the JSON does).
    static func report(_ c: CardSummary, _ trips: [StoredTrip], spacedTimes: Bool = false) -> CardReport {
        var r = CardReport(profile: c.profile, name: c.name, currency: c.currency)
        if let n = c.number { r.card = [("number", .string(n))] }
        r.trips = trips.map { t in
            guard case .object(let pairs) = t.json else { return Trip() }
            return Trip(
                fields: pairs.map { k, v -> ReportField in
                    if k == "amount", let a = t.amount { return (k, .money(a)) }
                    if k == "time", spacedTimes, case .string(let s) = v { return (k, .string(spaced(s))) }
                    switch v {
                    case .int(let i): return (k, .int(i))
                    case .string(let s): return (k, .string(s))
                    default: return (k, .string(v.serialized()))
                    }
                })
        }
        return r
    }

    /// `2024-03-05T08:30:15+08:00` → `2024-03-05 08:30:15 +08:00`: the text report's style.
    static func spaced(_ iso: String) -> String {
        guard iso.count > 19, iso.dropFirst(10).first == "T" else { return iso }
        let offset = iso.dropFirst(19)
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(8) + (offset == "Z" ? " +00:00" : " " + offset)
    }
}
