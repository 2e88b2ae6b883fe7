import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation
import NFCTransport

/// What `scan` and `watch` share: the profile (resolved before any card is waited for), the
/// trace and recording options, and how a read is printed.
struct ScanSettings {
    let registry: ProfileRegistry
    let profile: Profile?
    let trace: Bool
    let verbose: Bool
    let record: String?
    let showPersonal: Bool
    let options: ProfileOptions

    init(_ options: ProfileOptions, trace: Bool, verbose: Bool = false, record: String? = nil) throws {
        let registry = options.registry()
        self.registry = registry
        profile = try guarded { try options.profile.map(registry.resolve) }
        self.trace = trace
        self.verbose = verbose
        self.record = record
        showPersonal = options.showPersonal
        self.options = options
    }

    /// Reads the card on `connection` (the library does the work), writing `--record`'s transcript.
    func read(_ connection: CardConnection) throws -> CardReadOutcome {
        if verbose || trace { eprint("Card on \(connection.reader): \(connection.card)" + (connection.carriage.map { ", \($0)" } ?? "")) }
        var reader = CardReader(registry: registry, profile: profile)
        reader.recordsTranscript = record != nil
        reader.showsPersonalData = showPersonal
        reader.showsFullNumbers = options.showPAN
        reader.recordsRaw = options.recordRaw
        reader.terminal = options.terminal
        if trace { reader.observer = Tracer(felica: connection.card.technology == .felica, raw: options.recordRaw).observe }
        if verbose { reader.onProfileChosen = { p in eprint("Profile \(p.id) (\(p.source))") } }
        let outcome = reader.read(connection)
        if trace { for line in outcome.report?.skipped ?? [] { eprint(line) } }
        if let record, let transcript = outcome.transcript {
            try guarded { try TextFile.write(transcript.serialized(), to: record) }
            if outcome.ndef != nil { eprint("note: the card is an NFC Forum tag, not a transit card: \(record) holds its NDEF read") }
        }
        return outcome
    }

    /// Prints the report (or the NDEF content of a tag no profile knew); a failed read exits
    /// with its status after printing what was read, unless `jsonl` (watch goes on).
    func print(_ outcome: CardReadOutcome, json: Bool, jsonl: Bool, csv: CSVOutput? = nil) throws {
        if let ndef = outcome.ndef {
            if csv != nil {
                eprint("note: the card is an NFC Forum tag: no trips for --csv (`cardscan ndef read` shows its content)")
                return
            }
            return printNDEF(ndef, json: json || jsonl)
        }
        if let report = outcome.report {
            if let csv {
                csv.write(report)
            } else if jsonl {
                out(report.json.serialized())
            } else {
                out(json ? report.json.serialized(pretty: true) : ReportPrinter(style: Style()).render(report))
            }
        }
        if let error = outcome.error {
            if !jsonl || outcome.report == nil { printError(error) }
            if !jsonl { throw ExitStatus(for: error).exit }
        }
    }
}

/// `--csv`: the trips of every report printed, under one header (written with the first).
final class CSVOutput {
    private var table = TripTable()

    func write(_ report: CardReport) {
        outRaw((table.columns == nil ? table.header(for: report) : "") + table.rows(for: report))
    }
}

/// Says what `PCSCReaders.waitForOneCard` is waiting for (a card, a tag), on stderr.
func announce(_ notice: PCSCReaders.WaitNotice, what: String) {
    switch notice {
    case .waiting(let reader, let timeout):
        let secs = timeout.map { " (\($0.components.seconds) s; Ctrl-C to stop)" } ?? " (Ctrl-C to stop)"
        eprint("Hold a \(what) on \(reader ?? "a reader")…" + secs)
    case .severalCards(let readers):
        eprint("More than one card is present (\(readers.joined(separator: ", "))): leave only one, or pick a reader with -r.")
    }
}

/// Waits for one card through the libnfc device `device`, or else a PC/SC reader (`reader`,
/// or `CARDSCAN_READER`, or any), saying on stderr what it waits for (`what`: a card, a tag,
/// a FeliCa card); exit 75 when `timeout` passes. `apduTimeout`: seconds one command may
/// take (nil: the transport's default, 5 s for PC/SC and 1 s for libnfc).
func waitForCard(device: String?, reader: String?, timeout: Double, apduTimeout: Double?, what: String = "card") throws -> CardConnection {
    let connection: CardConnection?
    if let device {
        let nfc = try openNFC(device, apduTimeout: apduTimeout)
        eprint("Hold a \(what) on \(nfc.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
        connection = try guarded { try NFCDetector.waitForCard(nfc, timeout: .seconds(option: timeout)) }
    } else {
        let readers = try guarded { try PCSCReaders(choice: reader) }
        connection = try guarded {
            try readers.waitForCard(
                timeout: .seconds(option: timeout), transmitTimeout: .seconds(option: apduTimeout ?? 5),
                notify: { announce($0, what: what) })
        }
    }
    guard let connection else { throw nothingPresented(what, within: timeout) }
    return connection
}

/// Where a card is read from and how long to wait (`cardscan dump`, `cardscan felica`): a PC/SC
/// reader or a libnfc device, the wait for a card, and each command's timeout.
struct CardSourceOptions: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp("PC/SC reader: index, exact name or unique substring.", valueName: "READER"))
    var reader: String?
    @Option(help: ArgumentHelp("Read through this libnfc device instead of PC/SC (e.g. pn532_uart:/dev/ttyUSB0).", valueName: "CONNSTRING"))
    var device: String?
    @Option(help: ArgumentHelp("Seconds to wait for a card.", valueName: "SECONDS")) var timeout: Double = 60
    @Option(
        name: .customLong("apdu-timeout"),
        help: ArgumentHelp("Seconds one command, or the wait for a busy reader, may take.", valueName: "SECONDS"))
    var apduTimeout: Double = 5

    func waitForCard(what: String) throws -> CardConnection {
        try cardscan.waitForCard(device: device, reader: reader, timeout: timeout, apduTimeout: apduTimeout, what: what)
    }
}

/// Opens a libnfc device with a per-exchange timeout (nil: libnfc's default of 1 s).
func openNFC(_ connectionString: String, apduTimeout: Double?) throws -> NFCDevice {
    let device = try guarded { try NFCDevice(connectionString: connectionString) }
    if let apduTimeout { device.timeoutMilliseconds = Int32(apduTimeout * 1000) }
    return device
}

extension Duration {
    /// From a command-line number of seconds.
    static func seconds(option: Double) -> Duration { .milliseconds(Int(option * 1000)) }
}
