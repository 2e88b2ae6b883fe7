import APDU
import Foundation
import Yams

/// The proprietary commands cardscan knows, kept as data beside the profiles
/// (`profiles/commands/known-commands.yaml`, docs/profile-format.md §Commands): the
/// read-only ones profiles may send, and the ones known to change a card.
public enum CommandCatalog {
    /// The file's place under a profiles directory.
    public static let relativePath = "commands/known-commands.yaml"

    /// `CommandPolicy.standard` plus the built-in known-commands file, read once per
    /// process; a missing file adds nothing, a malformed one is the error.
    public static let builtIn: Result<CommandPolicy, ProfileLoadError> = {
        guard let dir = ProfileRegistry.builtInDirectory() else { return .success(.standard) }
        return load(dir + "/" + relativePath)
    }()

    /// The standard policy plus the known-commands file at `path` (nothing added when it does
    /// not exist).
    public static func load(_ path: String) -> Result<CommandPolicy, ProfileLoadError> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(.standard) }
        return YAMLText.load(path) { (text, file) throws(ProfileLoadError) in try parse(text, file: file) }
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
        let context = ParseContext(file: file)
        let root = Cursor(try YAMLText.compose(text, file: file), path: "", context: context)
        var reads: [CommandPolicy.Entry] = []
        var changing: [CommandPolicy.Entry] = []
        if let s = root.section(allowed: ["read-only", "changing"]) {
            let found = ProfileExtrasParser.commandEntries(s["read-only"])
            reads = found.map(\.entry)
            changing = ProfileExtrasParser.commandEntries(s["changing"]).map(\.entry)
            let known = CommandPolicy.standard.adding(reads: [], changing: changing)
            for (at, e) in found {
                if let w = known.changing.first(where: { $0.cla == e.cla & $0.claMask && $0.ins == e.ins }) {
                    at.issue("\(e.header) is also listed as \(w.name), which changes the card")
                }
            }
        } else if !root.exists {
            context.issue(nil, "", "the file is empty")
        }
        if !context.issues.isEmpty { throw ProfileLoadError(issues: context.sortedIssues) }
        return CommandPolicy.standard.adding(reads: reads, changing: changing)
    }
}
