import APDU
import Yams

/// What one parse of a data file collects as it goes: its problems (every one, each with its
/// file, line, column and key path), which parts of the tree came from another file (a parent
/// profile's entries), and the commands its steps may send.
package final class ParseContext {
    let file: String
    var issues: [ProfileIssue] = []
    /// Key paths whose nodes came from another file (a profile's parent), longest first: a
    /// problem under one names that file.
    var origins: [(path: String, file: String)] = []
    /// The commands a profile's `command` steps may send (the known ones, plus its own when trusted).
    var commandPolicy = CommandPolicy.standard

    package init(file: String) { self.file = file }

    /// The file the key at `path` is written in.
    func file(of path: String) -> String {
        for o in origins where path == o.path || path.hasPrefix(o.path + ".") || path.hasPrefix(o.path + "[") { return o.file }
        return file
    }

    func issue(_ node: Node?, _ path: String, _ reason: String) { issue(mark: node?.mark, path, reason) }

    func issue(mark: Mark?, _ path: String, _ reason: String) {
        issues.append(ProfileIssue(file: file(of: path), line: mark?.line ?? 1, column: mark?.column ?? 1, path: path, reason: reason))
    }

    /// A problem found after parsing, at a line the model kept.
    func issue(line: Int, _ path: String, _ reason: String) {
        issues.append(ProfileIssue(file: file(of: path), line: line, column: 1, path: path, reason: reason))
    }

    var sortedIssues: [ProfileIssue] { issues.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) } }
}

