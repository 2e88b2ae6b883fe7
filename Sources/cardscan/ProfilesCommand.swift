import APDU
import ArgumentParser
import CardProfiles
import Foundation

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List, show, validate and add card profiles.",
        subcommands: [List.self, Show.self, Validate.self, Add.self, Trust.self, Schema.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Profiles in the search path, and where each comes from.")
        @OptionGroup var profiles: ProfileSearchOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let registry = profiles.registry()
            if json {
                out(
                    JSONValue.array(
                        registry.entries.map { e in
                            .object([
                                ("id", .string(e.id)), ("name", .string(e.profile.name)), ("file", .string(e.file)),
                                ("builtIn", .bool(e.directory.isBuiltIn)), ("overrides", .array(e.overrides.map { .string($0) })),
                            ])
                        }
                    ).serialized(pretty: true))
                return
            }
            let style = Style()
            let width = registry.entries.map(\.id.count).max() ?? 0
            let nameWidth = registry.entries.map(\.profile.name.count).max() ?? 0
            for e in registry.entries {
                var line = e.id.padding(width) + "  " + e.profile.name.padding(nameWidth)
                line += style.dim("  " + (e.directory.isBuiltIn ? "built-in" : e.file))
                if !e.overrides.isEmpty { line += style.yellow("  (overrides \(e.overrides.joined(separator: ", ")))") }
                out(line)
            }
            for bad in registry.invalid {
                eprint(style.red("invalid:") + " \(bad.file) (run `cardscan profiles validate \(bad.file)`)")
            }
            out(style.dim("Search path: " + registry.directories.map(\.path).joined(separator: ":")))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a profile's file.")
        @Argument(help: ArgumentHelp("Profile id or file.", valueName: "ID")) var id: String
        @OptionGroup var profiles: ProfileSearchOptions

        func run() throws {
            try guarded {
                let p = try profiles.registry().resolve(id)
                out("# \(p.source)")
                out(try TextFile.read(p.source))
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate", abstract: "Check profile files; report every error with file:line.",
            discussion: """
                With --strict DIR, each profile that loads is also replayed over every transcript under DIR \
                (a transcript recorded by detection lets it take part in detection): any warning, divergence \
                or unused exchange fails. Transcripts of other cards are counted, not failed.
                """)
        @Argument(help: ArgumentHelp("Profile files.", valueName: "FILE")) var files: [String]
        @Option(
            name: .customLong("strict"),
            help: ArgumentHelp("Also replay each profile over the transcripts under this folder; fail on any warning.", valueName: "DIR"))
        var strict: String?

        func run() throws {
            var worst: Int32 = 0
            for f in files {
                do {
                    let p = try ProfileRegistry.loadFile(f, options: .init(checkTrust: false))
                    out("\(f): ok (\(p.id), \(p.steps.count) step\(p.steps.count == 1 ? "" : "s"))")
                    if let strict { worst = max(worst, try StrictReplay(profileFile: f, profile: p).run(over: strict)) }
                    if !p.commands.isEmpty, !TrustedProfiles.user.trusts(f, commands: p.commands) {
                        out(
                            "  it declares commands of its own (\(Trust.describe(p.commands))): `cardscan profiles trust \(f)` to let it send them"
                        )
                    }
                } catch let e as ProfileLoadError {
                    for i in e.issues { eprint(i.description) }
                    worst = max(worst, ExitStatus.invalidInput.rawValue)
                } catch let e as FileError
                    where e.isMissing && !ProfileRegistry.namesFile(f) && (try? ProfileRegistry.standard().resolve(f)) != nil
                {
                    // `validate shanghai-transit`: a known profile's id where a file is wanted.
                    printError(
                        e,
                        hint:
                            "validate checks files; '\(f)' is a profile's id: `cardscan profiles show \(f)` prints it, `> FILE` to edit a copy"
                    )
                    worst = max(worst, ExitStatus.noSuchInput.rawValue)
                } catch {
                    printError(error)
                    worst = max(worst, ExitStatus(for: error).rawValue)
                }
            }
            if worst != 0 { throw ExitCode(worst) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Validate profile files and copy them into your profile directory.",
            discussion: "The directory is $XDG_CONFIG_HOME/cardscan/profiles (default ~/.config/cardscan/profiles).")
        @Argument(help: ArgumentHelp("Profile files.", valueName: "FILE")) var files: [String]
        @Flag(help: "Replace a profile of the same id already in the directory.") var force = false

        func run() throws {
            try guarded {
                let dir = ProfileRegistry.userDirectory()
                var loaded: [(String, Profile)] = []
                for f in files { loaded.append((f, try ProfileRegistry.loadFile(f, options: .init(checkTrust: false)))) }
                // Nothing is copied when one would replace a profile already there (unless --force).
                for (_, p) in loaded where !force && FileManager.default.fileExists(atPath: dir + "/" + p.id + ".yaml") {
                    throw ProfileExists(id: p.id, path: dir + "/" + p.id + ".yaml")
                }
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for (f, p) in loaded {
                    let target = dir + "/" + p.id + ".yaml"
                    let replaced = FileManager.default.fileExists(atPath: target)
                    try TextFile.write(try TextFile.read(f), to: target)
                    out((replaced ? "replaced" : "added") + " \(p.id) → \(target)")
                    if !p.commands.isEmpty, !TrustedProfiles.user.trusts(target, commands: p.commands) {
                        out(
                            "  it declares commands of its own (\(Trust.describe(p.commands))): `cardscan profiles trust \(target)` to let it send them"
                        )
                    }
                }
            }
        }
    }

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trust",
            abstract: "Let a profile file send the read commands it declares under 'commands'.",
            discussion: """
                A profile may declare proprietary read commands cardscan does not know; they are sent only \
                after you trust that file (by its real path) once. Declaring a further command later needs \
                trusting it again. A command known to change a card is never accepted. The list is kept in \
                $XDG_CONFIG_HOME/cardscan/trusted-profiles.yaml.
                """)
        @Argument(help: ArgumentHelp("The profile file.", valueName: "FILE")) var file: String
        @Flag(help: "Take the trust back.") var remove = false

        static func describe(_ commands: [CommandPolicy.Entry]) -> String {
            commands.map { "\($0.header) \($0.name)" }.joined(separator: ", ")
        }

        func run() throws {
            try guarded {
                let store = try TrustedProfiles.load(TrustedProfiles.defaultPath())
                if remove {
                    guard store.lists(file) else {
                        out("not trusted, nothing to take back: \(TrustedProfiles.realPath(file))")
                        return
                    }
                    try store.removing(file).save()
                    out("no longer trusted: \(TrustedProfiles.realPath(file))")
                    return
                }
                let p = try ProfileRegistry.loadFile(file, options: .init(checkTrust: false))
                guard !p.commands.isEmpty else {
                    out("\(file) declares no commands of its own: it needs no trust")
                    return
                }
                try store.trusting(file, commands: p.commands).save()
                out("trusted \(TrustedProfiles.realPath(file)) (\(p.id)) to send:")
                for c in p.commands { out("  \(c.header)  \(c.name)  — \(c.source)") }
                out(Style().dim("(kept in \(store.path); `cardscan profiles trust --remove \(file)` takes it back)"))
            }
        }
    }
}

/// `profiles add` of a profile whose id the user's directory already has.
struct ProfileExists: UserFacingError {
    let id: String
    let path: String
    var message: String { "a profile '\(id)' is already added: \(path)" }
    var hint: String? { "--force replaces it; `cardscan profiles show \(id)` shows the one there" }
}
