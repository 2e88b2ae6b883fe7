import APDU
import ArgumentParser
import CardProfiles
import CardReading

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a profile over recorded transcripts (*.apdu) instead of a card.",
        discussion: """
            The profile comes from --profile, else the transcript's `profile` header,
            else detection among all known profiles. Replay is strict by default: each
            command must equal the next recorded one. --lenient answers any recorded
            command in any order (and 6D 00 to unknown ones), like the card simulator.

            Example: cardscan replay Tests/Fixtures/shanghai-transit/full-read.apdu
            --json
            """)

    @Argument(help: ArgumentHelp("Transcript files (`-`: standard input).", valueName: "FILE")) var files: [String]
    @OptionGroup var profiles: ProfileOptions
    @Flag(help: "Print the report as JSON (several files: one JSON document each, one after another, as jq reads them).")
    var json = false
    @Flag(help: "Print the trips as CSV (RFC 4180): one header, then one row per trip of every file.") var csv = false
    @Flag(help: "Answer commands from the transcript in any order.") var lenient = false
    @Flag(help: "Print each exchange to stderr as it is replayed.") var trace = false

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json: choose one") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given once") }
    }

    func run() throws {
        let registry = profiles.registry()
        let table = csv ? CSVOutput() : nil
        var worst: Int32 = 0
        // With several files, an error names its file and the next file is replayed all the
        // same; the exit status is the worst of them.
        let several = files.count > 1
        // A --profile that names nothing is the command's error, not each file's.
        if several, let explicit = profiles.profile { _ = try guarded { try registry.resolve(explicit) } }
        for file in files {
            // `-`: standard input, as filters take it (`ssh gate cat t.apdu | cardscan replay -`).
            let name = file == "-" ? "standard input" : file
            let code: Int32
            do {
                code = try replay(file, name: name, several: several, registry: registry, table: table)
            } catch {
                let folder = (error as? FileError)?.reason == .folder
                printError(
                    error, file: several ? name : nil,
                    hint: folder ? "give a file in it; `cardscan test FOLDER` replays every transcript under a folder" : nil)
                code = ExitStatus(for: error).rawValue
            }
            worst = max(worst, code)
        }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Replays one file and prints its report: the exit status of its read, or a thrown
    /// error when it could not be read or replayed at all.
    private func replay(_ file: String, name: String, several: Bool, registry: ProfileRegistry, table: CSVOutput?) throws -> Int32 {
        let text = try file == "-" ? TextFile.readStandardInput() : TextFile.read(file)
        let transcript = try Transcript(parsing: text, file: name)
        let outcome = try TranscriptReplay.run(
            transcript, file: name, registry: registry, explicit: profiles.profile,
            lenient: lenient, showsPersonalData: profiles.showPersonal,
            observer: trace
                ? {
                    Tracer(felica: transcript.technology == "felica", type2: transcript.technology == "type2", raw: profiles.recordRaw)
                        .observe($0)
                } : nil,
            showsFullNumbers: profiles.showPAN, tracesRaw: profiles.recordRaw)
        if trace { for line in outcome.result.report?.skipped ?? [] { eprint(line) } }
        if let report = outcome.result.report {
            if let table {
                table.write(report)
            } else {
                out(json ? report.json.serialized(pretty: true) : ReportPrinter(style: Style()).render(report))
            }
        }
        if let error = outcome.result.error {
            printError(error, file: several ? name : nil)
            return ExitStatus(for: error).rawValue
        }
        if !outcome.unused.isEmpty {
            let e = TranscriptReplay.Failure.unusedExchanges(file: name, lines: outcome.unused.map(\.line))
            printError(e, file: several ? name : nil)
            return ExitStatus.invalidInput.rawValue
        }
        return 0
    }
}
