import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Wait for a card, recognise it, read it and print what it holds (the default).",
        discussion: """
            Examples:
              cardscan --profile shanghai-transit
              cardscan -r 1 --json
              cardscan --record card.apdu --trace
            """)

    @OptionGroup var profiles: ProfileOptions
    @Option(
        name: [.short, .long],
        help: ArgumentHelp("Reader: index, exact name or unique substring (default: $CARDSCAN_READER, else any).", valueName: "READER"))
    var reader: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for a card (0: only a card already there). (default: 60)", valueName: "SECONDS"),
        transform: seconds)
    var timeout: Double = 60
    @Option(
        name: .customLong("apdu-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds one command (or the wait for a busy reader) may take before the card counts as unresponsive. (default: 5)",
            valueName: "SECONDS"), transform: commandSeconds)
    var apduTimeout: Double = 5
    @Flag(help: "Print the report as JSON.") var json = false
    @Flag(help: "Print the trips as CSV (RFC 4180): a header, then one row per trip.") var csv = false
    @Option(help: ArgumentHelp("Write the exchanges to this transcript file (*.apdu).", valueName: "FILE")) var record: String?
    @Flag(help: "Print each exchange to stderr: when the read ends, personal data written '..' (as it happens with --record-raw).")
    var trace = false
    @Flag(name: .shortAndLong, help: "Say which reader and profile are used.") var verbose = false
    @Flag(help: "Keep the read in the history (`cardscan history`): the report as shown, each trip once across reads.")
    var save = false
    @Option(
        help: ArgumentHelp(
            "Read through this libnfc device instead of PC/SC (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb).", valueName: "CONNSTRING"))
    var device: String?

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json: choose one") }
    }

    func run() throws {
        let settings = try ScanSettings(profiles, trace: trace, verbose: verbose, record: record)
        let history = save ? try HistorySaving() : nil
        Interruption.shared.install()
        let connection = try waitForCard(device: device, reader: reader, timeout: timeout, apduTimeout: apduTimeout)
        let outcome = try Interruption.shared.during { try settings.read(connection) }
        history?.keep(outcome, reader: connection.reader)
        do { try settings.print(outcome, json: json, jsonl: false, csv: csv ? CSVOutput() : nil) } catch {
            if !Interruption.shared.isRequested { throw error }
        }
        // Ctrl-C: what was read is printed and recorded; the exit status says it was cut short.
        if Interruption.shared.isRequested { throw ExitCode(130) }
    }
}
