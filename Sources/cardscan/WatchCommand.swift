import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation
import NFCTransport
import PCSCTransport

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Read every card presented, until interrupted (Ctrl-C).",
        discussion: """
            Each card is read and printed when it arrives; the next is read after it
            leaves. A card removed mid-read prints its partial report and watching goes
            on, as it does when a reader is unplugged or pcscd restarts.

            Example: cardscan watch --jsonl | jq .balance.amount
            """)

    @OptionGroup var profiles: ProfileOptions
    @Option(name: [.short, .long], help: ArgumentHelp("Reader: index, exact name or unique substring.", valueName: "READER"))
    var reader: String?
    @Flag(help: "One JSON report per line, flushed after each card.") var jsonl = false
    @Flag(help: "The trips as CSV (RFC 4180): the header once, then rows as cards come.") var csv = false
    @Flag(help: "Print each exchange to stderr: when each read ends, personal data written '..' (as it happens with --record-raw).")
    var trace = false
    @Option(
        name: .customLong("apdu-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Seconds one command, or the wait for a busy reader, may take. (default: 5)", valueName: "SECONDS"),
        transform: commandSeconds)
    var apduTimeout: Double = 5
    @Option(help: ArgumentHelp("Watch this libnfc device instead of PC/SC readers.", valueName: "CONNSTRING"))
    var device: String?
    @Flag(help: "Keep each read in the history (`cardscan history`): the report as shown, each trip once across reads.")
    var save = false

    func validate() throws {
        if csv && jsonl { throw ValidationError("--csv and --jsonl: choose one") }
    }

    /// Machine-readable output: no blank line between cards, no "Watching…" chatter on stdout.
    private var quiet: Bool { jsonl || csv }

    func run() throws {
        let settings = try ScanSettings(profiles, trace: trace)
        let table = csv ? CSVOutput() : nil
        let history = save ? try HistorySaving() : nil
        if let device { return try watchNFC(device, settings, table, history) }
        let choice = reader ?? ProcessInfo.processInfo.environment["CARDSCAN_READER"].flatMap { $0.isEmpty ? nil : $0 }
        let monitor = CardMonitor()
        if !quiet { eprint("Watching for cards (Ctrl-C to stop)…") }
        var readers: [String] = []
        var serviceSeen = false
        while let event = monitor.next(timeout: nil) {
            if event != .serviceLost { serviceSeen = true }
            switch event {
            case .cardPresented(let state):
                if let choice {
                    if readers.isEmpty { readers = (try? PCSCContext().readerNames()) ?? [state.name] }
                    guard (try? ReaderSelection.select(choice, from: readers)) == state.name else { continue }
                }
                readOne(settings, table, history) {
                    try PCSCDetector.connect(try PCSCContext(), reader: state.name, transmitTimeout: .seconds(option: apduTimeout))
                }
            case .cardRemoved:
                break
            case .readersChanged(let names):
                readers = names
                eprint(names.isEmpty ? "No reader connected; waiting for one…" : "Readers: " + names.joined(separator: ", "))
            case .serviceLost:
                eprint(
                    serviceSeen
                        ? "pcscd stopped; waiting for it to come back…"
                        : "pcscd is not running; waiting for it to start (`sudo systemctl start pcscd`, or `sudo pcscd` where there is no systemd)…"
                )
            case .serviceRestored:
                eprint("pcscd is back; watching again.")
            }
        }
    }

    /// Reads and prints one card; a failure is reported and watching goes on. A read whose
    /// very first command the reader could not carry (a card just laid down, a reader still
    /// settling: `SCARD_E_NOT_TRANSACTED`) is tried again on a new connection, up to
    /// ``firstCommandRetries`` times after 100, 200, 300 and 400 ms (a second in all), before
    /// it counts as failed: nothing was read, so nothing is read twice. A card already gone
    /// ends the tries at its connection.
    private func readOne(_ settings: ScanSettings, _ table: CSVOutput?, _ history: HistorySaving?, _ connect: () throws -> CardConnection) {
        do {
            var connection = try connect()
            var outcome = try settings.read(connection)
            var retries = 0
            while retries < Self.firstCommandRetries, outcome.report == nil, outcome.exchanges <= 1, case .transport? = outcome.error {
                retries += 1
                if settings.trace || settings.verbose { eprint("The reader could not carry the first command: reading again (\(retries))") }
                usleep(useconds_t(100_000 * retries))
                guard let again = try? connect(), let read = try? settings.read(again) else { break }
                (connection, outcome) = (again, read)
            }
            history?.keep(outcome, reader: connection.reader)
            try settings.print(outcome, json: false, jsonl: quiet, csv: table, place: ReadPlace(reader: connection.reader, time: Date()))
            if !quiet { out("") }
        } catch let e as ExitCode {
            _ = e  // a failed read was reported; keep watching
        } catch {
            printError(error)
        }
    }

    /// How often a read whose first command failed is tried again. One retry at once left 1
    /// tap in 200 unread with a second client connecting to the reader as the card arrived:
    /// the retry met the same `SCARD_E_NOT_TRANSACTED` 0.1 ms later, and the reader stayed so
    /// for 300 ms or more (docs/reliability.md §A second client).
    static let firstCommandRetries = 4

    /// Every card in a libnfc device's field, until interrupted: each is read once, and the
    /// next after it has left the field.
    private func watchNFC(_ connectionString: String, _ settings: ScanSettings, _ table: CSVOutput?, _ history: HistorySaving?) throws {
        let device = try openNFC(connectionString, apduTimeout: apduTimeout)
        if !quiet { eprint("Watching \(device.name) for cards (Ctrl-C to stop)…") }
        while true {
            guard let connection = try guarded({ try NFCDetector.waitForCard(device, timeout: nil) }) else { continue }
            do {
                let outcome = try settings.read(connection)
                history?.keep(outcome, reader: connection.reader)
                try settings.print(
                    outcome, json: false, jsonl: quiet, csv: table, place: ReadPlace(reader: connection.reader, time: Date()))
            } catch let e as ExitCode { _ = e } catch { printError(error) }
            if !quiet { out("") }
            while NFCDetector.isStillPresent(connection.card, on: device) { usleep(300_000) }
        }
    }
}
