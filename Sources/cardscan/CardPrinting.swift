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
        try refuseUnwritableOutput(record)
        showPersonal = options.showPersonal
        self.options = options
    }

    /// Reads the card on `connection` (the library does the work); ``print(_:json:jsonl:csv:)``
    /// writes `--record`'s transcript.
    func read(_ connection: CardConnection) throws -> CardReadOutcome {
        if verbose || trace { eprint("Card on \(connection.reader): \(connection.card)" + (connection.carriage.map { ", \($0)" } ?? "")) }
        var reader = CardReader(registry: registry, profile: profile)
        reader.recordsTranscript = record != nil
        reader.showsPersonalData = showPersonal
        reader.showsFullNumbers = options.showPAN
        reader.readsEveryApplication = !options.firstMatch
        reader.isCancelled = { Interruption.shared.isRequested }
        reader.recordsRaw = options.recordRaw
        reader.terminal = options.terminal
        if case .classic = connection.card {
            // The user's keys: a store file others may read is refused, as `cardscan keys` refuses it.
            reader.classicKeys = try ClassicKeyStore.load().map(\.stored.keys)
        }
        if trace {
            reader.observer =
                Tracer(
                    felica: connection.card.technology == .felica, type2: connection.card.technology == .ultralight,
                    classic: connection.card.technology == .classic, raw: options.recordRaw
                ).observe
        }
        if verbose { reader.onProfileChosen = { p in eprint("Profile \(p.id) (\(p.source))") } }
        let outcome = reader.read(connection)
        if trace { for line in outcome.report?.skipped ?? [] { eprint(line) } }
        return outcome
    }

    /// Writes `--record`'s transcript, then prints the outcome (``show(_:json:jsonl:csv:)``): a
    /// report that cannot be printed (a closed pipe) does not cost the transcript, and a
    /// transcript that cannot be written (a full disk) costs neither the report nor the read's
    /// own exit status; alone, it ends with exit 74.
    func print(_ outcome: CardReadOutcome, json: Bool, jsonl: Bool, csv: CSVOutput? = nil, place: ReadPlace? = nil) throws {
        var unwritten: FileError? = nil
        if let record, let transcript = outcome.transcript {
            do {
                try TextFile.write(transcript.serialized(), to: record)
                if outcome.ndef != nil { eprint("note: the card is an NFC Forum tag, not a transit card: \(record) holds its NDEF read") }
            } catch { unwritten = error }
        }
        do { try show(outcome, json: json, jsonl: jsonl, csv: csv, place: place) } catch {
            if let unwritten { printError(unwritten) }
            throw error
        }
        if let unwritten { throw fail(unwritten, ExitStatus(for: unwritten)) }
    }

    /// Prints the report (or the NDEF content of a tag no profile knew); a failed read exits
    /// with its status after printing what was read, unless `jsonl` (watch goes on). With
    /// `--json`/`--jsonl` a failure is data too: a partial report carries `error`, and a read
    /// with no report prints what the card is and what failed (``OutcomeJSON``). `place`:
    /// where and when `watch` read the card.
    private func show(_ outcome: CardReadOutcome, json: Bool, jsonl: Bool, csv: CSVOutput?, place: ReadPlace?) throws {
        if let ndef = outcome.ndef {
            if csv != nil {
                eprint("note: the card is an NFC Forum tag: no trips for --csv (`cardscan ndef read` shows its content)")
                return
            }
            if let place, !(json || jsonl) { out(Style().dim(place.line)) }
            return printNDEF(ndef, json: json || jsonl)
        }
        let hint: String? = {
            if case .unrecognised? = outcome.error { return OutcomeJSON.unrecognisedHint(outcome.card) }
            return nil
        }()
        if let report = outcome.report {
            if let csv {
                csv.write(report)
            } else if json || jsonl {
                var value = report.json
                if let place { value = place.adding(to: value) }
                if let error = outcome.error { value = OutcomeJSON.adding(error, to: value) }
                out(value.serialized(pretty: !jsonl))
            } else {
                if let place { out(Style().dim(place.line)) }
                out(ReportPrinter(style: Style()).render(report))
            }
        } else if let error = outcome.error, json || jsonl {
            var value = OutcomeJSON.failure(error, card: outcome.card, hint: hint ?? commandLineHint(for: error) ?? error.hint)
            if let place { value = place.adding(to: value) }
            out(value.serialized(pretty: !jsonl))
        }
        if let error = outcome.error {
            printError(error, hint: hint)  // also beside a --jsonl line: its "partial" says only that it stopped
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
        eprint("Hold \(article(what)) \(what) on \(reader ?? "a reader")…" + secs)
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
        eprint("Hold \(article(what)) \(what) on \(nfc.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
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
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a card. (default: 60)", valueName: "SECONDS"), transform: seconds)
    var timeout: Double =
        60
    @Option(
        name: .customLong("apdu-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Seconds one command, or the wait for a busy reader, may take. (default: 5)", valueName: "SECONDS"),
        transform: commandSeconds)
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

/// An output path (`--record`, `--image`) that cannot be written (a missing folder, a folder)
/// is said before a card is waited for and read for nothing: exit 74.
func refuseUnwritableOutput(_ path: String?) throws {
    if let path { try guarded { try TextFile.checkWritable(path) } }
}

/// The largest number of seconds an option takes (a week): longer is no time-out a user means,
/// and every wait converts its seconds to whole milliseconds.
let maximumOptionSeconds: Double = 7 * 24 * 3600

/// `--timeout`, `--apdu-timeout`: a number of seconds from 0 to a week. Anything else (`nan`,
/// `inf`, `1e300`, `-1`) is a usage error naming the option, never a trap where it becomes
/// milliseconds.
func seconds(_ argument: String) throws -> Double {
    guard let value = Double(argument), value.isFinite, value >= 0, value <= maximumOptionSeconds else {
        throw ValidationError("a number of seconds from 0 to \(Int(maximumOptionSeconds)) (a week), not '\(argument)'")
    }
    return value
}

/// `--apdu-timeout`: as ``seconds(_:)``, at least a millisecond. 0 would fail every command at
/// once through PC/SC, and means "wait forever" to libnfc.
func commandSeconds(_ argument: String) throws -> Double {
    let value = try seconds(argument)
    guard value >= 0.001 else { throw ValidationError("at least 0.001 (a millisecond) for one command, not '\(argument)'") }
    return value
}

/// `an` before a vowel sound (an ISO 7816 card, an NDEF tag), else `a`.
func article(_ noun: String) -> String {
    guard let first = noun.first else { return "a" }
    return "aeiouAEIO".contains(first) || noun.hasPrefix("NDEF") || noun.hasPrefix("NFC") ? "an" : "a"
}
