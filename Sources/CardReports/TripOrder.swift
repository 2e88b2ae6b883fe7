import ProfileLanguage

/// The order of trips, newest first, by their `time`: two dates and times that both say their
/// UTC offset by their moment, others by their local date and time (a date alone before any
/// time of that day). Trips with equal times keep the order they were read in; a trip without
/// a time comes after those with one. A time that is text (a profile's own) is compared as text.
enum TripOrder {
    private enum Key {
        case none
        /// Days since 1970-01-01, seconds after midnight (-1 for a date alone), and the moment
        /// when the offset is known.
        case local(day: Int, second: Int, moment: Int?)
        case text(String)

        init(_ value: FieldValue?) {
            switch value {
            case nil: self = .none
            case .date(let d)?: self = .local(day: d.daysSinceUnixEpoch, second: -1, moment: nil)
            case .dateTime(let t)?: self = .local(day: t.date.daysSinceUnixEpoch, second: t.time.secondsOfDay, moment: t.unixSeconds)
            case let other?: self = .text(other.description)
            }
        }

        /// Whether `self` is later than `other`.
        func isNewer(than other: Key, _ a: FieldValue?, _ b: FieldValue?) -> Bool? {
            switch (self, other) {
            case (.none, .none): return nil
            case (.none, _): return false
            case (_, .none): return true
            case (.local(let d1, let s1, let m1), .local(let d2, let s2, let m2)):
                if let m1, let m2 { return m1 == m2 ? nil : m1 > m2 }
                return (d1, s1) == (d2, s2) ? nil : (d1, s1) > (d2, s2)
            default:
                let x = a?.description ?? "", y = b?.description ?? ""
                return x == y ? nil : x > y
            }
        }
    }

    /// `rows` newest first by `time`.
    static func newestFirst<Row>(_ rows: [Row], time: (Row) -> FieldValue?) -> [Row] {
        let times = rows.map(time)
        let keys = times.map(Key.init)
        let order = rows.indices.sorted { i, j in keys[i].isNewer(than: keys[j], times[i], times[j]) ?? (i < j) }
        return order.map { rows[$0] }
    }
}
