import APDU
import ArgumentParser
import CardProfiles
import Foundation
import PCSCTransport

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read every card presented, until interrupted (Ctrl-C).",
        discussion: """
        Each card is read and printed when it arrives; the next is read after it leaves.
        A card removed mid-read prints its partial report and watching goes on, as it does
        when a reader is unplugged or pcscd restarts.

        Example: cardscan watch --jsonl | jq .balance.amount
        """)

    @OptionGroup var profiles: ProfileOptions
    @Option(name: [.short, .long], help: ArgumentHelp("Reader: index, exact name or unique substring.", valueName: "READER"))
    var reader: String?
    @Flag(help: "One JSON report per line, flushed after each card.") var jsonl = false
    @Flag(help: "Print each exchange to stderr.") var trace = false
    @Option(name: .customLong("apdu-timeout"), help: ArgumentHelp("Seconds one command may take.", valueName: "SECONDS"))
    var apduTimeout: Double = 5

    func run() throws {
        let access = ReaderAccess(choice: reader)
        let registry = profiles.registry()
        let reading = CardReading(registry: registry, profile: profiles.profile, trace: trace, verbose: false, record: nil, apduTimeout: apduTimeout)
        var context: PCSCContext? = nil
        var lostService = false
        var announcedNoReader = false
        if !jsonl { eprint("Watching for cards (Ctrl-C to stop)…") }
        while true {
            do {
                if context == nil {
                    context = try PCSCContext()
                    if lostService { eprint("pcscd is back; watching again."); lostService = false }
                }
                let ctx = context!
                if try ctx.readerNames().isEmpty {
                    if !announcedNoReader { eprint("No reader connected; waiting for one…"); announcedNoReader = true }
                    _ = try ctx.waitForCard(timeout: .seconds(1))
                    continue
                }
                announcedNoReader = false
                guard let state = try access.waitForOneCard(ctx, timeout: .seconds(1), quiet: true) else { continue }
                let outcome = try reading.read(state, context: ctx)
                try outcome.print(json: false, jsonl: jsonl)
                if !jsonl { out("") }
                _ = try ctx.waitForRemoval(from: state.name, timeout: nil)
            } catch let e as PCSCError where e.code == .noService || e.code == .serviceStopped || e.code == .commError {
                if !lostService { eprint("pcscd stopped; waiting for it to come back…"); lostService = true }
                context = nil
                usleep(300_000)
            } catch let e as UserFacingError {
                printError(e)
                if e is ReaderSelectionError { throw ExitCode(64) }
                usleep(300_000)
            }
        }
    }
}
