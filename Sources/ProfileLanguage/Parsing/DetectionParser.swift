import APDU

/// `detect` (docs/profile-format.md §Recognising the card): ATR patterns, checks on the
/// answers read so far, and a priority among profiles.
enum DetectionParser {
    static func parse(_ c: Cursor) -> Profile.Detection {
        var d = Profile.Detection()
        guard let s = c.section(.detect) else { return d }
        for a in s["atr"].oneOrList() ?? [] {
            guard let text = a.text() else { continue }
            do {
                let pattern = try Transcript.parsePattern(text)
                if pattern.isEmpty { a.issue("empty ATR pattern") } else { d.atr.append(pattern) }
            } catch { a.issue("bad ATR pattern '\(text)': \(error.reason)") }
        }
        for q in s["require"].sequence() ?? [] { if let r = check(q) { d.require.append(r) } }
        d.priority = s["priority"].int(0...1000) ?? 100
        return d
    }

    /// `{ from: info, offset: 2, equals: "20 00" }`, `{ from: env, field: network, equals: 0x250901 }`,
    /// or `{ from: app }` (the step succeeded).
    static func check(_ c: Cursor) -> Profile.Requirement? {
        guard let s = c.section(.check), let answer = s.required("from", "the answer checked")?.name() else { return nil }
        var req = Profile.Requirement(answer: answer, offset: 0, equals: [], mask: nil, line: c.line)
        if s.has("field") {
            // A layout value: equals and mask are numbers (0x250901), not bytes.
            guard let field = s["field"].text() else { return nil }
            if s.has("offset") { s["offset"].issue("'offset' counts bytes: a check of a layout value leaves it out") }
            guard let value = s.required("equals", "a number, e.g. 0x250901")?.int() else { return nil }
            req.field = field
            req.fieldValue = UInt64(truncatingIfNeeded: value)
            req.fieldMask = s.has("mask") ? s["mask"].int().map { UInt64(truncatingIfNeeded: $0) } : nil
            return req
        }
        req.offset = s["offset"].int(0...65535) ?? 0
        if s.has("equals") {
            guard let equals = s["equals"].hex(), !equals.isEmpty else { return nil }
            req.equals = equals
            if s.has("one-of") { s["one-of"].issue("a check takes 'equals' or 'one-of', not both") }
        } else if s.has("one-of") {
            let list = (s["one-of"].sequence() ?? []).compactMap { $0.hex(1...64) }
            guard let first = list.first else {
                s["one-of"].issue("one-of lists the byte strings allowed, e.g. [\"30 DE\", \"31 86\"]")
                return nil
            }
            if list.contains(where: { $0.count != first.count }) { s["one-of"].issue("the byte strings of one-of have one length") }
            req.equals = first
            req.oneOf = list
        }
        if s.has("mask"), let mask = s["mask"].hex() {
            if mask.count != req.equals.count { s["mask"].issue("mask has \(mask.count) byte(s) but equals has \(req.equals.count)") }
            req.mask = mask
        }
        req.record = s.has("record") ? s["record"].int(1...254) : nil
        if s.has("key-md5") {
            let digests = (s["key-md5"].oneOrList() ?? []).compactMap { $0.hex(16...16) }
            req.keyDigests = digests.map { $0.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
            req.salt = s.required("salt", "the text the key is hashed between, e.g. podorozhnik")?.text() ?? ""
            for k in ["offset", "equals", "one-of", "mask", "field", "record"] where s.has(k) {
                s[k].issue("a check of the key's hash checks no bytes: '\(k)' does not apply")
            }
        } else if s.has("salt") {
            s["salt"].issue("'salt' goes with 'key-md5'")
        }
        return req
    }
}
