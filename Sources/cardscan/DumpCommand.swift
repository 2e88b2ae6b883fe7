import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation

/// `cardscan dump`: what an ISO 7816 card holds, file by file, for someone writing a profile.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "List an ISO 7816 card's files and records (the MF and each known application); --image writes a card image.",
        discussion: """
            Sends only read commands: SELECT of the applications the installed
            profiles know (by DF name, else by their file identifier), READ RECORD of
            short-identifier files 1-30 in the MF and in each application found
            (records 1, 2, ... until 6A 83), READ BINARY of the transparent ones, and
            the proprietary read commands those profiles send (GET BALANCE ...). CLA 00
            first, 94 when the card refuses 00 (Calypso). Works through a PC/SC
            contactless reader or a libnfc device (--device).

            --image writes what was read as an ISO 7816 card image (docs/lab.md) that
            `cardsim vpcd FILE` and `cardsim pn532 --pty PATH FILE` serve: a virtual copy
            of the card to develop a profile against.

            Examples:
              cardscan dump
              cardscan dump --image navigo.json
              cardscan dump --device pn532_uart:/dev/ttyUSB0 --json
            """)

    @OptionGroup var source: CardSourceOptions
    @OptionGroup var output: DumpOutputOptions

    func run() throws {
        let profiles = output.profiles()
        let (connection, card, exchange) = try output.connect(source, what: "ISO 7816 card")
        let (dump, error) = try guarded {
            try connection.withExclusiveAccess {
                ISO7816Dump.run(
                    exchange: exchange, atr: card.atr ?? connection.atr ?? [], typeB: card.pupi != nil,
                    names: ISO7816Dump.applicationNames(of: profiles), fileIDs: ISO7816Dump.applicationFileIDs(of: profiles),
                    commands: { ISO7816Dump.readCommands(of: profiles, in: $0) })
            }
        }
        try output.finish(json: dump.image.json(), text: Self.text(dump), partial: dump.partial, error: error)
    }

    /// `SFI 07`, `FID 0003, SFI 03`: how an EF can be reached.
    static func label(_ node: ISO7816CardImage.Node) -> String {
        [node.fid.map { "FID \($0)" }, node.sfi.map { "SFI \([UInt8($0)].hexString)" }].compactMap { $0 }.joined(separator: ", ")
    }

    static func text(_ dump: ISO7816Dump) -> String {
        let image = dump.image
        var lines = [
            "ISO 7816 card, ATR \(image.atr)" + (image.iso14443 == "b" ? ", ISO 14443-B" : "")
                + ", CLA \(image.cla?.joined(separator: "/") ?? "00")"
        ]
        func list(_ nodes: [ISO7816CardImage.Node], indent: String) {
            for node in nodes {
                if let children = node.files {
                    let bytes = (try? Hex.parse(node.aid ?? "")) ?? []
                    let name = ISO7816Dump.printable(bytes)
                    let label = [node.fid.map { "FID \($0)" }, node.aid].compactMap { $0 }.joined(separator: ", ")
                    lines.append(indent + "DF \(label)" + (name == bytes.hexString ? "" : "  \"\(name)\""))
                    if let fci = node.fci { lines.append(indent + "  FCI \(fci)") }
                    list(children, indent: indent + "  ")
                } else if let records = node.records {
                    lines.append(indent + Self.label(node) + "  \(records.count) record(s)")
                    for (i, r) in records.enumerated() { lines.append(indent + "  \(i + 1)  \(r)") }
                } else if let binary = node.binary {
                    lines.append(
                        indent + "SFI \(node.sfi.map { [UInt8($0)].hexString } ?? "--")  \(((try? Hex.parse(binary)) ?? []).count) byte(s)")
                    lines.append(indent + "  \(binary)")
                }
            }
        }
        lines.append("MF")
        list(image.files, indent: "  ")
        for a in image.answers ?? [] { lines.append("Answer  > \(a.command)  < \(a.response)") }
        for r in dump.refused { lines.append("Not readable: \(r)") }
        lines.append("\(dump.exchanges) exchange(s) with the card\(dump.partial ? "; stopped early" : "")")
        return lines.joined(separator: "\n")
    }
}

/// What `cardscan dump` and `cardscan desfire` share: where application names come from, and
/// how the dump is printed and written as a card image.
struct DumpOutputOptions: ParsableArguments {
    @Option(
        name: .customLong("profile-dir"),
        help: ArgumentHelp("Also take the applications to look for from the profiles in this directory (repeatable).", valueName: "DIR"))
    var profileDirs: [String] = []
    @Option(help: ArgumentHelp("Also write the card as a cardsim card image.", valueName: "FILE")) var image: String?
    @Flag(help: "Print the image as JSON (what --image writes) instead of a listing.") var json = false
    @Flag(help: "Print each exchange to stderr.") var trace = false

    /// Waits for the card (`what` names it in the messages); an ISO 7816 card, else exit 76;
    /// with --trace, says which card and traces every exchange.
    func connect(_ source: CardSourceOptions, what: String) throws -> (CardConnection, PresentedCard.ISO7816Card, CardExchange) {
        try refuseUnwritableOutput(image)
        let connection = try source.waitForCard(what: what)
        guard case .iso7816(let card) = connection.card else {
            throw fail(NotISO7816(what: "the card on \(connection.reader) is not an ISO 7816 card (\(connection.card))"), .notRecognised)
        }
        if trace { eprint("Card on \(connection.reader): \(connection.card)") }
        return (connection, card, Tracer.exchange(connection.channel, trace: trace))
    }

    /// The installed profiles (and those of --profile-dir).
    func profiles() -> [Profile] {
        ProfileRegistry(directories: ProfileRegistry.searchPath(profileDirs: profileDirs)).entries.map(\.profile)
    }

    /// Prints the dump (`json` text with --json, else `text`), writes --image when the dump
    /// finished, then exits with the error's status when the card failed on the way.
    func finish(json imageJSON: String, text: String, partial: Bool, error: Error?) throws {
        out(json ? imageJSON.trimmingCharacters(in: .newlines) : text)
        if let image {
            if partial {
                eprint("note: \(image) not written: the dump did not finish")
            } else {
                try guarded { try TextFile.write(imageJSON, to: image) }
                eprint("Wrote \(image): serve it with `cardsim vpcd \(image)` or `cardsim pn532 --pty PATH \(image)`.")
            }
        }
        if let error { throw fail(error, ExitStatus(for: error)) }
    }
}

/// The card presented is not an ISO 7816 card (`cardscan dump`).
struct NotISO7816: UserFacingError {
    let what: String
    var hint: String? { "`cardscan felica` lists a FeliCa card; `cardscan ndef read` reads an NFC Forum tag" }
    var message: String { what }
}
