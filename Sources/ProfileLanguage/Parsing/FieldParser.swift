import APDU
import Foundation
import Yams

/// Parses one field mapping (`{ from: info, offset: 16, length: 4, type: uint }`).
struct FieldParser {
    let reader: YAMLReader

    static let keys = [
        "from", "offset", "length", "type", "endian", "bits", "mask", "scale", "add", "divide", "map", "default", "digits", "prefix",
        "suffix", "group", "zero-means-none",
        "epoch", "zone", "year-base", "drop-digits", "strip-zeros", "check-digit", "format", "optional",
        "difference", "sum", "bit-offset", "bit-length", "field", "time-field", "table", "personal", "slice", "record", "when-present",
        "utc", "when", "clock-shift",
        "time-type", "absent-is-zero", "constant", "tag", "time-tag", "mask-digits", "part",
    ]

    /// `inTrips`: a field of a trip or contract record (no `from` needed); `inContracts`: of
    /// a contract (`from` allowed, with `slice`).
    func parse(_ node: Node, _ path: String, inTrips: Bool, inContracts: Bool = false) -> FieldSpec? {
        let r = reader
        guard let m = r.mapping(node, path, allowed: Self.keys) else { return nil }
        let g = { (k: String) in m.node(k) }
        var spec = FieldSpec.Layout(source: .record, line: r.line(node))

        if let c = g("constant") {
            // The same value for every record: a number, or a text.
            guard let text = r.string(c, "\(path).constant") else { return nil }
            spec.source = .constant(YAMLReader.parseInt(text).map { .int($0) } ?? .string(text))
            for k in m.map(\.key) where k != "constant" {
                r.issue(g(k), "\(path).\(k)", "'\(k)' does not apply to a constant")
            }
            return FieldSpec(spec)
        }
        let derivedKeys = ["difference", "sum"].filter { g($0) != nil }
        if let op = derivedKeys.first {
            if derivedKeys.count > 1 || g("from") != nil {
                r.issue(node, path, "a field is either read (from/offset/length) or derived (difference or sum), not both")
            }
            let refs = (r.sequence(g(op), "\(path).\(op)") ?? []).compactMap { r.string($0, "\(path).\(op)") }
            if refs.count != 2 { r.issue(g(op), "\(path).\(op)", "\(op) takes exactly two field names, e.g. [balance, older.balance]") }
            spec.source = .derived(FieldSpec.DerivedOperation(rawValue: op)!, refs)
            spec.optional = g("optional").flatMap { r.bool($0, "\(path).optional") } ?? false
            spec.absentIsZero = g("absent-is-zero").flatMap { r.bool($0, "\(path).absent-is-zero") } ?? false
            if spec.type == .minutes, g("zone") != nil || g("epoch") != nil {
                r.issue(g("zone") ?? g("epoch"), path, "type minutes is a time of day: it takes no epoch or zone")
            }
            for k in m.map(\.key) where !["difference", "sum", "optional", "absent-is-zero"].contains(k) {
                r.issue(g(k), "\(path).\(k)", "'\(k)' does not apply to a derived field")
            }
            return FieldSpec(spec)
        }

        if let from = g("from") {
            guard let text = r.string(from, "\(path).from") else { return nil }
            // (In trips, `from` may name only an answer of `trips.join`: checked with the steps.)
            let parts = text.split(separator: ":", maxSplits: 1)
            let answer = String(parts.first ?? "")
            var tlvPath: TLVPath? = nil
            if parts.count == 2 {
                tlvPath = try? TLVPath(String(parts[1]))
                if tlvPath == nil {
                    r.issue(from, "\(path).from", "'\(parts[1])' is not a tag path (e.g. fci:6F/A5/9F0C)")
                }
            }
            spec.source = .answer(answer, tlvPath: tlvPath)
            if let t = g("tag") { r.issue(t, "\(path).tag", "a field reads 'from' an answer or finds a 'tag', not both") }
        } else if let t = g("tag") {
            guard let tags = DependentStepParser.tags(t, "\(path).tag", r) else { return nil }
            spec.source = .tags(tags)
        } else if !inTrips {
            r.issue(node, "\(path).from", "required key 'from' is missing (the answer to read)")
            return nil
        }

        spec.offset = r.int(g("offset"), "\(path).offset", range: 0...65535) ?? 0
        spec.length = g("length").flatMap { r.int($0, "\(path).length", range: 1...4096) }
        if let t = r.string(g("type"), "\(path).type") {
            if let type = FieldType(rawValue: t) {
                spec.type = type
            } else {
                r.issue(
                    g("type"), "\(path).type",
                    "unknown type '\(t)' (expected one of: \(FieldType.allCases.map(\.rawValue).joined(separator: ", ")))")
                return nil
            }
        }
        spec.bitSource = parseBitSource(m, node, path, spec.type)
        spec.timeField = r.string(g("time-field"), "\(path).time-field")
        if let t = r.string(g("time-type"), "\(path).time-type") {
            switch t {
            case "minutes": spec.timeFieldKind = .minutes
            case "packed-time": spec.timeFieldKind = .packedTime
            case "seconds": spec.timeFieldKind = .seconds
            default: r.issue(g("time-type"), "\(path).time-type", "time-type is 'minutes', 'packed-time' or 'seconds', not '\(t)'")
            }
            if spec.timeField == nil { r.issue(g("time-type"), "\(path).time-type", "'time-type' says how 'time-field' counts: give both") }
        }
        if spec.timeField != nil {
            if (spec.type != .days && spec.type != .packedDate)
                || !(spec.bitSource.map { if case .named = $0 { return true } else { return false } } ?? false)
            {
                r.issue(
                    g("time-field"), "\(path).time-field",
                    "'time-field' joins a `days` or `packed-date` date and a time of day a layout decoded: use it with one of those types and `field`"
                )
            }
            if g("zone") == nil {
                r.issue(node, "\(path).zone", "a date with a time-field needs 'zone' (the card's UTC offset, e.g. +01:00)")
            }
        }
        if spec.type == .letters, spec.bitSource == nil {
            r.issue(g("type"), "\(path).type", "type letters reads 5-bit letters: give the bits with 'field' or 'bit-offset'/'bit-length'")
        }
        if let tt = g("time-tag") {
            if spec.type != .bcdDate { r.issue(tt, "\(path).time-tag", "'time-tag' adds a time of day to a bcd-date") }
            spec.timeTag = DependentStepParser.tags(tt, "\(path).time-tag", r)?.first
        }
        if let pn = g("part"), let part = r.string(pn, "\(path).part") {
            if let p = FieldSpec.Track2Part(rawValue: part) {
                spec.track2Part = p
            } else {
                r.issue(
                    pn, "\(path).part",
                    "unknown part '\(part)' (expected \(FieldSpec.Track2Part.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if spec.type != .track2 { r.issue(pn, "\(path).part", "'part' says which part of Track 2 data a `track2` field is") }
        }
        if let mn = g("mask-digits") {
            let ns = (r.sequence(mn, "\(path).mask-digits") ?? []).compactMap { r.int($0, "\(path).mask-digits", range: 0...19) }
            if ns.count == 2 {
                spec.maskDigits = (ns[0], ns[1])
            } else {
                r.issue(
                    mn, "\(path).mask-digits",
                    "mask-digits is [FIRST, LAST]: how many leading and trailing digits stay visible, e.g. [6, 4]")
            }
        }
        let tagged: Bool = { if case .tags = spec.source { return true } else { return false } }()
        if spec.type == .bcdDate, spec.length == 3 || (tagged && spec.length == nil) {
            // YYMMDD (EMV's dates): three bytes, the century from year-base.
        } else if let fixed = spec.type.fixedLength, spec.bitSource == nil {
            if let l = spec.length, l != fixed {
                r.issue(g("length"), "\(path).length", "type \(spec.type.rawValue) is \(fixed) bytes, not \(l)")
            }
            spec.length = fixed
        }
        if spec.bitSource != nil {
            // Bits, not bytes: the width is the bit length (or the layout's), checked there.
        } else if spec.length == nil, spec.type.isInteger, !tagged {
            r.issue(node, "\(path).length", "an integer field needs 'length' (1 to 8 bytes)")
        } else if spec.type.isInteger, spec.type != .bcd, let l = spec.length, l > 8 {
            r.issue(g("length"), "\(path).length", "an integer field is at most 8 bytes, not \(l)")
        } else if spec.type == .bcd, let l = spec.length, l > 9 {
            r.issue(g("length"), "\(path).length", "a BCD number is at most 9 bytes (18 digits, what a 64-bit integer holds), not \(l)")
        }
        if let e = r.string(g("endian"), "\(path).endian") {
            switch e {
            case "big": spec.littleEndian = false
            case "little": spec.littleEndian = true
            default: r.issue(g("endian"), "\(path).endian", "endian is 'big' or 'little', not '\(e)'")
            }
        }
        if let bitsNode = g("bits") {
            if let text = r.string(bitsNode, "\(path).bits") {
                if let range = FieldParser.bitRange(text, below: (spec.length ?? 8) * 8) {
                    spec.bits = range
                } else {
                    r.issue(
                        bitsNode, "\(path).bits",
                        "'\(text)' is not a bit range inside the field (e.g. 0-30; bit 0 is the least significant)")
                }
            }
        }
        if let maskNode = g("mask"), let v = r.int(maskNode, "\(path).mask") { spec.mask = UInt64(truncatingIfNeeded: v) }
        spec.scale = g("scale").flatMap { r.int($0, "\(path).scale") } ?? 1
        spec.add = g("add").flatMap { r.int($0, "\(path).add") } ?? 0
        spec.divide = g("divide").flatMap { r.int($0, "\(path).divide", range: 1...1_000_000_000) } ?? 1
        if let mapNode = g("map") {
            var table: [Int: String] = [:]
            for (k, v) in r.mapping(mapNode, "\(path).map") ?? [] {
                guard let code = YAMLReader.parseInt(k) else {
                    r.issue(mapNode, "\(path).map", "map keys are numbers (e.g. 0x06), not '\(k)'")
                    continue
                }
                if let word = r.string(v, "\(path).map.\(k)") { table[code] = word }
            }
            spec.map = table
        }
        if let tn = g("table"), let name = r.string(tn, "\(path).table") {
            if spec.map != nil { r.issue(tn, "\(path).table", "a field takes its names from 'map' or 'table', not both") }
            switch LookupTable.load(name, near: r.file) {
            case .success(let t):
                spec.map = t.entries
                spec.table = name
                spec.hexCodes = t.hexCodes
            case .failure(let e):
                for i in e.issues {
                    r.issue(tn, "\(path).table", i.file == r.file ? i.reason : "\(i.file):\(i.line):\(i.column): \(i.reason)")
                }
            }
        }
        spec.mapDefault = r.string(g("default"), "\(path).default")
        if spec.mapDefault != nil, spec.map == nil, g("table") == nil {
            r.issue(g("default"), "\(path).default", "'default' only applies with 'map' or 'table'")
        }
        spec.whenPresent = r.string(g("when-present"), "\(path).when-present")
        if spec.whenPresent != nil, !inTrips {
            r.issue(g("when-present"), "\(path).when-present", "'when-present' asks the record's layout: it belongs in trips or contracts")
        }
        if let wn = g("when") {
            spec.condition = parseCondition(wn, "\(path).when")
            if !inTrips { r.issue(wn, "\(path).when", "'when' tests a value of the record's layout: it belongs in trips or contracts") }
        }
        spec.personal = g("personal").flatMap { r.bool($0, "\(path).personal") } ?? false
        if let sn = g("slice") {
            spec.slice = r.int(sn, "\(path).slice", range: 1...255)
            if g("from") == nil || !inContracts {
                r.issue(sn, "\(path).slice", "'slice' reads an answer ('from') per contract: it belongs in contracts.fields")
            }
        }
        if let rn = g("record") {
            spec.record = r.int(rn, "\(path).record", range: 1...254)
            if g("from") == nil || inTrips {
                r.issue(rn, "\(path).record", "'record' picks one record of an answer ('from') for a card field or the balance")
            }
        }
        if let e = r.string(g("epoch"), "\(path).epoch") {
            if let d = CivilDate(iso: e) {
                spec.epoch = d
            } else {
                r.issue(g("epoch"), "\(path).epoch", "'\(e)' is not a date (YYYY-MM-DD)")
            }
        }
        if let z = r.string(g("zone"), "\(path).zone") {
            if let minutes = UTCOffset.parse(z) {
                spec.zoneMinutes = minutes
            } else if z.contains("/"), let tz = TimeZone(identifier: z) {
                spec.timeZone = tz
                spec.zoneMinutes = tz.secondsFromGMT() / 60
            } else {
                r.issue(g("zone"), "\(path).zone", "'\(z)' is not a UTC offset (e.g. +08:00) or a time zone name (e.g. Europe/Paris)")
            }
        }
        spec.utc = g("utc").flatMap { r.bool($0, "\(path).utc") } ?? false
        if let cs = g("clock-shift"), let m = r.mapping(cs, "\(path).clock-shift", allowed: ["before", "seconds"]) {
            let cg = { (k: String) in m.node(k) }
            let before = r.string(cg("before"), "\(path).clock-shift.before")
            let moment = before.flatMap { CivilDate.unixSeconds(isoMoment: $0) }
            if before == nil || (before != nil && moment == nil) {
                r.issue(cs, "\(path).clock-shift.before", "'before' is a moment with its offset, e.g. \"2019-01-01T00:00:00+07:00\"")
            }
            let seconds = r.int(cg("seconds"), "\(path).clock-shift.seconds", range: -86400 * 366...86400 * 366)
            if cg("seconds") == nil { r.issue(cs, "\(path).clock-shift.seconds", "required key 'seconds' is missing") }
            if !spec.utc || spec.type != .seconds {
                r.issue(
                    cs, "\(path).clock-shift",
                    "'clock-shift' corrects a `seconds` count kept in UTC: use it with type seconds and utc: true")
            }
            if let moment, let seconds, let epoch = spec.epoch {
                spec.clockShift = (moment - epoch.daysSinceUnixEpoch * 86400, seconds)
            }
        }
        if spec.utc, spec.type != .seconds {
            r.issue(g("utc"), "\(path).utc", "'utc' says a `seconds` count runs in UTC: use it with type seconds")
        }
        if spec.type == .days || spec.type == .seconds, g("epoch") == nil {
            r.issue(node, "\(path).epoch", "type \(spec.type.rawValue) needs 'epoch' (the date it counts from)")
        }
        if spec.type == .seconds || spec.type == .bcdDateTime, g("zone") == nil {
            r.issue(node, "\(path).zone", "type \(spec.type.rawValue) needs 'zone' (the card's UTC offset, e.g. +08:00)")
        }
        spec.yearBase = g("year-base").flatMap { r.int($0, "\(path).year-base", range: 1900...2100) } ?? 2000
        spec.dropDigits = g("drop-digits").flatMap { r.int($0, "\(path).drop-digits", range: 0...64) } ?? 0
        spec.stripZeros = g("strip-zeros").flatMap { r.bool($0, "\(path).strip-zeros") } ?? false
        spec.zeroMeansNone = g("zero-means-none").flatMap { r.bool($0, "\(path).zero-means-none") } ?? false
        if spec.zeroMeansNone, ![.uint, .int, .days, .seconds, .minutes].contains(spec.type) {
            r.issue(
                g("zero-means-none"), "\(path).zero-means-none",
                "'zero-means-none' applies to integers, days and seconds, not \(spec.type.rawValue)")
        }
        var text = NumberText()
        if let c = r.string(g("check-digit"), "\(path).check-digit") {
            if c == "luhn" {
                text.luhn = true
            } else if let check = FieldSpec.CheckDigit(rawValue: c) {
                spec.checkDigit = check
            } else {
                r.issue(g("check-digit"), "\(path).check-digit", "unknown check digit '\(c)' (expected luhn or digit-sum-10)")
            }
        }
        text.digits = g("digits").flatMap { r.int($0, "\(path).digits", range: 1...40) }
        text.prefix = r.string(g("prefix"), "\(path).prefix") ?? ""
        text.suffix = r.string(g("suffix"), "\(path).suffix") ?? ""
        for (i, n) in (r.list(g("group"), "\(path).group") ?? []).enumerated() {
            if let size = r.int(n, "\(path).group[\(i)]", range: 1...40) { text.group.append(size) }
        }
        if text != NumberText() {
            spec.numberText = text
            if g("digits") != nil, ![.uint, .int, .bcd].contains(spec.type) {
                r.issue(g("digits"), "\(path).digits", "'digits' pads an integer's decimal digits, not \(spec.type.rawValue)")
            }
            if spec.map != nil || spec.checkDigit != nil {
                r.issue(
                    g("prefix") ?? g("group") ?? g("digits") ?? g("check-digit"), path,
                    "a card number's text does not go with 'map' or 'check-digit: digit-sum-10'")
            }
        }
        if let f = r.string(g("format"), "\(path).format") {
            if f == "decimal" {
                spec.decimalText = true
            } else {
                r.issue(g("format"), "\(path).format", "unknown format '\(f)' (expected decimal)")
            }
        }
        spec.optional = g("optional").flatMap { r.bool($0, "\(path).optional") } ?? false
        let integerOnly = ["endian", "bits", "mask", "scale", "add", "divide", "map", "check-digit", "format", "table"]
        if !spec.type.isInteger {
            for k in integerOnly where g(k) != nil && !(k == "endian" && (spec.type == .packedDate || spec.type == .hex)) {
                r.issue(g(k), "\(path).\(k)", "'\(k)' applies to integer types, not \(spec.type.rawValue)")
            }
        }
        return FieldSpec(spec)
    }
}

extension FieldParser {
    /// `bit-offset` + `bit-length` (a fixed bit range) or `field` (a layout's value); neither
    /// goes with `offset`/`length`. Widths the type cannot hold are refused here.
    func parseBitSource(_ m: [(key: String, node: Node)], _ node: Node, _ path: String, _ type: FieldType) -> FieldSpec.BitSource? {
        let r = reader
        let g = { (k: String) in m.node(k) }
        let positional = g("bit-offset") != nil || g("bit-length") != nil
        let named = g("field") != nil
        guard positional || named else { return nil }
        if positional && named {
            r.issue(node, path, "a field is at a fixed bit place (bit-offset, bit-length) or a layout's value (field), not both")
        }
        for k in ["offset", "length"] where g(k) != nil {
            r.issue(g(k), "\(path).\(k)", "'\(k)' counts bytes: a field read by bits leaves it out")
        }
        if named {
            guard let name = r.string(g("field"), "\(path).field"), !name.isEmpty else { return nil }
            return .named(name)
        }
        if g("bit-offset") == nil {
            r.issue(node, "\(path).bit-offset", "'bit-length' needs 'bit-offset' (bit 0 is the top bit of byte 0)")
        }
        if g("bit-length") == nil { r.issue(node, "\(path).bit-length", "'bit-offset' needs 'bit-length'") }
        guard let offset = r.int(g("bit-offset"), "\(path).bit-offset", range: 0...(4096 * 8)),
            let length = r.int(g("bit-length"), "\(path).bit-length", range: 1...4096)
        else { return nil }
        if let problem = FieldParser.widthProblem(type, length) { r.issue(g("bit-length"), "\(path).bit-length", problem) }
        return .position(offset: offset, length: length)
    }

    /// `when: { field: NAME, bits: 10-12, in: VALUES }` (or `not-in: VALUES`); values as in a
    /// layout's `choose` (a number, a range such as 0-2, or a list of them).
    func parseCondition(_ node: Node, _ path: String) -> FieldSpec.Condition? {
        let r = reader
        guard let m = r.mapping(node, path, allowed: ["field", "bits", "in", "not-in"]) else { return nil }
        let g = { (k: String) in m.node(k) }
        guard let field = r.string(g("field"), "\(path).field") else {
            if g("field") == nil { r.issue(node, "\(path).field", "'when' names the layout value it tests: field") }
            return nil
        }
        var bits: ClosedRange<Int>?
        if let text = r.string(g("bits"), "\(path).bits") {
            if let range = FieldParser.bitRange(text, below: 64) {
                bits = range
            } else {
                r.issue(g("bits"), "\(path).bits", "'\(text)' is not a bit range (e.g. 10-12; bit 0 is the least significant)")
            }
        }
        let tests = ["in", "not-in"].filter { g($0) != nil }
        guard tests.count == 1 else {
            r.issue(node, path, "'when' takes 'in' or 'not-in' (the values that let the field through, or those that do not), one of them")
            return nil
        }
        let values = BitLayoutParser.parseValues(g(tests[0]), "\(path).\(tests[0])", r)
        return FieldSpec.Condition(field: field, bits: bits, values: values, negated: tests[0] == "not-in")
    }

    /// `lo-hi` (`4-11`): bits of a value, 0 the least significant, all below `limit`.
    static func bitRange(_ text: String, below limit: Int) -> ClosedRange<Int>? {
        let ends = text.split(separator: "-").map { Int($0.trimmingCharacters()) }
        guard ends.count == 2, let lo = ends[0], let hi = ends[1], 0 <= lo, lo <= hi, hi < limit else { return nil }
        return lo...hi
    }

    /// Why `width` bits can never decode as `type`, or nil when they can.
    static func widthProblem(_ type: FieldType, _ width: Int) -> String? {
        switch type {
        case .uint, .int, .days, .seconds, .minutes:
            return width > 64 ? "an integer is at most 64 bits, not \(width)" : nil
        case .bcd: return width > 72 ? "a BCD number is at most 72 bits (18 digits), not \(width)" : nil
        case .bcdDate: return width != 32 ? "a BCD date is 32 bits (YYYYMMDD), not \(width)" : nil
        case .bcdDateTime: return width != 56 ? "a BCD date and time is 56 bits (YYYYMMDDhhmmss), not \(width)" : nil
        case .packedDate: return width > 16 ? "a packed date is at most 16 bits, not \(width)" : nil
        case .letters: return width % 5 != 0 ? "5-bit letters take a multiple of 5 bits, not \(width)" : nil
        case .packedTime: return width > 16 ? "a packed time is at most 16 bits, not \(width)" : nil
        case .hex, .ascii, .latin1, .track2: return nil
        }
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
