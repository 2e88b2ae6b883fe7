import ArgumentParser
import CardProfiles
import Foundation
import PCSCTransport

@main
struct Cardscan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardscan",
        abstract: "Read smart cards and transit cards through PC/SC readers and libnfc devices.",
        discussion: """
            Without a subcommand, cardscan scans: it waits for a card, recognises it
            among the known profiles (or uses --profile), reads it and prints the
            balance, the card's details and its trips.

            Exit codes: 0 success, 1 test mismatch, 64 usage, 65 invalid
            profile/transcript, 66 no such file or profile, 69 no pcscd/reader, 70
            internal error (a bug: please report it), 74 card failed mid-read (partial
            report printed) or output not written, 75 no card before the timeout, 76 card
            not recognised, 130 interrupted (Ctrl-C: what was read is printed first).
            """,
        version: "cardscan \(BuildInfo.version) (\(BuildInfo.source))",
        subcommands: [
            Scan.self, Readers.self, Watch.self, Replay.self, TestCommand.self,
            Read.self, Import.self, Export.self, Profiles.self, APDUCommand.self, ATRCommand.self, NDEFCommand.self,
            FeliCaSurveyCommand.self, DumpCommand.self,
            DESFireDumpCommand.self, UltralightDumpCommand.self, ClassicDumpCommand.self, KeysCommand.self, Doctor.self,
            HistoryCommand.self, ServeCommand.self, CompleteCommand.self,
        ],
        defaultSubcommand: Scan.self
    )

    /// ArgumentParser's `main`, left through `PCSCCallsLeftRunning.leaveProcess`: after a
    /// pcsc-lite call timed out it may still run on a worker thread, and `exit` would then
    /// free what it uses (docs/reliability.md, "A crash at exit").
    static func main() {
        do {
            try refuseUnknownSubcommand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            try command.run()
        } catch {
            // Printed here, not by ArgumentParser's `exit(withError:)`: its stdio `print` loses
            // `--help` on a full disk and exits 0; `out` says so and exits 74.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty { code.isSuccess ? out(message) : eprint(message) }
            PCSCCallsLeftRunning.leaveProcess(code.rawValue)
        }
        PCSCCallsLeftRunning.leaveProcess(0)
    }

    /// `cardscan scna`, `cardscan profile list`: a first word that is no subcommand (the
    /// default command takes no words) is a usage error that names the nearest subcommand.
    static func refuseUnknownSubcommand(_ args: [String]) throws {
        guard let word = args.first, !word.hasPrefix("-"), !word.isEmpty else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        if names.contains(word) { return }
        let near = Spelling.nearest(word, among: names) ?? names.first { $0.hasPrefix(word) || word.hasPrefix($0) }
        throw ValidationError(
            "unknown command '\(word)'" + (near.map { ": did you mean '\($0)'?" } ?? "")
                + " (`cardscan --help` lists the commands)")
    }
}
