import APDU
import ArgumentParser
import CardDumps
import CardProfiles
import CardReading
import CardSimulator
import Foundation

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read card images and other tools' dumps as if the card were on a reader.",
        discussion: """
            Each file is served in-process as the lab's virtual reader serves it to pcscd
            (the same simulated card as cardsim, without pcscd): detection, the profile's
            steps and the report are those of a card on a reader. It takes cardscan's card
            images (ISO 7816, FeliCa, DESFire: docs/lab.md), transcripts (answered in any
            order, as cardsim does), and the dumps `cardscan import` reads
            (docs/dump-formats.md).

            --record writes the exchanges the read made, so a dump becomes a regression
            fixture in one step.

            Examples:
              cardscan read Tests/LabCards/navigo-image.json
              cardscan read card.json --json --record card.apdu
            """)

    @Argument(help: ArgumentHelp("Card images, dumps or transcripts.", valueName: "FILE")) var files: [String]
    @OptionGroup var profiles: ProfileOptions
    @Flag(help: "Print the report as JSON.") var json = false
    @Flag(help: "Print the trips as CSV (RFC 4180): one header, then one row per trip of every file.") var csv = false
    @Option(help: ArgumentHelp("Write the exchanges of the read to this transcript file (one input file only).", valueName: "FILE"))
    var record: String?
    @Flag(help: "Print each exchange to stderr when the read ends.") var trace = false

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json: choose one") }
        if record != nil && files.count > 1 { throw ValidationError("--record writes one transcript: give one file") }
    }

    func run() throws {
        let settings = try ScanSettings(profiles, trace: trace, record: record)
        let table = csv ? CSVOutput() : nil
        let several = files.count > 1
        var worst: Int32 = 0
        func attempt(_ file: String, named: Bool = several, _ body: () throws -> Void) {
            do { try body() } catch {
                if let exit = error as? ExitCode {
                    worst = max(worst, exit.rawValue)
                    return
                }
                printError(error, file: named ? file : nil)
                worst = max(worst, ExitStatus(for: error).rawValue)
            }
        }
        for file in files {
            attempt(file) {
                let cards = try ImageReading.cards(file)
                for card in cards {
                    attempt(card.name, named: several || cards.count > 1) {
                        try settings.print(try settings.read(try ImageReading.connection(card)), json: json, jsonl: false, csv: table)
                    }
                }
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}

/// A file cardscan can serve as a card (an image, a transcript, another tool's dump), as a
/// card on an in-process reader.
enum ImageReading {
    /// One card of a file: its bytes as cardsim serves them, and the name it is read by.
    struct Card {
        let name: String
        let data: Data
    }

    /// The cards in `file`: one, or each card of a dump that holds several (a ZIP of cards).
    static func cards(_ file: String) throws -> [Card] {
        let bytes = try TextFile.bytes(file)
        // Another tool's dump: imported in memory first (a transcript or an image is served as it is).
        guard let format = DumpFormat.detect(bytes), format != .cardscan else { return [Card(name: file, data: Data(bytes))] }
        let result = try DumpImport.images(bytes, file: file, format: format)
        for w in result.warnings { eprint("warning: \(file): \(w)") }
        guard !result.images.isEmpty else { throw DumpError(file: file, reason: "no card in it") }
        return try result.images.enumerated().map { i, image in
            switch image {
            default:
                return Card(name: result.images.count > 1 ? "\(file) card \(i + 1)" : file, data: Data(image.json.utf8))
            }
        }
    }

    /// A card of `cards(_:)` on an in-process reader, detected as a PC/SC reader's card is.
    static func connection(_ card: Card) throws -> CardConnection {
        let virtual = try VirtualCard.load(card.data, file: card.name, options: VirtualCardOptions())
        let channel = SimulatedCardChannel(virtual)
        return try PCSCDetector.detect(channel: channel, atr: channel.atr, reader: "image \(card.name)")
    }
}
