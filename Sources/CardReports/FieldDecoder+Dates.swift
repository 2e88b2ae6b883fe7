import Foundation
import ProfileLanguage

/// Dates and times from their bytes: BCD, packed (EN 1545-style bit fields), and counts of days
/// or seconds after an epoch, each with the UTC offset of the card's zone.
extension FieldDecoder {
    /// `YYYYMMDD` or `YYMMDD` in BCD, with the seconds after midnight of a `time-tag` when given.
    static func bcdDate(_ spec: FieldSpec, _ bytes: ArraySlice<UInt8>, timeOfDay minutes: Int?) throws(Failure) -> FieldValue? {
        guard bytes.count == 4 || bytes.count == 3 else {
            throw Failure(reason: "a BCD date is 4 bytes (or 3, YYMMDD), not \(bytes.count)")
        }
        // All 00 or all FF (erased memory, KS X 6924's "no time"): no date, not an error.
        if bytes.allSatisfy({ $0 == 0 }) || bytes.allSatisfy({ $0 == 0xFF }) { return nil }
        try checkBCD(bytes)
        let s = bytes.startIndex
        let short = bytes.count == 3
        let y = short ? spec.yearBase + bcd(bytes[s]) : bcd(bytes[s]) * 100 + bcd(bytes[s + 1])
        let m = bcd(bytes[s + (short ? 1 : 2)]), d = bcd(bytes[s + (short ? 2 : 3)])
        guard let date = CivilDate(year: y, month: m, day: d) else {
            throw Failure(reason: "\(bytes.hexString) is not a valid date (\(short ? "YYMMDD" : "YYYYMMDD"))")
        }
        guard let seconds = minutes else { return .date(date) }
        // A terminal's local time, in a zone the card does not say: no offset (ISO 8601 local time).
        let known = spec.timeZone != nil || spec.zoneMinutes != nil
        return try dateTime(date, seconds, offset: known ? offset(spec, date, seconds) : nil)
    }

    /// `YYYYMMDDhhmmss` in BCD.
    static func bcdDateTime(_ spec: FieldSpec, _ bytes: ArraySlice<UInt8>) throws(Failure) -> FieldValue? {
        guard bytes.count == 7 else { throw Failure(reason: "a BCD date and time is 7 bytes, not \(bytes.count)") }
        if bytes.allSatisfy({ $0 == 0 }) || bytes.allSatisfy({ $0 == 0xFF }) { return nil }
        try checkBCD(bytes)
        let b = bytes.startIndex
        let y = bcd(bytes[b]) * 100 + bcd(bytes[b + 1]), mo = bcd(bytes[b + 2]), d = bcd(bytes[b + 3])
        let h = bcd(bytes[b + 4]), mi = bcd(bytes[b + 5]), s = bcd(bytes[b + 6])
        guard let date = CivilDate(year: y, month: mo, day: d), h < 24, mi < 60, s < 60 else {
            throw Failure(reason: "\(bytes.hexString) is not a valid date and time (YYYYMMDDhhmmss)")
        }
        let seconds = h * 3600 + mi * 60 + s
        return try dateTime(date, seconds, offset: offset(spec, date, seconds))
    }

