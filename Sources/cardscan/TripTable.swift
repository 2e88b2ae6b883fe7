import CardProfiles
import Foundation

/// A report's trips as CSV (RFC 4180): one row per trip with the card's profile and number,
/// for a spreadsheet or any CSV reader (`--csv` on scan, replay and watch).
///
/// The columns are fixed by the first report written: `profile`, `card`, `time`, `kind`,
/// `amount` (in the currency's major unit, ISO 4217 exponent: `-1.40`, `-1400` for won),
/// `currency`, then the first report's other trip fields in their order, then `details`:
/// the fields of a later report (another profile, in `watch`) that have no column, as
/// `name=value` joined by `; `. So a header written once fits every row that follows.
public struct TripTable: Sendable {
    public private(set) var columns: [String]?
    static let leading = ["profile", "card", "time", "kind", "amount", "currency"]

    public init() {}

    /// The header line (CRLF-terminated), fixing the columns from `report`.
    public mutating func header(for report: CardReport) -> String {
        var names = Self.leading
        for trip in report.trips {
            for (k, _) in trip where !names.contains(k) && k != "details" { names.append(k) }
        }
        names.append("details")
        columns = names
        return Self.line(names)
    }

    /// The rows of `report`'s trips (each CRLF-terminated); fixes the columns first when no
    /// header was made.
    public mutating func rows(for report: CardReport) -> String {
        if columns == nil { _ = header(for: report) }
        let columns = self.columns!
        var out = ""
        let number = report.card.number ?? ""
        for trip in report.trips {
            var cells = [String](repeating: "", count: columns.count)
            var details: [String] = []
            cells[0] = report.profile
            cells[1] = number
            cells[5] = report.currency
            for (k, v) in trip {
                let text = v.money?.decimalText ?? v.description
                if let i = columns.firstIndex(of: k), i != 0, i != 1, i != 5, k != "details" {
                    cells[i] = text
                } else {
                    details.append("\(k)=\(text)")
                }
            }
            cells[columns.count - 1] = details.joined(separator: "; ")
            out += Self.line(cells)
        }
        return out
    }

    /// One record: fields with a comma, a double quote, CR or LF are quoted, quotes doubled
    /// (RFC 4180 §2); CRLF at the end.
    static func line(_ cells: [String]) -> String {
        cells.map { cell in
            guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return cell }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
