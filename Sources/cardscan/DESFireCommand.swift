import APDU
import ArgumentParser
import CardProfiles
import CardReading
import DESFireCommands
import Foundation

/// `cardscan desfire`: what a MIFARE DESFire card lets be read without a key.
struct DESFireDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desfire",
        abstract: "List a MIFARE DESFire card's applications and files, and every file free to read; --image writes a card image.",
        discussion: """
            Sends only reading commands: GetVersion, GetApplicationIDs (when the list
            needs a key, SelectApplication of each application the installed profiles
            name, so hidden applications are found), GetFileIDs (when that needs a key,
            GetFileSettings of files 0-31), GetFileSettings, and ReadData, ReadRecords or
            GetValue of the files free to read. Works through a PC/SC contactless reader
            or a libnfc device (--device).

            --image writes what was read as a DESFire card image (docs/lab.md) that
            `cardsim vpcd FILE` and `cardsim pn532 --pty PATH FILE` serve.

            Examples:
              cardscan desfire
              cardscan desfire --image opal.json
            """)

    @OptionGroup var source: CardSourceOptions
    @Option(
        name: .customLong("profile-dir"),
        help: ArgumentHelp("Also take application IDs to probe from the profiles in this directory (repeatable).", valueName: "DIR"))
    var profileDirs: [String] = []
    @Option(help: ArgumentHelp("Also write the card as a cardsim card image.", valueName: "FILE")) var image: String?
    @Flag(help: "Print the image as JSON (what --image writes) instead of a listing.") var json = false
    @Flag(help: "Print each exchange to stderr.") var trace = false

    func run() throws {
        let registry = ProfileRegistry(directories: ProfileRegistry.searchPath(profileDirs: profileDirs))
        let connection = try source.waitForCard(what: "DESFire card")
        guard case .iso7816(let card) = connection.card else {
            throw fail(NotISO7816(what: "the card on \(connection.reader) is not an ISO 14443-4 card (\(connection.card))"), .notRecognised)
        }
        if trace { eprint("Card on \(connection.reader): \(connection.card)") }
        let exchange = Tracer.exchange(connection.channel, trace: trace)
        let (dump, error) = try guarded {
            try connection.withExclusiveAccess {
                DESFireDump.run(
                    exchange: exchange, atr: card.atr ?? connection.atr,
                    knownApplications: DESFireDump.knownApplications(of: registry.entries.map(\.profile)))
            }
        }
        out(json ? dump.json.trimmingCharacters(in: .newlines) : Self.text(dump))
        if let image {
            if dump.partial {
                eprint("note: \(image) not written: the dump did not finish")
            } else {
                try guarded { try TextFile.write(dump.json, to: image) }
                eprint("Wrote \(image): serve it with `cardsim vpcd \(image)` or `cardsim pn532 --pty PATH \(image)`.")
            }
        }
        if let error { throw fail(error, ExitStatus(for: error)) }
    }

    static func text(_ dump: DESFireDump) -> String {
        let image = dump.image
        var lines: [String] = []
        if let v = try? DESFireVersion(Hex.parse(image.version)) {
            lines.append("MIFARE DESFire \(v.generation), UID \(image.uid), \(v.storageBytes) bytes")
        } else {
            lines.append("MIFARE DESFire (no version read)")
        }
        lines.append("Applications\(image.listLocked == true ? " (the list needs a key: the profiles' applications were probed)" : ""):")
        for app in image.applications {
            lines.append("  \(app.aid)\(app.filesLocked == true ? "  (file list needs a key)" : "")")
            for f in app.files {
                var line = "    file \(f.id)  \(f.type)  read: \(f.read)"
                if let size = f.recordSize { line += "  record size \(size)" }
                lines.append(line)
                if f.read == "free" {
                    if let d = f.data { lines.append("      \(d)") }
                    for (i, r) in (f.records ?? []).enumerated() { lines.append("      \(i)  \(r)") }
                    if f.type == "value", let v = f.value { lines.append("      value \(v)") }
                }
            }
        }
        for n in dump.notes { lines.append("Not readable: \(n)") }
        lines.append("\(dump.exchanges) exchange(s) with the card\(dump.partial ? "; stopped early" : "")")
        return lines.joined(separator: "\n")
    }
}
