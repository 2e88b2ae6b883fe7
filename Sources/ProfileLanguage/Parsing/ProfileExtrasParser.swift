import APDU
import Foundation

/// The smaller sections of a profile: `classes`, `report-notes`, `variants`, `commands` (read
/// commands of its own) and `terminal` (what it answers a card's data object lists with).
enum ProfileExtrasParser {
    static func classes(_ c: Cursor) -> [UInt8]? {
        guard let items = c.oneOrList() else { return nil }
        if items.isEmpty { c.issue("the list is empty: leave it out for class 00") }
        var out: [UInt8] = []
        for item in items {
            guard let b = item.hex(1...1) else { continue }
            if out.contains(b[0]) { item.issue("class \(b.hexString) is listed twice") } else { out.append(b[0]) }
        }
        return out.isEmpty ? nil : out
    }

    static func reportNotes(_ c: Cursor) -> [String] {
        (c.oneOrList() ?? []).compactMap { item in
            guard let text = item.text() else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { item.issue("a report note is a sentence, not empty") }
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    static func variants(_ c: Cursor) -> [Profile.Variant] {
        let items = c.sequence() ?? []
        if c.exists, items.isEmpty { c.issue("the list is empty: name the variants, or leave the key out") }
        return items.compactMap { item in
            guard let s = item.section(.variant) else { return nil }
            let name = s.required("name")?.text()
            if let name, name.isEmpty { s["name"].issue("the name is empty") }
            let codes = s.required("services", "e.g. [0x1CC8, 0x1D08]")?.sequence() ?? []
            if s.has("services"), codes.isEmpty { s["services"].issue("a variant needs at least one service that marks it") }
            let services = codes.compactMap { $0.int(0...0xFFFE) }.map(UInt16.init)
            guard let name, !name.isEmpty, !services.isEmpty else { return nil }
            return Profile.Variant(name: name, services: services, line: item.line)
        }
    }

    /// `commands:` of a profile, or a list of the known-commands catalogue: each entry with
    /// where it is written.
    static func commandEntries(_ c: Cursor) -> [(cursor: Cursor, entry: CommandPolicy.Entry)] {
        (c.sequence() ?? []).compactMap { item -> (Cursor, CommandPolicy.Entry)? in
            guard let s = item.section(.command),
                let bytes = s.required("command")?.hex(), let name = s.required("name")?.text(), let source = s.required("source")?.text()
            else { return nil }
            guard bytes.count == 2 else {
                s["command"].issue("a command is its class and instruction bytes, e.g. \"90 4C\"")
                return nil
            }
            if name.isEmpty || source.isEmpty { item.issue("'name' and 'source' must not be empty") }
            return (item, CommandPolicy.Entry(cla: bytes[0], ins: bytes[1], name: name, source: source))
        }
    }

    /// `terminal: { 9F02: { number: 0 }, 9F1A: { number: 840, option: country }, 9A: today, 9F66: F620C000 }`.
    static func terminal(_ c: Cursor) -> [TLVTag: TerminalValue] {
        var out: [TLVTag: TerminalValue] = [:]
        for (k, v) in c.section(allowed: nil)?.entries ?? [] {
            guard let tag = try? TLVTag(hex: k) else {
                v.issue("'\(k)' is not a BER-TLV tag (e.g. 9F1A)")
                continue
            }
            if !v.isMapping {
                switch v.text() {
                case "today"?: out[tag] = .today
                case "now"?: out[tag] = .now
                case "random"?: out[tag] = .random
                case nil: break
                default: if let b = v.hex() { out[tag] = .bytes(b) }
                }
                continue
            }
            guard let s = v.section(.terminalNumber), let n = s.required("number", "the value, written in BCD")?.int(0...999_999_999_999)
            else {
                continue
            }
            out[tag] = .number(UInt64(n), option: s["option"].choice(TerminalValue.optionNames))
        }
        return out
    }

    /// `zone-by: { from: sector15, offset: 26, zones: { 0x55: Asia/Omsk } }`.
    static func zoneBy(_ c: Cursor) -> ZoneChoice? {
        guard let s = c.section(.zoneBy), let answer = s.required("from", "the answer holding the byte")?.name(),
            let m = s.required("zones", "the zone each value names, e.g. { 0x55: Asia/Omsk }")?.section(allowed: nil)
        else { return nil }
        var zones: [Int: TimeZone] = [:]
        for (k, v) in m.entries {
            guard let code = Cursor.parseInt(k), (0...255).contains(code) else {
                v.issue("a value is a byte (e.g. 0x55), not '\(k)'")
                continue
            }
            guard let name = v.text(), name.contains("/"), let tz = TimeZone(identifier: name) else {
                v.issue("not a time zone name (e.g. Asia/Omsk)")
                continue
            }
            zones[code] = tz
        }
        return ZoneChoice(answer: answer, offset: s["offset"].int(0...4095) ?? 0, zones: zones)
    }
}
