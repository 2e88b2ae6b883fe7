import Foundation
import ProfileLanguage

/// `trips.pair`: a trip's tap-on and its tap-off, two rows, become one (``TripPairing``).
extension ReportBuilder {
    /// `rows` (newest first) with each tap-on and the tap-off after it made one row: the first
    /// row's values, `endTime` and `endStation` from the second, the two amounts added (or the
    /// second's).
    func paired(_ rows: [TripRow], _ p: TripPairing, _ c: TripColumns) -> [TripRow] {
        guard let ki = c.position["kind"], let ti = c.position["time"], let ei = c.position["endTime"] else { return rows }
        let si = c.position["station"], esi = c.position["endStation"], ai = c.position["amount"]
        let same = p.same.compactMap { c.position[$0] }
        func kind(_ r: TripRow) -> String? { r.values[ki]?.description }
        func pairs(_ on: TripRow, _ off: TripRow) -> Bool {
            guard let k1 = kind(on), p.first.contains(k1), let k2 = kind(off), p.second.contains(k2) else { return false }
            guard same.allSatisfy({ on.values[$0] != nil && on.values[$0] == off.values[$0] }) else { return false }
            guard let minutes = p.within else { return true }
            guard case .dateTime(let a)? = on.values[ti], case .dateTime(let b)? = off.values[ti], let start = a.instant,
                let end = b.instant
            else { return false }
            let gap = end.timeIntervalSince(start)
            return gap >= 0 && gap <= Double(minutes) * 60
        }
        // The tap-off's time and station become the trip's end; its amount adds to the trip's.
        func moved(_ column: Int) -> Int? {
            if column == ti { return ei }
            if column == si { return esi }
            return column == ai ? ai : nil
        }
        var out: [TripRow] = []
        var i = rows.count - 1  // oldest first
        while i >= 0 {
            var row = rows[i]
            if i > 0, pairs(row, rows[i - 1]) {
                let off = rows[i - 1]
                row.values[ei] = off.values[ti]
                if let si, let esi { row.values[esi] = off.values[si] }
                if let ai { row.values[ai] = p.amountFromSecond ? off.values[ai] : Self.sum(row.values[ai], off.values[ai]) }
                row.problems += off.problems.compactMap { p in moved(p.0).map { ($0, p.1) } }
                row.origins += off.origins.compactMap { o in moved(o.0).map { ($0, o.1) } }
                i -= 2
            } else {
                i -= 1
            }
            out.append(row)
        }
        return out.reversed()
    }

    /// Two amounts added; one that is absent counts as 0, and a sum past Int stays the first.
    static func sum(_ a: FieldValue?, _ b: FieldValue?) -> FieldValue? {
        guard let x = a?.intValue else { return b }
        guard let y = b?.intValue else { return a }
        let (s, overflow) = x.addingReportingOverflow(y)
        return overflow ? a : .int(s)
    }
}
