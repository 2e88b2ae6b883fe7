import APDU
import CardReports
import Foundation
import ProfileLanguage

/// What cardscan, acting as a terminal, answers a card that asks for terminal data in a DOL
/// (EMV Book 3 §5.4): the profile's `terminal` values, the user's settings (`--terminal-country`,
/// `--terminal-currency`), and the values that change from one read to the next (date, time,
/// unpredictable number) — kept so a transcript can record them and a replay send the same.
public struct TerminalSettings: Sendable {
    /// The options a profile's `terminal` values may name (`--terminal-country`, `--terminal-currency`).
    public static let optionNames = TerminalValue.optionNames
    /// Settings by option name (`country`, `currency`): ISO 3166-1 / ISO 4217 numeric codes.
    public var options: [String: UInt64] = [:]
    /// Values to use instead of today's date, the time or a random number (a replay's, from
    /// its transcript's `terminal` header).
    public var fixed: [TLVTag: [UInt8]] = [:]
    /// The changing values a read used, in the order first used (for the `terminal` header).
    public private(set) var used: [(tag: TLVTag, value: [UInt8])] = []
    /// The moment "today" and "now" mean (the machine's local time).
    public var clock: @Sendable () -> Date = { Date() }

    /// No option set, no fixed value, the machine's clock: each changing value is made when first
    /// asked for.
    public init() {}

    /// The value for `tag`, `length` bytes asked: from `profile`'s `terminal` list (zeros for
    /// a tag it does not list).
    public mutating func value(for tag: TLVTag, length: Int, in profile: Profile) -> (bytes: [UInt8], numeric: Bool) {
        guard let v = profile.terminal[tag] else { return ([UInt8](repeating: 0, count: length), false) }
        switch v {
        case .bytes(let b): return (b, false)
        case .number(let n, let option): return (Self.bcd(option.flatMap { options[$0] } ?? n, length: length), true)
        case .today, .now, .random:
            if let f = fixed[tag] { return (f, v != .random) }
            if let earlier = used.first(where: { $0.tag == tag }) { return (earlier.value, v != .random) }
            let made: [UInt8]
            switch v {
            case .random: made = (0..<length).map { _ in UInt8.random(in: 0...255) }
            default:
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .current
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: clock())
                let parts = v == .today ? [c.year! % 100, c.month!, c.day!] : [c.hour!, c.minute!, c.second!]
                made = parts.map { UInt8(($0 / 10) << 4 | $0 % 10) }
            }
            used.append((tag, made))
            return (made, v != .random)
        }
    }

    /// `n` in BCD, right-aligned in `length` bytes (higher digits dropped when it does not fit).
    static func bcd(_ n: UInt64, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        var v = n
        for i in stride(from: length - 1, through: 0, by: -1) {
            out[i] = UInt8(v % 10) | UInt8((v / 10) % 10) << 4
            v /= 100
        }
        return out
    }

    /// The `terminal` transcript header's text: `9A=261124 9F37=1A2B3C4D`.
    public var header: String? {
        used.isEmpty ? nil : used.map { "\($0.tag)=\($0.value.compactHex)" }.joined(separator: " ")
    }

    /// Reads a `terminal` header back into ``fixed``; nil when it is not `TAG=HEX …`
    /// (`TerminalHeader.values(_:)` says what is wrong).
    public static func fixedValues(header: String) -> [TLVTag: [UInt8]]? {
        try? TerminalHeader.values(header[...])
    }
}
