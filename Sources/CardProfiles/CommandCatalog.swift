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
        var reads: [CommandPolicy.Entry] = [], changing: [CommandPolicy.Entry] = []
        var list: Int? = nil  // 0 read-only, 1 changing
        var pending: (command: [UInt8], name: String?, source: String?)? = nil
        var seenLists = Set<Int>()
        func value(_ raw: Substring) -> String? {
            let v = raw.trimmingCharacters(in: .whitespaces)
            if v.hasPrefix("\"") {
                guard v.count >= 2, v.hasSuffix("\""), !v.dropFirst().dropLast().contains(where: { $0 == "\"" || $0 == "\\" }) else {
                    return nil
                }
                return String(v.dropFirst().dropLast())
            }
            guard let first = v.first, !"[]{}&*!|>'%@`#,?:-\"".contains(first), !v.contains(": "), !v.contains(" #"), !v.hasSuffix(":")
            else { return nil }
            return v
        }
        func flush() -> Bool {
            guard let p = pending else { return true }
            guard let name = p.name, let source = p.source, let l = list, p.command.count == 2 else { return false }
            let e = CommandPolicy.Entry(cla: p.command[0], ins: p.command[1], name: name, source: source)
            if l == 0 { reads.append(e) } else { changing.append(e) }
            pending = nil
            return true
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if line == "read-only:" || line == "changing:" {
                guard flush() else { return nil }
                list = line == "read-only:" ? 0 : 1
                guard seenLists.insert(list!).inserted else { return nil }
            } else if line.hasPrefix("  - command: ") {
                guard flush(), list != nil, let v = value(line.dropFirst("  - command: ".count)),
                    let bytes = try? Hex.parse(v)
                else { return nil }
                pending = (bytes, nil, nil)
            } else if line.hasPrefix("    name: "), pending?.name == nil, let v = value(line.dropFirst("    name: ".count)) {
                pending?.name = v
            } else if line.hasPrefix("    source: "), pending?.source == nil, let v = value(line.dropFirst("    source: ".count)) {
                pending?.source = v
            } else {
                return nil
            }
        }
        guard flush(), !seenLists.isEmpty else { return nil }
        return (reads, changing)
    }

    /// ``parse(_:file:)`` through the YAML library: any YAML, every problem with its line.
    static func parseYAML(_ text: String, file: String) throws(ProfileLoadError) -> CommandPolicy {
        let r = YAMLReader(file: file)
        let root = try YAMLReader.compose(text, file: file)
        var reads: [CommandPolicy.Entry] = []
        var changing: [CommandPolicy.Entry] = []
        if let m = r.mapping(root, "", allowed: ["read-only", "changing"]) {
            let g = { (k: String) in m.first { $0.key == k }?.node }
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
            let g = { (k: String) in m.first { $0.key == k }?.node }
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
