/// Turns a ``FieldDraft`` into the ``FieldSpec`` the report reads, once the types and layouts
/// are known: its settings over its type's over its layout element's, then the checks of what
/// can never decode (each at the key's line).
struct FieldResolver {
    let types: TypeCatalog
    /// The card's time zone (`zone`), for date-times.
    let zone: CivilZone?

    /// The layout elements a field may read: each candidate layout's element for a name (several
    /// when a contract's layout is chosen per record).
    typealias Elements = (String) -> [FieldSettings?]

    func finish(_ d: FieldDraft, elements: Elements) -> FieldSpec? {
        var spec = d.spec
        if d.isDerived || d.isConstant { return FieldSpec(spec) }
        let s = d.section
        guard let own = typeSettings(d) else { return nil }
        var base = FieldSettings(type: .uint)
        if d.typeName == nil, d.settings.type == nil, let first = d.layoutValues.first {
            // The element's type, when every layout the field may read agrees on it.
            let found = elements(first)
            if let typed = found.compactMap({ $0 }).first {
                if found.contains(where: { $0 != nil && $0 != typed }) {
                    s["field"].issue("'\(first)' has different types in the layouts this field may read: give the field a 'type'")
                }
                base = typed.over(base)
            }
        }
        let settings = d.settings.over(own.over(base))
        settings.apply(to: &spec)
        spec.zoneMinutes = zone?.currentMinutes
        spec.timeZone = zone?.timeZone
        if let time = spec.timeField { timeOfDay(&spec, time, elements(time), s) }
        if let (moment, seconds) = spec.clockShift, let epoch = spec.epoch {
            spec.clockShift = (moment - epoch.daysSinceUnixEpoch * 86400, seconds)
        }
        lengths(&spec, s)
        checks(spec, s)
        return FieldSpec(spec)
    }

    /// The settings the field's own `type` gives (a base or a named type).
    private func typeSettings(_ d: FieldDraft) -> FieldSettings? {
        guard let name = d.typeName else { return FieldSettings() }
        return types.resolve(name, base: nil, at: d.section["type"])
    }

    /// The second of `field: [DATE, TIME]`: a time of day, as its element's type says.
    private func timeOfDay(_ spec: inout FieldSpec.Layout, _ name: String, _ found: [FieldSettings?], _ s: Section) {
        if spec.type != .days && spec.type != .packedDate {
            s["field"].issue("'field: [DATE, TIME]' joins a `days` or `packed-date` date and a time of day, not a \(spec.type.rawValue)")
        }
        if let t = found.compactMap({ $0 }).first?.type {
            guard let kind = t.timeOfDay else {
                s["field"].issue("'\(name)' is a \(t.rawValue), not a time of day (minutes, packed-time or seconds-of-day)")
                return
            }
            spec.timeFieldKind = kind
        }
        if zone == nil, !s.hasOldSpelling(of: "zone") {
            s["field"].issue("a date with a time of day needs the profile's 'zone' (the card's time zone)")
        }
    }

    /// Byte lengths the type fixes or needs.
    private func lengths(_ spec: inout FieldSpec.Layout, _ s: Section) {
        let tagged: Bool = { if case .tags = spec.source { return true } else { return false } }()
        if spec.type == .bcdDate, spec.length == 3 || (tagged && spec.length == nil) {
            // YYMMDD (EMV's dates): three bytes, the century from year-base.
        } else if let fixed = spec.type.fixedLength, spec.bitSource == nil {
            if let l = spec.length, l != fixed { s["length"].issue("type \(spec.type.rawValue) is \(fixed) bytes, not \(l)") }
            spec.length = fixed
        }
        guard spec.bitSource == nil else { return }  // bits: the width is checked against the layout
        if spec.length == nil, spec.type.isInteger, !tagged {
            s["length"].issue("an integer field needs 'length' (1 to 8 bytes)")
        } else if spec.type.isInteger, spec.type != .bcd, let l = spec.length, l > 8 {
            s["length"].issue("an integer field is at most 8 bytes, not \(l)")
        } else if spec.type == .bcd, let l = spec.length, l > 9 {
            s["length"].issue("a BCD number is at most 9 bytes (18 digits, what a 64-bit integer holds), not \(l)")
        }
        if let r = spec.bitRange, r.upperBound >= (spec.length ?? 8) * 8 {
            s["bit-range"].issue("bits \(r.lowerBound)-\(r.upperBound) are not inside a \((spec.length ?? 8) * 8)-bit field")
        }
    }

