/// The decoding settings a type or a field writes (`type`, `epoch`, `scale`, `map`, `table`, …):
/// parsed the same way in both places, into ``FieldSettings``, so that a field's own settings
/// can override its type's one by one.
enum FieldSettingsParser {
    /// The settings of `s` (a field's or a type's keys); `type` stays a name until the types are
    /// known (``TypeCatalog``), given back as `typeName`.
    static func parse(_ s: Section, file: String) -> (settings: FieldSettings, typeName: String?) {
        var out = FieldSettings()
        var typeName: String?
        if let t = s["type"].text() {
            if let base = FieldType(rawValue: t) { out.type = base } else { typeName = t }
        }
        if s.has("bits") { out.bits = s["bits"].int(1...4096) }
        if let e = s["epoch"].text() {
            if let d = CivilDate(iso: e) {
                out.epoch = d
            } else if e.first?.isLetter == true, !e.contains(where: { " .[]:/".contains($0) }) {
                out.epochField = e  // a card or `let` value's name: checked once the profile's fields are known
            } else {
                s["epoch"].issue("'\(e)' is neither a date (YYYY-MM-DD) nor the name of a card or let value")
            }
        }
        if let d = s["direction"].choice(["after", "before"]) { out.countsBack = d == "before" }
        if s.has("utc") { out.utc = s["utc"].bool() }
        if s.has("year-base") { out.yearBase = s["year-base"].int(1900...2100) }
        if s.has("day-first") { out.dayFirst = s["day-first"].bool() }
        if let e = s["endian"].choice(["big", "little"]) { out.littleEndian = e == "little" }
        if s.has("scale") { out.scale = s["scale"].int() }
        if s.has("add") { out.add = s["add"].int() }
        if s.has("divide") { out.divide = s["divide"].int(1...1_000_000_000) }
        if s.has("map") { out.map = codeMap(s["map"]) }
        if let name = s["table"].name() {
            if s.has("map") { s["table"].issue("a value takes its names from 'map' or 'table', not both") }
            switch LookupTable.load(name, near: file) {
            case .success(let t):
                out.map = t.entries
                out.table = name
                out.hexCodes = t.hexCodes
                if let d = t.defaultName { out.mapDefault = d }
            case .failure(let e):
                for i in e.issues { s["table"].issue(i.file == file ? i.reason : "\(i.file):\(i.line):\(i.column): \(i.reason)") }
            }
        }
        if s.has("default") { out.mapDefault = s["default"].text() }
        if s.has("unset") { out.unset = s["unset"].int() }
        if s.has("drop-digits") { out.dropDigits = s["drop-digits"].int(0...64) }
        if s.has("strip-zeros") { out.stripZeros = s["strip-zeros"].bool() }
        if s["format"].choice(["decimal"]) != nil { out.decimalText = true }
        return (out, typeName)
    }

    /// `{ 0x02: top-up, 0x06: purchase }`: numbers to words.
    static func codeMap(_ c: Cursor) -> [Int: String]? {
        guard let m = c.section(allowed: nil) else { return nil }
        var table: [Int: String] = [:]
        for (k, v) in m.entries {
            guard let code = Cursor.parseInt(k) else {
                v.issue("a code is a number (e.g. 0x06), not '\(k)'")
                continue
            }
            if let word = v.text() { table[code] = word }
        }
        return table
    }

    /// `lo-hi` (`4-11`): bits of a value, 0 the least significant, all below `limit`.
    static func bitRange(_ c: Cursor, below limit: Int) -> ClosedRange<Int>? {
        guard let text = c.text() else { return nil }
        let ends = text.split(separator: "-").map { Int($0.trimmingCharacters()) }
        guard ends.count == 2, let lo = ends[0], let hi = ends[1], 0 <= lo, lo <= hi, hi < limit else {
            c.issue("'\(text)' is not a bit range below bit \(limit) (e.g. 0-30; bit 0 is the least significant)")
            return nil
        }
        return lo...hi
    }

    /// `values: 3`, `values: 0-2` or `values: [0, 4-6]`.
    static func values(_ c: Cursor) -> [ClosedRange<UInt64>] {
        var out: [ClosedRange<UInt64>] = []
        for item in c.oneOrList() ?? [] {
            guard let text = item.text() else { continue }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters() }
            let numbers = parts.compactMap { p -> UInt64? in
                p.lowercased().hasPrefix("0x") ? UInt64(p.dropFirst(2), radix: 16) : UInt64(p)
            }
            guard (1...2).contains(parts.count), numbers.count == parts.count, numbers[0] <= numbers[numbers.count - 1] else {
                item.issue("'\(text)' is not a value or a range such as 0-2")
                continue
            }
            out.append(numbers[0]...numbers[numbers.count - 1])
        }
        return out
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