    /// A year (7 bits after the base year), month (4) and day (5) — with `day-first`, the day
    /// (5 bits), the month (4) and the year (the rest of `width`) — with a time element's seconds
    /// when given; `endian: little` reads its two bytes low byte first (Nextfare Ultralight).
    static func packedDate(
        _ spec: FieldSpec, _ bytes: ArraySlice<UInt8>, width: Int, timeOfDay minutes: Int?
    ) throws(Failure) -> FieldValue? {
        guard bytes.count <= 2 else { throw Failure(reason: "a packed date is at most 2 bytes, not \(bytes.count)") }
        let v = (spec.littleEndian ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        if v == 0 { return nil }
        let yearBits = max(0, min(width, 16) - 9)
        let (y, month, day) =
            spec.dayFirst
            ? (v & ((1 << yearBits) - 1), (v >> yearBits) & 0x0F, (v >> (yearBits + 4)) & 0x1F) : (v >> 9, (v >> 5) & 0x0F, v & 0x1F)
        let (year, overflow) = spec.yearBase.addingReportingOverflow(y)
        guard !overflow, (1...9999).contains(year), let date = CivilDate(year: year, month: month, day: day) else {
            let order = spec.dayFirst ? "day 5 bits, month 4, year \(yearBits)" : "year 7 bits, month 4, day 5"
            throw Failure(reason: "\(bytes.hexString) is not a valid packed date (\(order))")
        }
        guard let seconds = minutes else { return .date(date) }
        guard (0..<86400).contains(seconds) else { throw Failure(reason: "the time element is not a time of day") }
        return try dateTime(date, seconds, offset: offset(spec, date, seconds))
    }

    /// An hour (5 bits) and a minute (6).
    static func packedTime(_ bytes: ArraySlice<UInt8>) throws(Failure) -> FieldValue? {
        guard bytes.count <= 2 else { throw Failure(reason: "a packed time is at most 2 bytes, not \(bytes.count)") }
        let v = bytes.reduce(0) { $0 << 8 | Int($1) }
        let (hour, minute) = (v >> 6, v & 0x3F)
        guard let time = TimeOfDay(hour: hour, minute: minute) else {
            throw Failure(reason: "\(bytes.hexString) is not a packed time (hour 5 bits, minute 6)")
        }
        return .time(time)
    }

    /// A count of days or seconds after the field's epoch (`clock-shift` applied).
    static func epochValue(_ spec: FieldSpec, _ rawCount: Int, minutes: Int?) throws(Failure) -> FieldValue {
        guard let epoch = spec.epoch else { throw Failure(reason: "needs an epoch") }
        let unit = spec.type == .days ? "days" : "seconds"
        // Far outside any date (a scaled count near Int.min): refused before any arithmetic can trap.
        guard rawCount > Int.min + 86400 * 2 else { throw Failure(reason: "\(rawCount) \(unit) from \(epoch) is before the year 1") }
        var count = spec.layout.countsBack ? -rawCount : rawCount
        if let shift = spec.layout.clockShift, count < shift.beforeCount { count = count &+ shift.seconds }
        guard count > Int.min + 86400 * 2 else { throw Failure(reason: "\(count) \(unit) from \(epoch) is before the year 1") }
        let outOfRange = Failure(reason: "\(count) \(unit) after \(epoch) is past the year 9999")
        if spec.type == .days {
            let (day, overflow) = epoch.daysSinceUnixEpoch.addingReportingOverflow(count)
            guard !overflow, CivilDate.supportedDays.contains(day) else { throw outOfRange }
            let date = CivilDate(daysSinceUnixEpoch: day)
            guard let seconds = minutes else { return .date(date) }
            guard (0..<86400).contains(seconds) else { throw Failure(reason: "the time element is not a time of day") }
            if spec.utc { return try moment(spec, day: day, seconds: seconds, outOfRange) }
            return try dateTime(date, seconds, offset: offset(spec, date, seconds))
        }
        // Whole days first: epoch days × 86400 + count could overflow, days + count / 86400 cannot.
        let (extraDays, secs) = Self.daysAndSeconds(count)
        let day = epoch.daysSinceUnixEpoch + extraDays
        if spec.utc { return try moment(spec, day: day, seconds: secs, outOfRange) }
        guard CivilDate.supportedDays.contains(day) else { throw outOfRange }
        let date = CivilDate(daysSinceUnixEpoch: day)
        return try dateTime(date, secs, offset: offset(spec, date, secs))
    }

    /// The moment `seconds` after midnight UTC of `day` (days since 1970-01-01), as the local
    /// day and time it is in the field's zone, with that offset.
    static func moment(_ spec: FieldSpec, day: Int, seconds: Int, _ outOfRange: Failure) throws(Failure) -> FieldValue {
        let minutes = utcOffset(spec, day, seconds)
        let (carry, secs) = daysAndSeconds(seconds + minutes * 60)  // seconds: 0..<86400, an offset: ±1 day
        let local = day + carry
        guard CivilDate.supportedDays.contains(local) else { throw outOfRange }
        return try dateTime(CivilDate(daysSinceUnixEpoch: local), secs, offset: minutes)
    }

    /// `seconds` as whole days (rounded down) and the seconds left in the last, 0..<86400.
    static func daysAndSeconds(_ seconds: Int) -> (days: Int, seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        return (days, seconds - days * 86400)
    }

    /// `date` at `seconds` after midnight, with its UTC offset when known.
    static func dateTime(_ date: CivilDate, _ seconds: Int, offset: Int?) throws(Failure) -> FieldValue {
        guard let moment = CivilDateTime(date: date, secondsOfDay: seconds, utcOffsetMinutes: offset) else {
            throw Failure(reason: "\(seconds) s is not a time of day")
        }
        return .dateTime(moment)
    }

    /// The UTC offset (minutes) in the field's zone at the moment `seconds` after midnight UTC
    /// of day `day` (days since 1970-01-01).
    static func utcOffset(_ spec: FieldSpec, _ day: Int, _ seconds: Int) -> Int {
        guard let tz = spec.timeZone else { return spec.zoneMinutes ?? 0 }
        let moment = Double(day) * 86400 + Double(seconds)
        return tz.secondsFromGMT(for: Date(timeIntervalSince1970: moment)) / 60
    }

    /// The UTC offset (minutes) of the card's local `date` at `seconds` after midnight: fixed,
    /// or the named zone's at that moment (the offset before a change is tried first, then the
    /// one it gives, so a summer-time date gets its summer offset).
    static func offset(_ spec: FieldSpec, _ date: CivilDate, _ seconds: Int) -> Int {
        guard let tz = spec.timeZone else { return spec.zoneMinutes ?? 0 }
        let local = Double(date.daysSinceUnixEpoch) * 86400 + Double(seconds)
        let guess = local - Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
        return tz.secondsFromGMT(for: Date(timeIntervalSince1970: guess)) / 60
    }
}
