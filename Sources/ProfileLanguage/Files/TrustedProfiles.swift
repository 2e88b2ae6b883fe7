import APDU
import Foundation
import Yams

/// Profile files the user has trusted to send commands of their own (`cardscan profiles trust
/// FILE`), kept in `$XDG_CONFIG_HOME/cardscan/trusted-profiles.yaml`:
///
/// ```yaml
/// - file: /home/me/.config/cardscan/profiles/my-card.yaml
///   commands: ["90 78"]
/// ```
///
/// A profile's own `commands` are sent only when every one of them (class and instruction) is
/// listed for that file's real path: declaring a new command needs trusting the file again.
public struct TrustedProfiles: Sendable, Equatable {
    /// Real path → the "CLA INS" headers trusted for it.
    public private(set) var files: [String: Set<String>]
    /// The list's file: where it was read from and where ``save()`` writes it.
    public let path: String

    /// `$XDG_CONFIG_HOME/cardscan/trusted-profiles.yaml` (default `~/.config/…`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        (ProfileRegistry.userDirectory(environment: environment) as NSString).deletingLastPathComponent + "/trusted-profiles.yaml"
    }

    /// Why the list at ``path`` could not be read (its first issue, with file:line), or nil. A
    /// list that cannot be read trusts nothing; whoever refuses a profile for that says why.
    public let unreadable: String?

    /// The user's list, read once per process: empty when there is none, and empty with
    /// ``unreadable`` set when it is malformed (it is never rewritten then: `profiles trust`
    /// reads it again and stops on the same error).
    public static let user: TrustedProfiles = {
        let path = defaultPath()
        do throws(ProfileLoadError) { return try load(path) } catch {
            return TrustedProfiles(files: [:], path: path, unreadable: error.issues.first?.description ?? path)
        }
    }()

    /// A list trusting `files` (real path → "CLA INS" headers), kept at `path`; `unreadable`: why
    /// the file at `path` could not be read.
    public init(files: [String: Set<String>], path: String, unreadable: String? = nil) {
        self.files = files
        self.path = path
        self.unreadable = unreadable
    }

    /// Reads the list at `path`; a missing file is an empty list.
    public static func load(_ path: String) throws(ProfileLoadError) -> TrustedProfiles {
        guard FileManager.default.fileExists(atPath: path) else { return TrustedProfiles(files: [:], path: path) }
        return try YAMLText.load(path) { (text, file) throws(ProfileLoadError) in try parse(text, path: file) }.get()
    }

    /// Parses the list's text; `path` names it in messages and is where it would be saved.
    public static func parse(_ text: String, path: String) throws(ProfileLoadError) -> TrustedProfiles {
        let context = ParseContext(file: path)
        let root = Cursor(try YAMLText.compose(text, file: path), path: "", context: context)
        var files: [String: Set<String>] = [:]
        for item in root.sequence() ?? [] {
            guard let s = item.section(allowed: ["file", "commands"]), let file = s["file"].text() else { continue }
            var headers = Set<String>()
            for c in s["commands"].sequence() ?? [] { if let b = c.hex(2...2) { headers.insert(b.hexString) } }
            files[file, default: []].formUnion(headers)
        }
        if !context.issues.isEmpty { throw ProfileLoadError(issues: context.sortedIssues) }
        return TrustedProfiles(files: files, path: path)
    }

    /// The real path of `file` (symbolic links and `..` resolved), the key of the list.
    public static func realPath(_ file: String) -> String {
        guard let p = realpath(file, nil) else { return URL(fileURLWithPath: file).standardized.path }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether `file` is trusted to send every command in `commands`.
    public func trusts(_ file: String, commands: [CommandPolicy.Entry]) -> Bool {
        guard let headers = files[Self.realPath(file)] else { return commands.isEmpty }
        return commands.allSatisfy { headers.contains($0.header) }
    }

    /// The list with `file` trusted for exactly `commands`.
    public func trusting(_ file: String, commands: [CommandPolicy.Entry]) -> TrustedProfiles {
        var copy = self
        copy.files[Self.realPath(file)] = Set(commands.map(\.header))
        return copy
    }

    /// Whether `file` is on the list at all (trusted for some commands, or none).
    public func lists(_ file: String) -> Bool { files[Self.realPath(file)] != nil }

    /// The list without `file`.
    public func removing(_ file: String) -> TrustedProfiles {
        var copy = self
        copy.files[Self.realPath(file)] = nil
        return copy
    }

    /// The file's text, stable (sorted by path).
    public var yaml: String {
        var out = "# Profiles trusted with `cardscan profiles trust FILE`: each may send the commands listed\n"
        out += "# (class and instruction) besides the known read-only ones. Written by cardscan.\n"
        for file in files.keys.sorted() {
            let quoted = file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            out += "- file: \"\(quoted)\"\n  commands: [\(files[file]!.sorted().map { "\"\($0)\"" }.joined(separator: ", "))]\n"
        }
        return out
    }

    /// Writes the list to ``path`` (creating its folder).
    public func save() throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
