import APDU
import ArgumentParser
import CardProfiles
import Foundation
import NDEF
import PCSCTransport

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait for a card, recognise it, read it and print what it holds (the default).",
        discussion: """
        Examples:
          cardscan --profile shanghai-transit
          cardscan -r 1 --json
          cardscan --record card.apdu --trace
        """)

    @OptionGroup var profiles: ProfileOptions
    @Option(name: [.short, .long], help: ArgumentHelp("Reader: index, exact name or unique substring (default: $CARDSCAN_READER, else any).", valueName: "READER"))
    var reader: String?
    @Option(help: ArgumentHelp("Seconds to wait for a card (0: only a card already there).", valueName: "SECONDS"))
    var timeout: Double = 60
    @Option(name: .customLong("apdu-timeout"), help: ArgumentHelp("Seconds one command may take before the card counts as unresponsive.", valueName: "SECONDS"))
    var apduTimeout: Double = 5
    @Flag(help: "Print the report as JSON.") var json = false
    @Option(help: ArgumentHelp("Write the exchanges to this transcript file (*.apdu).", valueName: "FILE")) var record: String?
    @Flag(help: "Print each exchange to stderr as it happens.") var trace = false
    @Flag(name: .shortAndLong, help: "Say which reader and profile are used.") var verbose = false
    @Option(help: ArgumentHelp("Read through this libnfc device instead of PC/SC (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb).", valueName: "CONNSTRING"))
    var device: String?

    func run() throws {
        let access = ReaderAccess(choice: reader)
        let registry = profiles.registry()
        if let device {
            let reading = CardReading(registry: registry, profile: profiles.profile, trace: trace, verbose: verbose,
                                      record: record, apduTimeout: apduTimeout)
            return try NFCReading(reading: reading, connectionString: device, timeout: timeout).run(json: json)
        }
        let ctx = try guarded { try access.context() }
        guard let state = try guarded({ try access.waitForOneCard(ctx, timeout: .milliseconds(Int(timeout * 1000))) }) else {
            throw nothingPresented(within: timeout)
        }
        let outcome = try guarded {
            try CardReading(registry: registry, profile: profiles.profile, trace: trace, verbose: verbose,
                            record: record, apduTimeout: apduTimeout).read(state, context: ctx)
        }
        try outcome.print(json: json, jsonl: false)
    }
}

/// One card read, shared by `scan` and `watch`.
struct CardReading {
    let registry: ProfileRegistry
    let profile: String?
    let trace: Bool
    let verbose: Bool
    let record: String?
    let apduTimeout: Double

    struct Outcome {
        var result: ReadResult
        /// No transit profile knew the card, but it carries NDEF: its tag type and message.
        var ndef: (tag: String, content: (NDEFStatus, NDEFMessage?))? = nil

        func print(json: Bool, jsonl: Bool) throws {
            if let ndef { return printNDEF(ndef.tag, ndef.content, json: json || jsonl) }
            if let report = result.report {
                if jsonl { out(report.json.serialized()) }
                else { out(json ? report.json.serialized(pretty: true) : ReportPrinter(style: Style()).render(report)) }
            }
            if let error = result.error {
                if !jsonl || result.report == nil { printError(error) }
                if !jsonl { throw ExitCode(error.exitCode) }
            }
        }
    }

    func read(_ state: ReaderState, context: PCSCContext) throws -> Outcome {
        let card = try context.connect(to: state.name)
        card.transmitTimeout = .milliseconds(Int(apduTimeout * 1000))
        defer { card.disconnect() }
        if verbose { eprint("Card on \(state.name), ATR \(card.atr.hexString), protocol \(card.activeProtocol.contains(.t1) ? "T=1" : "T=0")") }
        var outcome: Outcome
        if PCSCType2Channel.isType2(atr: card.atr) {
            // An Ultralight/NTAG: no transit profile reads one; its NDEF message is what it holds.
            let error: ReadError = profile.map { .notThisCard(profile: $0, reason: "the card is a MIFARE Ultralight/NTAG (an NFC Forum Type 2 tag)") }
                ?? .unrecognised(tried: [], atr: card.atr)
            outcome = Outcome(result: ReadResult(report: nil, error: error))
        } else if let felica = PCSCFeliCaChannel(apdus: card, atr: card.atr) {
            outcome = try read(felica, on: state.name, atr: card.atr)
        } else {
            let headers: [Transcript.Header] = [
                .init("technology", "iso7816"), .init("atr", card.atr.hexString), .init("reader", state.name),
                .init("protocol", card.activeProtocol.contains(.t1) ? "T=1" : "T=0"),
            ]
            outcome = try read(channel: card, headers: headers, technology: .iso7816, atr: card.atr) { _ in }
        }
        ndefFallback(&outcome) { try? PresentedTag.onPCSC(card, trace: trace) }
        return outcome
    }

