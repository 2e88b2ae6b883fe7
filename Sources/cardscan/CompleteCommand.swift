import ArgumentParser
import BuiltInProfiles
import CardProfiles
import Foundation
import NFCTransport
import PCSCTransport

/// `cardscan __complete WORD…`: what the shell completions (completions/) offer for the last
/// word, one candidate a line; `__files__` alone lets the shell complete a file name. The
/// words are those after `cardscan`, the last one being completed (maybe empty).
///
/// Options come from the command tree itself (`--experimental-dump-help`), so they are never
/// out of date; the default command's options complete without `scan`; `--profile` and
/// `profiles show` complete profile ids, `-r`/`--reader` the readers pcscd has, `--device` the
/// configured libnfc devices.
struct CompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "__complete", abstract: "Candidates for the shell's completion of the last word.", shouldDisplay: false)

    @Argument(parsing: .captureForPassthrough, help: "The words after `cardscan`, the last one being completed.")
    var words: [String] = []

    /// The marker that asks the shell to complete a file name.
    static let files = "__files__"

    func run() throws {
        let typed = words.isEmpty ? [""] : words
        let current = typed.last ?? "", before = Array(typed.dropLast())
        guard let tree = Self.commandTree() else { return }
        // The command the words name (`profiles show`), else the default (scan).
        var command = tree, path: [String] = []
        for w in before where !w.hasPrefix("-") {
            guard let sub = (command["subcommands"] as? [[String: Any]])?.first(where: { $0["commandName"] as? String == w }) else { break }
            command = sub
            path.append(w)
        }
        var arguments = command["arguments"] as? [[String: Any]] ?? []
        if path.isEmpty, let scan = (tree["subcommands"] as? [[String: Any]])?.first(where: { $0["commandName"] as? String == "scan" }) {
            arguments += scan["arguments"] as? [[String: Any]] ?? []
        }
        if let previous = before.last, previous.hasPrefix("-"),
            let option = arguments.first(where: { a in a["kind"] as? String == "option" && Self.names(a).contains(previous) })
        {
            return out(Self.values(for: option).joined(separator: "\n"))
        }
        if current.hasPrefix("-") {
            let names = arguments.filter { $0["shouldDisplay"] as? Bool != false }.flatMap(Self.names)
            return out(names.filter { $0.hasPrefix(current) }.joined(separator: "\n"))
        }
        let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
        if !subcommands.isEmpty {
            return out(subcommands.compactMap { $0["commandName"] as? String }.filter { $0.hasPrefix(current) }.joined(separator: "\n"))
        }
        if path == ["profiles", "show"] { return out(Self.profileIDs().filter { $0.hasPrefix(current) }.joined(separator: "\n")) }
        if arguments.contains(where: { $0["kind"] as? String == "positional" }) { out(Self.files) }
    }

    /// `--profile`, `-p`: every name an argument answers to.
    static func names(_ argument: [String: Any]) -> [String] {
        (argument["names"] as? [[String: Any]] ?? []).compactMap { n in
            guard let name = n["name"] as? String else { return nil }
            return (n["kind"] as? String == "short" ? "-" : "--") + name
        }
    }

    /// What an option's value may be: profile ids (and files), readers, libnfc devices, or a file.
    static func values(for option: [String: Any]) -> [String] {
        let names = Self.names(option)
        if names.contains("--profile") { return profileIDs() + [files] }
        if names.contains("--reader") {
            let readers = (try? PCSCContext().readerNames()) ?? []
            return readers.indices.map(String.init) + readers
        }
        if names.contains("--device") { return NFCDevice.list(probe: false) }
        let value = (option["valueName"] as? String ?? "").uppercased()
        if ["FILE", "DIR", "PATH", "FOLDER"].contains(where: value.contains) { return [files] }
        return []
    }

    /// The ids of every profile on the search path.
    static func profileIDs() -> [String] { ProfileRegistry(directories: ProfileRegistry.searchPath()).profiles.map(\.id).sorted() }

    /// The command tree as `--experimental-dump-help` gives it (swift-argument-parser's
    /// ToolInfo JSON): asked of this very executable, so it matches what it parses.
    static func commandTree() -> [String: Any]? {
        guard let exe = BuiltInProfiles.runningExecutable else { return nil }
        let p = Process()
        p.executableURL = exe
        p.arguments = ["--experimental-dump-help"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["command"] as? [String: Any]
    }
}
