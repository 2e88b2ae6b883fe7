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
    package static func entries(_ node: Node?, _ path: String, _ r: YAMLReader) -> [CommandPolicy.Entry] {
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
