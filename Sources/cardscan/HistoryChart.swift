import CardHistory
import CardProfiles
import Foundation

/// `history CARD --chart`: the balance over time in the terminal, one column of block
/// characters a read (▁ the lowest balance, █ the highest), with the range beside it. Only on a
/// UTF-8 terminal: elsewhere the characters would print as garbage, so nothing is drawn.
enum HistoryChart {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The chart of `balances`, or nil when there is nothing to draw or the terminal is not UTF-8.
    static func draw(_ balances: [BalancePoint], environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard utf8(environment) else { return nil }
        let values = balances.compactMap(\.balance)
        guard let low = values.map(\.minorUnits).min(), let high = values.map(\.minorUnits).max(), let first = values.first else {
            return nil
        }
        let bar = String(
            values.map { v in
                high == low ? blocks[3] : blocks[(v.minorUnits - low) * (blocks.count - 1) / (high - low)]
            })
        let range =
            Money(minorUnits: low, currency: first.currency).description + " … "
            + Money(minorUnits: high, currency: first.currency).description
        return "  \(bar)  \(range) over \(values.count) read\(values.count == 1 ? "" : "s")"
    }

    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    static func utf8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let l = locale.lowercased()
        return l.contains("utf-8") || l.contains("utf8")
    }
}