    /// The NDEF fallback: a card no transit profile recognised (without --profile) may be an
    /// NFC Forum tag; its message becomes the outcome. A `--record` does not cover it: said.
    func ndefFallback(_ outcome: inout Outcome, _ tag: () -> PresentedTag?) {
        guard profile == nil, case .unrecognised? = outcome.result.error, let tag = tag(), let content = try? tag.read() else { return }
        outcome.ndef = (tag.name, content)
        if let record { eprint("note: the card is an NFC Forum tag, not a transit card: its NDEF read is not in \(record)") }
    }

    /// A FeliCa card on a PC/SC contactless reader: its frames go in the reader's pseudo-APDUs,
    /// Polling too (so profiles can ask for each system code).
    func read(_ felica: PCSCFeliCaChannel, on reader: String, atr: [UInt8]) throws -> Outcome {
        guard let first = try felica.poll(systemCode: 0xFFFF) else {
            throw PseudoAPDUError(operation: "FeliCa Polling", answer: [], failure: .timeout)
        }
        if verbose { eprint("FeliCa card, IDm \(first.prefix(8).hexString), frames in \(felica.wrapping == .direct ? "FF 00 00 00" : "FF 00 00 00 … D4 40 01") pseudo-APDUs") }
        let headers: [Transcript.Header] = [.init("technology", "felica"), .init("idm", first[0..<8].hexString),
                                            .init("pmm", first[8..<16].hexString), .init("system-code", first[16..<18].hexString),
                                            .init("atr", atr.hexString), .init("reader", reader)]
        return try read(channel: felica, headers: headers, technology: .felica, atr: atr) { session in
            session.felicaPoller = { sc in try felica.poll(systemCode: sc) }
        }
    }

    /// Reads the card on `channel` (any transport): detection or `--profile`, recording and
    /// tracing as asked.
    func read(channel: CardChannel, headers base: [Transcript.Header], technology: Profile.Technology, atr: [UInt8]?,
              configure: (CardSession) -> Void) throws -> Outcome {
        let recorder = record.map { _ in RecordingChannel(wrapping: channel) }
        let exchange = Tracer.exchange(recorder ?? channel, felica: technology == .felica, trace: trace)
        let session = CardSession(exchange: exchange, atr: atr)
        session.technology = technology
        configure(session)
        let engine = ProfileEngine(session: session)
        var headers = base + [.init("recorded", ISO8601DateFormatter().string(from: Date()))]
        let result: ReadResult
        do {
            let chosen: Profile
            if let profile { chosen = try registry.resolve(profile); headers.append(.init("profile", chosen.id)) }
            else {
                chosen = try engine.detect(among: registry.profiles)
                headers.append(.init("detected", chosen.id))
            }
            if verbose { eprint("Profile \(chosen.id) (\(chosen.source))") }
            result = engine.read(chosen)
        } catch let e as ReadError {
            result = ReadResult(report: nil, error: e)
        }
        if let record, let recorder {
            try writeAtomically(recorder.transcript(headers: headers).serialized(), to: record)
        }
        return Outcome(result: result)
    }
}

/// Writes `text` to a temporary file beside `path`, then renames it: an interrupted run
/// never leaves half a file.
func writeAtomically(_ text: String, to path: String) throws {
    let tmp = path + ".tmp-\(getpid())"
    try text.write(toFile: tmp, atomically: false, encoding: .utf8)
    guard rename(tmp, path) == 0 else {
        unlink(tmp)
        throw ProfileRegistry.LookupError.unreadable(path, String(cString: strerror(errno)))
    }
}
