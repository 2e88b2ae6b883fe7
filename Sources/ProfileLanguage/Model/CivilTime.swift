import Foundation

/// A calendar date (proleptic Gregorian) without a time zone.
public struct CivilDate: Hashable, Sendable, CustomStringConvertible {
    /// The year (1 is 1 AD).
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int

    /// The date; nil when the month has no such day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Seconds since 1970-01-01T00:00Z of an ISO 8601 moment with its offset:
    /// `2019-01-01T00:00:00+07:00`, `2019-01-01T00:00Z` (seconds optional).
    public static func unixSeconds(isoMoment text: String) -> Int? {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard parts.count == 2, let date = CivilDate(iso: String(parts[0])) else { return nil }
        var rest = Substring(parts[1])
        var offsetSeconds = 0
        if rest.hasSuffix("Z") {
            rest = rest.dropLast()
        } else if let i = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let sign = rest[i] == "-" ? -1 : 1
            let hm = rest[rest.index(after: i)...].split(separator: ":")
            guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), h < 24, m < 60 else { return nil }
            offsetSeconds = sign * (h * 3600 + m * 60)
            rest = rest[..<i]
        } else {
            return nil
        }
        let t = rest.split(separator: ":")
        guard t.count == 2 || t.count == 3, let h = Int(t[0]), let m = Int(t[1]), h < 24, m < 60 else { return nil }
        let sec = t.count == 3 ? Int(t[2]) : 0
        guard let sec, sec < 60 else { return nil }
        return date.daysSinceUnixEpoch * 86400 + h * 3600 + m * 60 + sec - offsetSeconds
    }

    /// Parses `YYYY-MM-DD` (a four-digit year); nil when it is not a date.
    public init?(iso text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The days (since 1970-01-01) of the years 0001 to 9999: the dates cardscan writes.
    public static let supportedDays = -719_162...2_932_896

    /// Days since 1970-01-01 (H. Hinnant's days_from_civil).
    public var daysSinceUnixEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date `days` after 1970-01-01 (H. Hinnant's civil_from_days).
    public init(daysSinceUnixEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(10)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `YYYY-MM-DD`.
    func write(into out: inout [UInt8]) {
        appendDigits(&out, year, 4)
        out.append(0x2D)
        appendDigits(&out, month, 2)
        out.append(0x2D)
        appendDigits(&out, day, 2)
    }
}

/// Appends `v` as at least `width` decimal digits (no sign: callers pass non-negative values
/// below 10^width, as dates and times are; anything else goes through String).
@inline(__always)
package func appendDigits(_ out: inout [UInt8], _ v: Int, _ width: Int) {
    guard v >= 0 else {
        out.append(contentsOf: Array(String(v).utf8))
        return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
    var n = v, count = 0
    withUnsafeMutableBytes(of: &digits) { buf in
        repeat {
            buf[count] = UInt8(0x30 + n % 10)
            n /= 10
            count += 1
        } while n > 0 && count < 6
    }
    if n > 0 {
        out.append(contentsOf: Array(String(v).utf8))
        return
    }
    for _ in count..<max(count, width) { out.append(0x30) }
    withUnsafeBytes(of: &digits) { buf in for i in stride(from: count - 1, through: 0, by: -1) { out.append(buf[i]) } }
}

/// `+08:00` → minutes east of UTC.
enum UTCOffset {
    static func parse(_ text: String) -> Int? {
        if text == "Z" || text == "UTC" { return 0 }
        let chars = Array(text)
        guard chars.count == 6, chars[0] == "+" || chars[0] == "-", chars[3] == ":",
            let h = Int(String(chars[1...2])), let m = Int(String(chars[4...5])), h <= 14, m < 60
        else { return nil }
        return (chars[0] == "-" ? -1 : 1) * (h * 60 + m)
    }
}

extension CivilDate {
    /// `unixSeconds` as an ISO 8601 moment in UTC, `2026-11-24T12:44:07Z` (what Foundation's
    /// `ISO8601DateFormatter` writes by default, without building an ICU formatter each time).
    /// Nil outside the years 0001–9999.
    public static func isoMomentUTC(unixSeconds: Int) -> String? {
        let (days, seconds) = unixSeconds.quotientAndRemainder(dividingBy: 86400)
        let (day, second) = seconds < 0 ? (days - 1, seconds + 86400) : (days, seconds)
        guard supportedDays.contains(day),
            let moment = CivilDateTime(date: CivilDate(daysSinceUnixEpoch: day), secondsOfDay: second, utcOffsetMinutes: nil)
        else { return nil }
        return moment.description + "Z"
    }
}

/// A card's time zone (`zone`): a fixed UTC offset (`+08:00`), or a zone with summer time
/// (`Europe/Paris`, IANA tz database), in which each local date has its own offset.
public enum CivilZone: Sendable, Equatable {
    /// A fixed offset, in minutes east of UTC.
    case offset(minutes: Int)
    /// A named zone (IANA tz database), whose offset depends on the date.
    case named(TimeZone)

    /// `+08:00`, `-05:30`, `Z`, or a zone name with a `/`; nil when it is neither.
    public init?(_ text: String) {
        if let minutes = UTCOffset.parse(text) {
            self = .offset(minutes: minutes)
        } else if text.contains("/"), let tz = TimeZone(identifier: text) {
            self = .named(tz)
        } else {
            return nil
        }
    }

    /// The offset in force now (a fixed zone's only one).
    public var currentMinutes: Int {
        switch self {
        case .offset(let m): return m
        case .named(let tz): return tz.secondsFromGMT() / 60
        }
    }

    /// The zone, when it has summer time.
    public var timeZone: TimeZone? { if case .named(let tz) = self { return tz } else { return nil } }
}
