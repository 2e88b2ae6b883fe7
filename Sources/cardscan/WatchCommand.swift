import APDU
import ArgumentParser
import CardProfiles
import Foundation
import PCSCTransport

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
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
    @Flag(help: "Print each exchange to stderr.") var trace = false
    @Option(name: .customLong("apdu-timeout"), help: ArgumentHelp("Seconds one command may take.", valueName: "SECONDS"))
    var apduTimeout: Double = 5
    @Option(help: ArgumentHelp("Watch this libnfc device instead of PC/SC readers.", valueName: "CONNSTRING"))
    var device: String?

    func run() throws {
        let registry = profiles.registry()
        let reading = CardReading(registry: registry, profile: profiles.profile, trace: trace, verbose: false, record: nil, apduTimeout: apduTimeout)
        if let device {
            return try NFCReading(reading: reading, connectionString: device, timeout: nil).watch(jsonl: jsonl)
        }
        let choice = ReaderAccess(choice: reader).choice
        let monitor = CardMonitor()
        if !jsonl { eprint("Watching for cards (Ctrl-C to stop)…") }
        var readers: [String] = []
        while let event = monitor.next(timeout: nil) {
            switch event {
            case .cardPresented(let state):
                if let choice {
                    if readers.isEmpty { readers = (try? PCSCContext().readerNames()) ?? [state.name] }
                    guard (try? ReaderSelection.select(choice, from: readers)) == state.name else { continue }
                }
                do {
                    let outcome = try reading.read(state, context: try PCSCContext())
                    try outcome.print(json: false, jsonl: jsonl)
                    if !jsonl { out("") }
                } catch let e as ExitCode {
                    _ = e                                   // a failed read was reported; keep watching
                } catch {
                    printError(error)
                }
            case .cardRemoved:
                break
            case .readersChanged(let names):
                readers = names
                eprint(names.isEmpty ? "No reader connected; waiting for one…" : "Readers: " + names.joined(separator: ", "))
            case .serviceLost:
                eprint("pcscd stopped; waiting for it to come back…")
            case .serviceRestored:
                eprint("pcscd is back; watching again.")
            }
        }
    }
}
