import Foundation
import Yams

/// A code → name table kept as a data file beside the profiles (`profiles/tables/NAME.yaml`,
/// docs/profile-format.md §Lookup tables): networks, tariffs, stations. A field names it with
/// `table: NAME`; a code the table lacks is shown as the code.
///
/// ```yaml
/// name: intercode-networks
/// codes: hex            # how an unknown code is shown: hex digits (250999) or decimal
/// source: "…"           # where the names come from, and under which licence
/// entries:
///   0x250901: Navigo (Île-de-France)
/// ```
public struct LookupTable: Sendable {
    /// `name`: what the table names, for people (fields name a table by its file's name).
    public var name: String
    /// `entries`: the names, by code.
    public var entries: [Int: String]
    /// Unknown codes are shown as hex digits (a network id `250999`) rather than a number.
    public var hexCodes: Bool
    /// `default`: what a code the table lacks gives (`{code}` stands for it).
    public var defaultName: String?
    /// The file the table was read from; its problems name it.
    public var file: String

    /// Where a table named `name` is looked for: `tables/` beside the profile file, then the
    /// built-in profiles' `tables/`.
    static func candidates(_ name: String, near profileFile: String, folder: String = "tables") -> [String] {
        var dirs: [String] = []
        if !profileFile.hasPrefix("<") && !profileFile.hasPrefix("built-in:") {
            dirs.append((profileFile as NSString).deletingLastPathComponent)
        }
        if let b = ProfileRegistry.builtInDirectory() { dirs.append(b) }
        return dirs.map { ($0.isEmpty ? "." : $0) + (folder.isEmpty ? "" : "/\(folder)") + "/\(name).yaml" }
    }

    /// Tables are read once per process, whichever profiles use them.
    private static let cache = ProcessCache<String, Result<LookupTable, ProfileLoadError>>()

    /// The table `name` for a profile read from `profileFile`, or why it cannot be had.
    static func load(_ name: String, near profileFile: String) -> Result<LookupTable, ProfileLoadError> {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            return .failure(
                ProfileLoadError(issues: [
                    ProfileIssue(
                        file: profileFile, line: 1, column: 1, path: "", reason: "'\(name)' is not a table name (letters, digits, '-')")
                ]))
        }
        let paths = candidates(name, near: profileFile)
        guard let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return .failure(
                ProfileLoadError(issues: [
                    ProfileIssue(
                        file: profileFile, line: 1, column: 1, path: "",
                        reason: "no table '\(name)' (looked for \(paths.joined(separator: ", ")))")
                ]))
        }
        return cache.get(path) { YAMLText.load(path) { (text, file) throws(ProfileLoadError) in try parse(text, file: file) } }
    }

    /// Parses table text; every problem names `file`:line.
    public static func parse(_ text: String, file: String) throws(ProfileLoadError) -> LookupTable {
        let context = ParseContext(file: file)
        let root = Cursor(try YAMLText.compose(text, file: file), path: "", context: context)
        var table = LookupTable(name: "", entries: [:], hexCodes: false, file: file)
        if let s = root.section(.tableFile) {
            table.name = s.required("name")?.text() ?? ""
            _ = s.required("source", "where the names come from, and the licence that allows using them")
            table.hexCodes = s["codes"].choice(["hex", "decimal"]) == "hex"
            table.defaultName = s["default"].text()
            table.entries = FieldSettingsParser.codeMap(s.required("entries") ?? s["entries"]) ?? [:]
        } else if !root.exists {
            context.issue(nil, "", "the file is empty")
        }
        if !context.issues.isEmpty { throw ProfileLoadError(issues: context.sortedIssues) }
        return table
    }

}