    /// What the settings cannot do together, whichever of field, type and element gave them.
    private func checks(_ spec: FieldSpec.Layout, _ s: Section) {
        let t = spec.type
        if t == .letters, spec.bitSource == nil {
            s["type"].issue("type letters reads 5-bit letters: give the bits with 'field' or 'bit-offset'/'bit-length'")
        }
        if s.has("time-tag"), t != .bcdDate { s["time-tag"].issue("'time-tag' adds a time of day to a bcd-date") }
        if s.has("part"), t != .track2 { s["part"].issue("'part' says which part of Track 2 data a `track2` field is") }
        if t == .days || t == .seconds, spec.epoch == nil, spec.epochField == nil {
            (s.has("type") ? s["type"] : s.cursor).issue("type \(t.rawValue) needs 'epoch' (the date it counts from)")
        }
        // A field's own zone (format 1) is refused with the new spelling: one problem, not two.
        if t == .seconds || t == .bcdDateTime, zone == nil, !s.hasOldSpelling(of: "zone") {
            (s.has("type") ? s["type"] : s.cursor).issue("type \(t.rawValue) needs the profile's 'zone' (the card's time zone)")
        }
        if spec.utc, t != .seconds, t != .days || spec.timeField == nil {
            s["utc"].issue("'utc' says a count runs in UTC: use it with type seconds, or days joined with a time ('field: [DATE, TIME]')")
        }
        if s.has("clock-shift"), !spec.utc || t != .seconds {
            s["clock-shift"].issue("'clock-shift' corrects a `seconds` count kept in UTC: use it with type seconds and utc: true")
        }
        if spec.unset != nil, ![.uint, .int, .money, .days, .seconds, .minutes].contains(t) {
            s["unset"].issue("'unset' applies to integers, days and seconds, not \(t.rawValue)")
        }
        if spec.mapDefault != nil, spec.map == nil { s["default"].issue("'default' only applies with 'map' or 'table'") }
        if let bit = spec.signBit {
            if t == .int { s["sign-bit"].issue("'sign-bit' reads a sign and a magnitude: use it with uint, not int (two's complement)") }
            if let length = spec.length, bit >= 8 * length {
                s["sign-bit"].issue("bit \(bit) is not in the field's \(length) byte(s)")
            }
        }
        if let text = spec.numberText {
            if text.digits != nil, ![.uint, .int, .bcd].contains(t) {
                s["digits"].issue("'digits' pads an integer's decimal digits, not \(t.rawValue)")
            }
            if spec.map != nil { s.cursor.issue("a card number's text does not go with 'map' or 'table'") }
        }
        if !t.isInteger {
            for k in ["bit-range", "mask", "scale", "add", "divide", "map", "table", "format", "sign-bit", "negative-if"] where s.has(k) {
                s[k].issue("'\(k)' applies to integer types, not \(t.rawValue)")
            }
            if s.has("endian"), t != .hex, t != .packedDate {
                s["endian"].issue("'endian' applies to integer types, hex and packed-date, not \(t.rawValue)")
            }
        }
        if t == .bcd {
            for k in ["bit-range", "mask", "endian"] where s.has(k) {
                s[k].issue("'\(k)' applies to a binary integer: a bcd number is read digit by digit")
            }
        }
        if case .position(_, let length)? = spec.bitSource, let problem = Self.widthProblem(t, length) { s["bit-length"].issue(problem) }
    }

    /// Why `width` bits can never decode as `type`, or nil when they can.
    static func widthProblem(_ type: FieldType, _ width: Int) -> String? {
        switch type {
        case .uint, .int, .money, .days, .seconds, .minutes, .secondsOfDay:
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
