import Foundation

/// A date and time as a card keeps it: a calendar date, a time of day to the second, and the
/// UTC offset in force there when the card's zone is known (`zone`). A payment terminal's
/// local time, in a zone the card does not say, has no offset.
///
/// Written as ISO 8601: `2024-03-05T08:30:15+08:00`, or `2024-03-05T08:30:15` without an offset.
public struct CivilDateTime: Hashable, Sendable, CustomStringConvertible {
    /// The calendar date.
    public var date: CivilDate
    /// The time of day, always to the second.
    public var time: TimeOfDay
    /// Minutes east of UTC; nil when the card does not say where the time was kept.
    public var utcOffsetMinutes: Int?

    /// `secondsOfDay` in 0..<86400; nil otherwise.
    public init?(date: CivilDate, secondsOfDay: Int, utcOffsetMinutes: Int?) {
        guard let time = TimeOfDay(secondsOfDay: secondsOfDay) else { return nil }
        self.init(date: date, time: time, utcOffsetMinutes: utcOffsetMinutes)
    }

    /// `time` on `date` (a time without seconds gets 0), at `utcOffsetMinutes` east of UTC when known.
    public init(date: CivilDate, time: TimeOfDay, utcOffsetMinutes: Int?) {
        self.date = date
        var time = time
        time.second = time.second ?? 0  // written to the second
        self.time = time
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Seconds since 1970-01-01T00:00Z, when the offset is known.
    public var unixSeconds: Int? {
        utcOffsetMinutes.map { date.daysSinceUnixEpoch * 86400 + time.secondsOfDay - $0 * 60 }
    }

    /// The moment, when the offset is known.
    public var instant: Date? { unixSeconds.map { Date(timeIntervalSince1970: TimeInterval($0)) } }

    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(25)
        date.write(into: &out)
        out.append(0x54)  // T
        time.write(into: &out, seconds: true)
        if let zone = utcOffsetMinutes {
            out.append(zone < 0 ? 0x2D : 0x2B)
            appendDigits(&out, abs(zone) / 60, 2)
            out.append(0x3A)
            appendDigits(&out, abs(zone) % 60, 2)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A time of day: hours and minutes (`08:30`), or to the second (`08:30:15`) when the card
/// keeps seconds.
public struct TimeOfDay: Hashable, Sendable, CustomStringConvertible {
    /// The hour, 0–23.
    public var hour: Int
    /// The minute, 0–59.
    public var minute: Int
    /// Nil when the card keeps minutes only.
    public var second: Int?

    /// Nil outside 00:00–23:59(:59).
    public init?(hour: Int, minute: Int, second: Int? = nil) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), second.map({ (0..<60).contains($0) }) ?? true else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// To the second; nil outside 0..<86400.
    public init?(secondsOfDay s: Int) {
        guard (0..<86400).contains(s) else { return nil }
        self.init(hour: s / 3600, minute: s / 60 % 60, second: s % 60)
    }

    /// Seconds since midnight (a time without seconds counts 0).
    public var secondsOfDay: Int { hour * 3600 + minute * 60 + (second ?? 0) }

    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(8)
        write(into: &out, seconds: second != nil)
        return String(decoding: out, as: UTF8.self)
    }

    func write(into out: inout [UInt8], seconds: Bool) {
        appendDigits(&out, hour, 2)
        out.append(0x3A)
        appendDigits(&out, minute, 2)
        guard seconds else { return }
        out.append(0x3A)
        appendDigits(&out, second ?? 0, 2)
    }
}
