/// Keys of profile format 1 and how format 2 writes them (docs/profile-format.md §Changes from
/// format 1): a profile that still uses one is refused with the new spelling, at its line.
public enum LanguageRenames {
    /// By place: each format-1 key, and how format 2 writes it (the words the refusal quotes).
    public static let table: [LanguageKey.Place: [String: String]] = [
        .check: ["answer": "'from' (the answer checked)"],
        .detect: ["order": "'priority' (order is the trips' own)"],
        .step: [
            "reverse-bytes": "'endian: little'",
            "slots": "'records: { offset: …, size: …, count: … }'",
            "record-size": "'records: { size: … }'",
            "dol": "'data: { dol: …, template: … }'",
        ],
        .readBlocks: ["records": "on the step: 'records: { size: 16 }' (each block a record)"],
        .readRecords: ["sequence": "'transaction-number'"],
        .copies: ["sequence": "'counter'"],
        .element: ["skip": "'unused'", "default": "'otherwise'"],
        .contractLayout: ["default": "'otherwise'", "bits": "'bit-range'"],
        .field: [
            "bits": "'bit-range'",
            "zone": "the profile's own 'zone' (the card's time zone, once)",
            "time-field": "'field: [DATE, TIME]'",
            "time-type": "the time element's type (minutes, packed-time or seconds-of-day)",
            "when-present": "'when: { field: NAME }'",
            "zero-means-none": "'unset: 0'",
        ],
        .condition: ["bits": "'bit-range'"],
        .trips: [
            "skip-empty": "'skip: { unused: false }'", "skip-when-zero": "'skip: { zero: [...] }'",
            "record-length": "the answer's step: 'records: { size: … }'",
        ],
        .tripSource: [
            "skip-empty": "'skip: { unused: false }'", "skip-when-zero": "'skip: { zero: [...] }'",
            "record-length": "the answer's step: 'records: { size: … }'",
        ],
        .reference: ["byte": "'offset: N, length: 1'"],
    ]

    /// The old spellings at `place`.
    public static func at(_ place: LanguageKey.Place) -> [String: String] { table[place] ?? [:] }
}

/// Near misses: the known word closest to a misspelt one (a profile key, a profile id, a
/// subcommand).
public enum Spelling {
    /// The word of `candidates` at the smallest edit distance from `word`, when it is at most 2
    /// (and less than half the word): a typo, not another word.
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        for c in candidates {
            let d = distance(Array(word), Array(c))
            if d <= 2, d * 2 < max(word.count, 2), best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// What `word` may have meant among `ids` (dash-separated names such as profile ids): the
    /// nearest by spelling, else the one id it begins or names a part of (`shanghai` →
    /// `shanghai-transit`), else nil.
    public static func suggestion(_ word: String, among ids: [String]) -> String? {
        if let near = nearest(word, among: ids) { return near }
        let w = word.lowercased()
        let parts = ids.filter { id in id.hasPrefix(w + "-") || id.split(separator: "-").contains { $0 == w } }
        return parts.count == 1 ? parts[0] : nil
    }

    /// Levenshtein distance, transpositions counted once (Damerau's restricted form).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
