import APDU

/// Where a step finds a value in the answers read before it (docs/profile-format.md §Steps
/// that depend on earlier answers): an answer, a BER-TLV object inside one, or the first
/// object with one of some tags anywhere in the answers — then some of its bytes.
///
/// Written `app:6F/A5/9F38` (an answer, or a path inside it), or as a mapping
/// `{ from: gpo:80, offset: 2 }`, `{ tag: [9F4D, DF60], offset: 0, length: 1 }`.
public struct ValueReference: Sendable, CustomStringConvertible {
    /// Where the value is looked for.
    public enum Place: Sendable, Equatable {
        /// An answer, or the value at a BER-TLV path inside it (the path's first tag is the
        /// answer's own outermost object).
        case answer(String, TLVPath?)
        /// The first object carrying one of these tags (in this order of preference) in any
        /// answer, the newest answer first (``Answers/tlvValue(_:)``).
        case tags([TLVTag])
        /// The first object with one of these tags inside one answer, which may be any run
        /// of BER-TLV objects (a directory entry: `4F`, `50`, `87`).
        case tagsIn(String, [TLVTag])
    }

    /// Where the value is looked for: `from`, `tag`, or both.
    public var place: Place
    /// `offset`: the first byte taken of the value (default 0).
    public var offset = 0
    /// Byte count; nil: to the end.
    public var length: Int?
    /// The line the reference is written at, for problems found after parsing.
    public var line: Int

    /// `length` bytes (nil: to the end) from `offset` of the value at `place`, written at `line`.
    public init(place: Place, offset: Int = 0, length: Int? = nil, line: Int) {
        self.place = place
        self.offset = offset
        self.length = length
        self.line = line
    }

    /// The bytes, or nil when the answer is absent, has no such object, or is too short.
    public func bytes(in answers: Answers) -> [UInt8]? {
        let whole: [UInt8]
        switch place {
        case .answer(let name, let path):
            guard let data = answers.data(name) else { return nil }
            if let path {
                guard let node = try? BERTLV.parse(data), let hit = node.first(path: path) else { return nil }
                whole = hit.value
            } else {
                whole = data
            }
        case .tags(let tags):
            guard let v = answers.tlvValue(tags) else { return nil }
            whole = v
        case .tagsIn(let name, let tags):
            guard let data = answers.data(name), let nodes = try? BERTLV.parseAll(data),
                let hit = tags.lazy.compactMap({ Answers.find($0, in: nodes) }).first
            else { return nil }
            whole = hit.value
        }
        guard offset <= whole.count else { return nil }
        let end = length.map { offset + $0 } ?? whole.count
        guard end <= whole.count else { return nil }
        return Array(whole[offset..<end])
    }

    /// The answer it reads, when it names one (for load-time checks).
    public var answerName: String? {
        switch place {
        case .answer(let n, _), .tagsIn(let n, _): return n
        case .tags: return nil
        }
    }

    public var description: String {
        var text: String
        switch place {
        case .answer(let n, let p): text = p.map { "\(n):\($0)" } ?? n
        case .tags(let t): text = "tag " + t.map(\.description).joined(separator: " or ")
        case .tagsIn(let n, let t): text = "\(n)'s tag " + t.map(\.description).joined(separator: " or ")
        }
        if offset != 0 || length != nil { text += " bytes \(offset)…" + (length.map { String(offset + $0 - 1) } ?? "") }
        return text
    }
}

extension Answers {
    /// The value of the first BER-TLV object with one of `tags` (earlier tags preferred) in
    /// any answer, searching the newest answer first and each answer depth-first; each record
    /// of a records answer counts as an answer. Answers that are not BER-TLV are skipped.
    public func tlvValue(_ tags: [TLVTag]) -> [UInt8]? { Self.tlvValue(tags, in: tlvTrees()) }

    /// ``tlvValue(_:)`` over answers already parsed.
    package static func tlvValue(_ tags: [TLVTag], in trees: [[BERTLV]]) -> [UInt8]? {
        for tag in tags {
            for tree in trees { if let hit = Self.find(tag, in: tree) { return hit.value } }
        }
        return nil
    }

    /// Every answer (and record) that is BER-TLV, newest first. An answer counts when it
    /// parses whole and is a template (its first tag constructed: an FCI, a record `70`, a
    /// response `77`) or a single object (a GET DATA answer): a raw record that happens to
    /// parse as a run of small objects is not mistaken for data objects.
    package func tlvTrees() -> [[BERTLV]] {
        func tree(_ d: [UInt8]) -> [BERTLV]? {
            guard let t = try? BERTLV.parseAll(d), let first = t.first, first.tag.isConstructed || t.count == 1 else { return nil }
            return t
        }
        var out: [[BERTLV]] = []
        for name in names.reversed() {
            switch self[name] {
            case .data(let d)?: if let t = tree(d) { out.append(t) }
            case .records(let rs)?: for r in rs { if let t = tree(r) { out.append(t) } }
            default: break
            }
        }
        return out
    }

    package static func find(_ tag: TLVTag, in nodes: [BERTLV]) -> BERTLV? {
        for n in nodes {
            if n.tag == tag { return n }
            if let hit = find(tag, in: n.children) { return hit }
        }
        return nil
    }
}