/// A place in a data file's YAML tree: a node (nil when the key is absent) and the key path to
/// it. Reading a value through a cursor checks it and, when it is wrong, records the problem at
/// the cursor's line and path; a parser never builds a path by hand.
package struct Cursor {
    let node: Node?
    /// The key path, written out only when something names it (a problem, a trip source).
    private let trail: KeyTrail?
    let context: ParseContext
    /// Where the mapping a missing key would be written in is (for the line of "required key …
    /// is missing").
    private let parentMark: Mark?

    init(_ node: Node?, path: String, context: ParseContext) {
        self.init(node, trail: path.isEmpty ? nil : KeyTrail(parent: nil, step: .key(path)), context: context, parentMark: nil)
    }

    private init(_ node: Node?, trail: KeyTrail?, context: ParseContext, parentMark: Mark?) {
        self.node = node
        self.trail = trail
        self.context = context
        self.parentMark = parentMark
    }

    /// `card.number`, `steps[2].select`; empty at the top.
    var path: String { trail?.text ?? "" }
    var exists: Bool { node != nil }
    /// Where the node is, or the mapping a missing key belongs in.
    private var mark: Mark? { node?.mark ?? parentMark }
    /// The 1-based line of the node, or of the mapping a missing key belongs in.
    var line: Int { mark?.line ?? 1 }

    func issue(_ reason: String) { context.issue(mark: mark, path, reason) }

    /// The cursor of `key` under this one (a child of a mapping; absent when not there).
    func child(_ key: String, _ node: Node?) -> Cursor {
        Cursor(node, trail: KeyTrail(parent: trail, step: .key(key)), context: context, parentMark: mark)
    }

    func item(_ i: Int, _ node: Node) -> Cursor {
        Cursor(node, trail: KeyTrail(parent: trail, step: .index(i)), context: context, parentMark: self.node?.mark)
    }

    // MARK: Collections

    /// The mapping here, its keys checked against the language's keys of `place` (an unknown key
    /// is a problem naming the known ones, or what an older spelling is now written).
    func section(_ place: LanguageKey.Place) -> Section? {
        section(allowed: LanguageKeys.names(in: place), renamed: LanguageRenames.at(place))
    }

    /// The mapping here with its keys checked against `allowed` (nil: any text key).
    func section(allowed: [String]?, renamed: [String: String] = [:]) -> Section? {
        guard let node else { return nil }
        guard case .mapping(let m) = node else {
            issue("expected a mapping (key: value lines), found \(Self.kind(node))")
            return nil
        }
        var entries: [(key: String, cursor: Cursor)] = []
        var seen = Set<String>()
        var renamedHere: [String] = []  // what the format-1 keys given are written now
        for (k, v) in m {
            guard case .scalar(let ks) = k else {
                context.issue(k, path, "keys must be plain words")
                continue
            }
            let key = ks.string
            let at = child(key, v)
            if !seen.insert(key).inserted { context.issue(k, at.path, "duplicate key '\(key)'") }
            if let allowed, !allowed.contains(key) {
                context.issue(k, at.path, Self.unknownKey(key, allowed: allowed, renamed: renamed))
                if let now = renamed[key] { renamedHere.append(now) }
                continue
            }
            entries.append((key, at))
        }
        return Section(cursor: self, entries: entries, renamed: renamedHere)
    }

    /// What to say about an unknown key: its new spelling, a near miss, or the known keys.
    static func unknownKey(_ key: String, allowed: [String], renamed: [String: String]) -> String {
        if let now = renamed[key] { return "'\(key)' is written \(now) now (docs/profile-format.md §Changes from format 1)" }
        if let near = Spelling.nearest(key, among: allowed) { return "unknown key '\(key)': did you mean '\(near)'?" }
        return "unknown key '\(key)' (expected one of: \(allowed.joined(separator: ", ")))"
    }

    /// The items of a list here.
    func sequence() -> [Cursor]? {
        guard let node else { return nil }
        guard case .sequence(let s) = node else {
            issue("expected a list, found \(Self.kind(node))")
            return nil
        }
        return s.enumerated().map { item($0, $1) }
    }

    /// One value or a list of them, as a list (`[5A, 57]` or `57`).
    func oneOrList() -> [Cursor]? {
        guard let node else { return nil }
        if case .sequence(let s) = node { return s.enumerated().map { item($0, $1) } }
        return [self]
    }

    /// Whether the node is a list.
    var isList: Bool { if case .sequence? = node { return true } else { return false } }
    /// Whether the node is a mapping.
    var isMapping: Bool { if case .mapping? = node { return true } else { return false } }

    // MARK: Scalars

    /// Text.
    func text() -> String? {
        guard let node else { return nil }
        if case .scalar(let s) = node { return s.string }
        issue("expected a text value, found \(Self.kind(node))")
        return nil
    }

    /// A name of the file's own (a step's answer, a field, a layout): not empty, no spaces, dots
    /// or brackets (they separate the parts of a value's path).
    func name() -> String? {
        guard let text = text() else { return nil }
        if text.isEmpty || text.contains(where: { $0 == " " || $0 == "." || $0 == "[" || $0 == "]" || $0 == ":" || $0 == "/" }) {
            issue("'\(text)' is not a name (letters, digits, '-' or '_')")
            return nil
        }
        return text
    }

    /// A whole number, decimal or `0x` hex, with an optional sign.
    func int(_ range: ClosedRange<Int>? = nil) -> Int? {
        guard let text = text() else { return nil }
        guard let v = Self.parseInt(text) else {
            issue("expected a whole number (decimal or 0x hex), found '\(text)'")
            return nil
        }
        if let range, !range.contains(v) {
            issue("\(text) is out of range \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return v
    }

    static func parseInt(_ text: String) -> Int? {
        var t = Substring(text.filter { $0 != "_" })
        var negative = false
        if t.first == "-" {
            negative = true
            t = t.dropFirst()
        } else if t.first == "+" {
            t = t.dropFirst()
        }
        let v: Int?
        if t.hasPrefix("0x") || t.hasPrefix("0X") { v = Int(t.dropFirst(2), radix: 16) } else { v = Int(t) }
        return v.map { negative ? -$0 : $0 }
    }

    func bool() -> Bool? {
        guard let text = text() else { return nil }
        switch text {
        case "true", "yes": return true
        case "false", "no": return false
        default:
            issue("expected true or false, found '\(text)'")
            return nil
        }
    }

    /// One of `words`.
    func choice(_ words: [String]) -> String? {
        guard let text = text() else { return nil }
        guard words.contains(text) else {
            issue("'\(text)' is not one of: \(words.joined(separator: ", "))")
            return nil
        }
        return text
    }

    /// Bytes in hex (`A0 00`, `A000`, `A0:00`), `count` of them. Hex made of digits only must be
    /// quoted (`"1001"`): plain, an editor reads it as a number.
    func hex(_ count: ClosedRange<Int>? = nil) -> [UInt8]? {
        guard let text = text() else { return nil }
        if Self.looksLikeNumber(node) {
            issue("'\(text)' is hex made of digits only: quote it (\"\(text)\"), so that no one reads it as a number")
            return nil
        }
        let bytes: [UInt8]
        do { bytes = try Hex.parse(text) } catch {
            issue("bad hex '\(text)': \(error.message)")
            return nil
        }
        if let count, !count.contains(bytes.count) {
            issue(
                count.lowerBound == count.upperBound
                    ? "expected \(count.lowerBound) byte(s), found \(bytes.count)"
                    : "expected \(count.lowerBound) to \(count.upperBound) bytes, found \(bytes.count)")
            return nil
        }
        return bytes
    }

    /// A BER-TLV tag in hex (`5A`, `9F4D`); digits only must be quoted, as for ``hex(_:)``.
    func tag() -> TLVTag? {
        guard let text = text() else { return nil }
        if Self.looksLikeNumber(node) {
            issue("'\(text)' is a tag made of digits only: quote it (\"\(text)\"), so that no one reads it as a number")
            return nil
        }
        guard let tag = try? TLVTag(hex: text) else {
            issue("'\(text)' is not a BER-TLV tag (1 to 4 bytes of hex, e.g. 5A or 9F4D)")
            return nil
        }
        return tag
    }

    /// A plain (unquoted) scalar of decimal digits only: a number to any YAML reader.
    static func looksLikeNumber(_ node: Node?) -> Bool {
        guard case .scalar(let s)? = node, s.style == .plain else { return false }
        return !s.string.isEmpty && s.string.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func kind(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}

/// A mapping of a data file with its keys checked: its entries in file order, and a cursor for
/// any key, present or not (an absent key's cursor has no node and points at the mapping's line).
package struct Section {
    let cursor: Cursor
    let entries: [(key: String, cursor: Cursor)]
    /// How the format-1 keys the mapping gave (refused, with their problem) are written now.
    var renamed: [String] = []

    subscript(_ key: String) -> Cursor {
        for e in entries where e.key == key { return e.cursor }
        return cursor.child(key, nil)
    }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The cursor of a key that must be there; a problem naming it when it is not (unless the
    /// key is there in its format-1 spelling, which has its own problem).
    func required(_ key: String, _ why: String = "") -> Cursor? {
        let c = self[key]
        if !c.exists, !hasOldSpelling(of: key) { c.issue("required key '\(key)' is missing" + (why.isEmpty ? "" : " (\(why))")) }
        return c.exists ? c : nil
    }

    /// Whether the mapping gave `key` in a format-1 spelling (``LanguageRenames``).
    func hasOldSpelling(of key: String) -> Bool { renamed.contains { $0.hasPrefix("'\(key)'") || $0.contains("'\(key)'") } }

    var keys: [String] { entries.map(\.key) }
}

/// A cursor's key path as links to its parent's, so that walking a tree builds no text; written
/// out (`trips.more[0].fields.time`) only when asked.
private final class KeyTrail {
    enum Step {
        case key(String)
        case index(Int)
    }
    let parent: KeyTrail?
    let step: Step

    init(parent: KeyTrail?, step: Step) {
        self.parent = parent
        self.step = step
    }

    var text: String {
        var steps: [Step] = []
        var at: KeyTrail? = self
        while let t = at {
            steps.append(t.step)
            at = t.parent
        }
        var out = ""
        for step in steps.reversed() {
            switch step {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
