import APDU
import Foundation
import Yams

/// The proprietary commands cardscan knows, kept as data beside the profiles
/// (`profiles/commands/known-commands.yaml`, docs/profile-format.md §Commands): the
/// read-only ones profiles may send, and the ones known to change a card.
public enum CommandCatalog {
    /// The file's place under a profiles directory.
    public static let relativePath = "commands/known-commands.yaml"

    /// ``CommandPolicy/standard`` plus the built-in known-commands file, read once per
    /// process; a missing file adds nothing, a malformed one is the error.
    public static let builtIn: Result<CommandPolicy, ProfileLoadError> = {
        guard let dir = ProfileRegistry.builtInDirectory() else { return .success(.standard) }
        return load(dir + "/" + relativePath)
    }()

    /// The standard policy plus the known-commands file at `path` (nothing added when it does
    /// not exist).
    public static func load(_ path: String) -> Result<CommandPolicy, ProfileLoadError> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(.standard) }
        return YAMLReader.load(path) { (text, file) throws(ProfileLoadError) in try parse(text, file: file) }
    }

    /// Parses a known-commands file into the standard policy plus its entries; every problem
    /// names `file`:line.
    public static func parse(_ text: String, file: String) throws(ProfileLoadError) -> CommandPolicy {
        if let lists = canonicalLists(text) {
            // The file as cardscan ships it: read without the YAML library (its start-up cost is a
            // tenth of a `cardscan replay`). Anything else takes the full path below.
            let known = CommandPolicy.standard.adding(reads: [], changing: lists.changing)
            if !lists.reads.contains(where: { e in known.changing.contains { $0.cla == e.cla & $0.claMask && $0.ins == e.ins } }) {
                return CommandPolicy.standard.adding(reads: lists.reads, changing: lists.changing)
            }
        }
        return try parseYAML(text, file: file)
    }

    /// The lists of a known-commands file written the way cardscan ships it — comments, the
    /// keys `read-only:` and `changing:`, and entries of exactly `  - command: "CLA INS"`, then
    /// `    name:` and `    source:` with plain or simply double-quoted values — or nil for
    /// anything else (which the YAML path reads, or rejects with its line).
    static func canonicalLists(_ text: String) -> (reads: [CommandPolicy.Entry], changing: [CommandPolicy.Entry])? {
        // Bytes, not Strings: Foundation's trimming and substring calls cost 2 ms of a replay.
        typealias Line = ArraySlice<UInt8>
        let source = Array(text.utf8)
        var reads: [CommandPolicy.Entry] = [], changing: [CommandPolicy.Entry] = []
        var list: Int? = nil  // 0 read-only, 1 changing
        var pending: (command: [UInt8], name: String?, source: String?)? = nil
        var seenLists = Set<Int>()
        var entriesInList = 0
        // Only spaces separate here: a tab, any other control character, or a Unicode line or
        // paragraph separator (NEL, LS, PS) sends the file to the YAML path, which knows what
        // YAML makes of them.
        guard
            !source.contains(where: { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }),
            !text.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" })
        else { return nil }
        func trim(_ l: Line) -> Line {
            var l = l
            while l.first == 0x20 { l = l.dropFirst() }
            while l.last == 0x20 { l = l.dropLast() }
            return l
        }
        func contains(_ l: Line, _ needle: [UInt8]) -> Bool {
            guard l.count >= needle.count else { return false }
            return (l.startIndex...(l.endIndex - needle.count)).contains { l[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        func string(_ l: Line) -> String { String(decoding: l, as: UTF8.self) }
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let indicators = Array("[]{}&*!|>'%@`#,?:-\"".utf8)
        func value(_ raw: Line) -> String? {
            let v = trim(raw)
            if v.first == quote {
                let inner = v.dropFirst().dropLast()
                guard v.count > 2, v.last == quote, !inner.contains(where: { $0 == quote || $0 == backslash }) else { return nil }
                return string(inner)
            }
            guard let first = v.first, !indicators.contains(first), !contains(v, Array(": ".utf8)), !contains(v, Array(" #".utf8)),
                v.last != UInt8(ascii: ":")
            else { return nil }
            return string(v)
        }
        func flush() -> Bool {
            guard let p = pending else { return true }
            guard let name = p.name, let source = p.source, let l = list, p.command.count == 2 else { return false }
            let e = CommandPolicy.Entry(cla: p.command[0], ins: p.command[1], name: name, source: source)
            if l == 0 { reads.append(e) } else { changing.append(e) }
            pending = nil
            return true
        }
        func after(_ prefix: String, in line: Line) -> Line? {
            line.starts(with: prefix.utf8) ? line.dropFirst(prefix.utf8.count) : nil
        }
        for line in source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let trimmed = trim(line)
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            if line.elementsEqual("read-only:".utf8) || line.elementsEqual("changing:".utf8) {
                guard flush(), list == nil || entriesInList > 0 else { return nil }  // an empty list: YAML's to judge
                list = line.first == UInt8(ascii: "r") ? 0 : 1
                entriesInList = 0
                guard seenLists.insert(list!).inserted else { return nil }
            } else if let rest = after("  - command: ", in: line) {
                guard flush(), list != nil, let v = value(rest), let command = try? Hex.parse(v) else { return nil }
                pending = (command, nil, nil)
                entriesInList += 1
            } else if let rest = after("    name: ", in: line), let p = pending, p.name == nil, let v = value(rest) {
                pending?.name = v
            } else if let rest = after("    source: ", in: line), let p = pending, p.source == nil, let v = value(rest) {
                pending?.source = v
            } else {
                return nil
            }
        }
        guard flush(), !seenLists.isEmpty, entriesInList > 0 else { return nil }
        return (reads, changing)
    }

    /// ``parse(_:file:)`` through the YAML library: any YAML, every problem with its line.
    static func parseYAML(_ text: String, file: String) throws(ProfileLoadError) -> CommandPolicy {
        let r = YAMLReader(file: file)
        let root = try YAMLReader.compose(text, file: file)
        var reads: [CommandPolicy.Entry] = []
        var changing: [CommandPolicy.Entry] = []
        if let m = r.mapping(root, "", allowed: ["read-only", "changing"]) {
            let g = { (k: String) in m.node(k) }
            reads = entries(g("read-only"), "read-only", r)
            changing = entries(g("changing"), "changing", r)
            let known = CommandPolicy.standard.adding(reads: [], changing: changing)
            for (i, e) in reads.enumerated() {
                if let w = known.changing.first(where: { $0.cla == e.cla & $0.claMask && $0.ins == e.ins }) {
                    r.issue(root, "read-only[\(i)]", "\(e.header) is also listed as \(w.name), which changes the card")
                }
            }
        } else if root == nil {
            r.issue(nil, "", "the file is empty")
        }
        if !r.issues.isEmpty { throw ProfileLoadError(issues: r.issues) }
        return CommandPolicy.standard.adding(reads: reads, changing: changing)
    }

    /// A list of `{command: "CLA INS", name, source}` entries (the known-commands file's lists
    /// and a profile's `commands`).
    static func entries(_ node: Node?, _ path: String, _ r: YAMLReader) -> [CommandPolicy.Entry] {
        var out: [CommandPolicy.Entry] = []
        for (i, item) in (r.sequence(node, path) ?? []).enumerated() {
            let p = "\(path)[\(i)]"
            guard let m = r.mapping(item, p, allowed: ["command", "name", "source"]) else { continue }
            let g = { (k: String) in m.node(k) }
            for k in ["command", "name", "source"] where g(k) == nil { r.issue(item, "\(p).\(k)", "required key '\(k)' is missing") }
            guard let bytes = r.hex(g("command"), "\(p).command"), let name = r.string(g("name"), "\(p).name"),
                let source = r.string(g("source"), "\(p).source")
            else { continue }
            guard bytes.count == 2 else {
                r.issue(g("command"), "\(p).command", "a command is its class and instruction bytes, e.g. \"90 4C\"")
                continue
            }
            if name.isEmpty || source.isEmpty { r.issue(item, p, "'name' and 'source' must not be empty") }
            out.append(CommandPolicy.Entry(cla: bytes[0], ins: bytes[1], name: name, source: source))
        }
        return out
    }
}
