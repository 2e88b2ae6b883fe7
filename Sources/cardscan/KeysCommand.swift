import APDU
import ArgumentParser
import Foundation
import MIFARECommands

/// `cardscan keys`: the MIFARE Classic keys a user has, kept for `cardscan classic`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Import, list and remove the MIFARE Classic keys cardscan tries.",
        discussion: """
            Keys live in $XDG_CONFIG_HOME/cardscan/keys/ (default ~/.config/cardscan/keys), one
            file per import, readable by you only (mode 0600); a file others can read is
            refused. cardscan tries them with the well-known keys (FF…FF, 00…00, A0A1A2A3A4A5,
            D3F7D3F7D3F7), which are built in. docs/cards/classic.md lists the formats.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Import key files: Metrodroid JSON (static files with the touchngo transform too), MIFARE Classic Tool .keys, Proxmark3 .dic and key dumps (.bin), .farebotkeys, or a dump's trailers (.mfd, Proxmark3 JSON, .mct, Flipper .nfc)."
        )
        @Argument(help: ArgumentHelp("Key files or dumps.", valueName: "FILE")) var files: [String]

        func run() throws {
            for file in files {
                let keys = try guarded { try ClassicKeyStore.keys(of: file) }
                let path = try guarded { try ClassicKeyStore.add(keys, source: file) }
                let what = keys.uid.map { "card \($0.hexString)" } ?? "any card"
                let derived =
                    keys.touchNGo.isEmpty ? "" : " (base keys of the touchngo transform: each card's own are derived from its UID)"
                out("\(path): \(keys.count) key(s) for \(what)\(derived)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the imported keys (each shown by its first and last byte).")
        @Flag(help: "List the keys of each import too.") var keys = false

        func run() throws {
            let all = try guarded { try ClassicKeyStore.load() }
            if all.isEmpty { out("No keys imported (\(ClassicKeyStore.directory)); the well-known keys are built in.") }
            for (name, stored) in all {
                let k = stored.keys
                out("\(name)  \(k.count) key(s) for \(k.uid.map { "card \($0.hexString)" } ?? "any card")  (from \(stored.source))")
                guard keys else { continue }
                for s in k.sectors.keys.sorted() {
                    let sk = k.sectors[s]!
                    out(
                        "  sector \(s): A " + sk.a.map(ClassicKeyStore.masked).joined(separator: ", ") + "  B "
                            + sk.b.map(ClassicKeyStore.masked).joined(separator: ", "))
                }
                if !k.dictionary.isEmpty { out("  any sector: " + k.dictionary.map(ClassicKeyStore.masked).joined(separator: ", ")) }
                for s in k.touchNGo.keys.sorted() {
                    let sk = k.touchNGo[s]!
                    out(
                        "  sector \(s), touchngo base: A " + sk.a.map(ClassicKeyStore.masked).joined(separator: ", ") + "  B "
                            + sk.b.map(ClassicKeyStore.masked).joined(separator: ", "))
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an import, by its file name or the card's UID.")
        @Argument(help: ArgumentHelp("A name `keys list` shows, or a UID.", valueName: "NAME")) var name: String

        func run() throws {
            let all = try guarded { try ClassicKeyStore.load() }
            let uid = (try? Hex.parse(name))?.hexString
            let matches = all.filter { $0.name == name || $0.name == name + ".json" || ($0.stored.uid != nil && $0.stored.uid == uid) }
            guard !matches.isEmpty else { throw fail(ValidationError("no import named \(name): see `cardscan keys list`"), .noSuchInput) }
            for m in matches {
                try FileManager.default.removeItem(atPath: ClassicKeyStore.directory + "/" + m.name)
                out("removed \(m.name)")
            }
        }
    }
}
