/// The MIFARE Classic steps of a profile (docs/profile-format.md §Classic steps):
/// `read-sector: { sector, key }`, the sector a number or chosen by a byte of an earlier answer
/// (`{ from, offset, mask, sectors }`), and `ndef-record: { type }`.
enum ClassicStepParser {
    static let actions = ["read-sector", "ndef-record"]

    static func parse(_ c: Cursor, action: String) -> ClassicStep? {
        if action == "ndef-record" {
            guard let s = c.section(.ndefRecord), let type = s.required("type", "the record type, e.g. pilet.ee:ekaart:2")?.text() else {
                return nil
            }
            if type.isEmpty || type.utf8.count > 255 { s["type"].issue("a record type is 1–255 bytes") }
            return .ndefRecord(type: Array(type.utf8))
        }
        guard let s = c.section(.readSector) else { return nil }
        let keyB = s["key"].choice(["a", "b"]).map { $0 == "b" }
        guard s["sector"].isMapping else {
            guard let sector = s.required("sector", "the sector, e.g. 8")?.int(0...39) else { return nil }
            guard s.has("last"), let last = s["last"].int(0...39) else { return .readSector(sector: sector, keyB: keyB) }
            if last <= sector { s["last"].issue("the last sector (\(last)) must come after the first (\(sector))") }
            return .readSector(sector: sector, keyB: keyB, last: max(last, sector))
        }
        if s.has("last") { s["last"].issue("'last' reads a run of sectors from a fixed first one, not from a sector a byte names") }
        return choice(s["sector"]).map { .readChosenSector($0, keyB: keyB) }
    }

    /// `{ from: sector0, offset: 21, mask: "10", sectors: { 0x00: 2, 0x10: 6 } }`.
    static func choice(_ c: Cursor) -> SectorChoice? {
        guard let s = c.section(.sectorChoice) else { return nil }
        let answer = s.required("from", "the answer holding the byte, e.g. sector0")?.name()
        let offset = s["offset"].int(0...4095) ?? 0
        let mask = s.has("mask") ? s["mask"].hex(1...1)?.first : 0xFF
        guard let m = s.required("sectors", "which sector each value names, e.g. { 0x00: 2, 0x10: 6 }")?.section(allowed: nil) else {
            return nil
        }
        var sectors: [Int: Int] = [:]
        for (k, v) in m.entries {
            guard let code = Cursor.parseInt(k), (0...255).contains(code) else {
                v.issue("a value is a byte (e.g. 0x10), not '\(k)'")
                continue
            }
            if let sector = v.int(0...39) { sectors[code] = sector }
        }
        if m.entries.isEmpty { s["sectors"].issue("the list of sectors is empty") }
        guard let answer, let mask, !sectors.isEmpty else { return nil }
        return SectorChoice(answer: answer, offset: offset, mask: mask, sectors: sectors)
    }
}
