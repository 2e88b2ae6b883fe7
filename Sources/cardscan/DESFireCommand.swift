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
    @OptionGroup var output: DumpOutputOptions

    func run() throws {
        let (connection, card, exchange) = try output.connect(source, what: "DESFire card")
        let (dump, error) = try guarded {
            try connection.withExclusiveAccess {
                DESFireDump.run(
                    exchange: exchange, atr: card.atr ?? connection.atr,
                    knownApplications: DESFireDump.knownApplications(of: output.profiles()))
            }
        }
        try output.finish(json: dump.json, text: Self.text(dump), partial: dump.partial, error: error)
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
