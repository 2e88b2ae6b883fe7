import APDU

/// The one grammar that names a value in the answers (docs/profile-format.md §Value
/// references): an answer (`app`), a BER-TLV object inside one (`app:6F/A5/9F0C`), or a mapping
/// `{ from: ANSWER[:PATH], tag: [TAGS], offset: N, length: N }` — the first object with one of
/// the tags (inside `from`, else in any answer, newest first), then some of its bytes. Fields,
/// checks, steps and trips all name values this way.
enum ReferenceParser {
    /// `ANSWER` or `ANSWER:TAG/PATH`.
    static func answer(_ c: Cursor) -> (answer: String, path: TLVPath?)? {
        guard let text = c.text() else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "/" }) else {
            c.issue("'\(text)' names no answer (e.g. fci, or fci:6F/A5/9F38 for an object inside it)")
            return nil
        }
        guard parts.count == 2 else { return (name, nil) }
        guard let path = try? TLVPath(parts[1]) else {
            c.issue("'\(parts[1])' is not a tag path (e.g. fci:6F/A5/9F38)")
            return nil
        }
        return (name, path)
    }

    /// A value reference: `ANSWER[:PATH]`, or a mapping.
    static func reference(_ c: Cursor) -> ValueReference? {
        guard c.exists else { return nil }
        if !c.isMapping {
            guard let (name, path) = answer(c) else { return nil }
            return ValueReference(place: .answer(name, path), line: c.line)
        }
        guard let s = c.section(.reference) else { return nil }
        var ref: ValueReference
        switch (s.has("from"), s.has("tag")) {
        case (true, true):
            guard let (name, path) = answer(s["from"]), let tags = tags(s["tag"]) else { return nil }
            if path != nil { s["from"].issue("with 'tag', 'from' names an answer only (the tag is looked for anywhere in it)") }
            ref = ValueReference(place: .tagsIn(name, tags), line: c.line)
        case (true, false):
            guard let (name, path) = answer(s["from"]) else { return nil }
            ref = ValueReference(place: .answer(name, path), line: c.line)
        case (false, true):
            guard let tags = tags(s["tag"]) else { return nil }
            ref = ValueReference(place: .tags(tags), line: c.line)
        case (false, false):
            c.issue(
                "a value is found by 'from' (an answer or ANSWER:TAG/PATH), by 'tag' (in any answer), or by both (a tag inside that answer)"
            )
            return nil
        }
        ref.offset = s["offset"].int(0...4095) ?? 0
        ref.length = s.has("length") ? s["length"].int(1...4096) : nil
        return ref
    }

    /// One tag or a list of them (`57` or `[5A, 57]`).
    static func tags(_ c: Cursor) -> [TLVTag]? {
        let items = c.oneOrList() ?? []
        let out = items.compactMap { $0.tag() }
        if items.isEmpty { c.issue("the list of tags is empty") }
        return out.count == items.count && !out.isEmpty ? out : nil
    }
}
