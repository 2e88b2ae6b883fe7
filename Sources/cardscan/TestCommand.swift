import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Regression: replay each transcript and compare with its expected report.",
        discussion: """
            Every NAME.apdu under the directories is replayed (strictly) and its report
            compared with NAME.expected.json beside it. A mismatch prints each differing
            field path with the expected and actual values. A transcript without an
            expected report fails ("no expected report"), unless --allow-missing skips it.
            The last line is `N passed, N failed` (and `, N skipped` when some were).
            A directory with no transcript in it is an error (exit 66), not a pass.
            --update rewrites the expected reports, for a maintainer who changed a
            profile on purpose.

            Profiles are found as for a read: one of yours with a built-in's id (in
            ~/.config/cardscan/profiles or --profile-dir) replaces the built-in, so a
            run checks your version. To check the built-ins alone, run with
            XDG_CONFIG_HOME set to an empty folder.

            Transcripts are checked on --jobs threads (default: every core); results
            print in the same order whatever N. --shard I/N checks one of N
            deterministic slices, so a CI matrix or GNU parallel can spread a corpus
            over machines; --jsonl prints one JSON object a line for such runners.

            Examples:
              cardscan test Tests/Fixtures
              cardscan test corpus/ --jobs 2 --shard 3/8 --jsonl > shard-3.jsonl
            """)

    @Argument(help: ArgumentHelp("Directories (searched recursively) or transcript files.", valueName: "DIR"))
    var paths: [String]
    @OptionGroup var profiles: ProfileOptions
    @Flag(help: "Write the actual reports as the new expected ones.") var update = false
    @Flag(help: "Skip a transcript that has no expected report beside it (by default it fails).") var allowMissing = false
    @Option(help: ArgumentHelp("Transcripts checked at once (default: the number of cores).", valueName: "N")) var jobs: Int?
    @Option(
        help: ArgumentHelp(
            "Check only the I-th of N deterministic slices (1/4 ... 4/4): a transcript's slice depends on its path alone.",
            valueName: "I/N"))
    var shard: String?
    @Flag(help: "Print one JSON object a line per transcript (path, status, first difference); the closing line goes to stderr.")
    var jsonl = false

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs is 1 to 1024, not \(jobs)") }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard is I/N with 1 ≤ I ≤ N, e.g. 2/4 (not '\(shard)')") }
    }

    /// What checking one transcript found.
    struct Result {
        enum Status: String { case pass, fail, skip, updated }
        var file: String
        var status: Status
        /// Why it failed (an error message), or the differences, first first.
        var error: String?
        var differences: [ReportDiff.Difference] = []
    }

    func run() throws {
        let registry = profiles.registry()
        let style = Style()
        var transcripts: [String] = []
        for p in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else {
                throw fail(FileError(path: p, reason: .missing), .noSuchInput)
            }
            if isDir.boolValue {
                let found: [String]
                do { found = try TextFile.files(under: p, endingIn: ".apdu") } catch { throw fail(error, .noSuchInput) }
                // A folder with nothing to check is a wrong path, not a passing corpus (a
                // shard that happens to be empty, below, is fine).
                if found.isEmpty { throw fail(NoTranscripts(folder: p), .noSuchInput) }
                transcripts += found
            } else {
                transcripts.append(p)
            }
        }
        // A transcript named twice (a folder and a file in it) is checked once: two threads
        // would otherwise update the same expected report at once.
        var seen = Set<String>()
        transcripts = transcripts.filter { seen.insert(Self.identity(of: $0)).inserted }
        if let shard = shard.flatMap(Shard.init) { transcripts = transcripts.filter(shard.contains) }
        let jobs = max(1, self.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var passed = 0, failed = 0, skipped = 0, updated = 0
        // In chunks, so results print as they come (one write a chunk), in the transcripts'
        // order whatever --jobs.
        let chunk = 512 * jobs
        for start in stride(from: 0, to: transcripts.count, by: chunk) {
            let files = Array(transcripts[start..<min(start + chunk, transcripts.count)])
            let results = parallelMap(files.count, jobs: jobs) { check(files[$0], registry: registry) }
            var lines: [String] = []
            lines.reserveCapacity(results.count)
            for r in results {
                switch r.status {
                case .pass: passed += 1
                case .updated: updated += 1
                case .fail: failed += 1
                case .skip: skipped += 1
                }
                lines.append(jsonl ? Self.jsonLine(r) : Self.text(r, style))
            }
            out(lines.joined(separator: "\n"))
        }
        let summary =
            "\(passed) passed, \(failed) failed" + (updated > 0 ? ", \(updated) updated" : "") + (skipped > 0 ? ", \(skipped) skipped" : "")
        if jsonl { eprint(summary) } else { out(summary) }
        if failed > 0 { throw ExitStatus.testMismatch.exit }
    }

    /// Replays `file` (strictly) and compares its report with the expected one beside it; with
    /// --update, writes it there instead. Prints nothing: the caller does, in order.
    func check(_ file: String, registry: ProfileRegistry) -> Result {
        let expectedPath = String(file.dropLast(".apdu".count)) + ".expected.json"
        let actual: JSONValue
        do {
            let t = try Transcript(parsing: try TextFile.read(file), file: file)
            let outcome = try TranscriptReplay.run(
                t, file: file, registry: registry, explicit: profiles.profile, showsPersonalData: profiles.showPersonal,
                showsFullNumbers: profiles.showPAN)
            if !outcome.unused.isEmpty { throw TranscriptReplay.Failure.unusedExchanges(file: file, lines: outcome.unused.map(\.line)) }
            switch outcome.result.error {
            case nil, .transport?: break  // a recorded removal gives an expected partial report
            case let e?: throw e
            }
            guard let report = outcome.result.report else { throw ReadError.notThisCard(profile: "?", reason: "no report") }
            actual = report.json
        } catch {
            return Result(file: file, status: .fail, error: (error as? UserFacingError)?.message ?? "\(error)")
        }
        if update {
            // A file that already says it is left alone, and reported as passing, not updated.
            let written = actual.serialized(pretty: true) + "\n"
            var info = stat()
            if stat(expectedPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG, (try? TextFile.read(expectedPath)) == written {
                return Result(file: file, status: .pass)
            }
            // Not synced one by one: an update rewrites thousands; one cut short is re-run.
            do { try TextFile.write(written, to: expectedPath, durable: false) } catch {
                return Result(file: file, status: .fail, error: error.message)
            }
            return Result(file: file, status: .updated)
        }
        let expectedText: String
        do { expectedText = try TextFile.read(expectedPath) } catch {
            if error.isMissing {
                let name = expectedPath.split(separator: "/").last!
                if allowMissing { return Result(file: file, status: .skip, error: "no \(name)") }
                return Result(
                    file: file, status: .fail,
                    error: "no expected report (\(name)): `cardscan test --update` writes it, --allow-missing skips such transcripts")
            }
            return Result(file: file, status: .fail, error: error.message)
        }
        // As `--update` writes it: equal, with no parsing (a hand-edited file is compared by key).
        if actual.serialized(pretty: true) + "\n" == expectedText { return Result(file: file, status: .pass) }
        let expected: JSONValue
        do { expected = try JSONValue(parsing: expectedText) } catch {
            return Result(file: file, status: .fail, error: "\(expectedPath): \(error.message)")
        }
        let diffs = ReportDiff.compare(expected: expected, actual: actual)
        return Result(file: file, status: diffs.isEmpty ? .pass : .fail, differences: diffs)
    }

    static func text(_ r: Result, _ style: Style) -> String {
        switch r.status {
        case .pass: return style.green("ok") + "   \(r.file)"
        case .updated: return style.yellow("UPDATED") + " \(r.file)"
        case .skip: return style.dim("SKIP") + " \(r.file) (\(r.error ?? ""))"
        case .fail:
            var lines = [style.red("FAIL") + " \(r.file)"]
            if let e = r.error { lines.append("  " + e.replacingOccurrences(of: "\n", with: "\n  ")) }
            for d in r.differences { lines.append("  \(d.path.isEmpty ? "(report)" : d.path): expected \(d.expected), actual \(d.actual)") }
            return lines.joined(separator: "\n")
        }
    }

    /// `{"path": "…", "status": "fail", "difference": {"path": "balance.amount", "expected": "5710", "actual": "5700"}, "differences": 2}`.
    static func jsonLine(_ r: Result) -> String {
        var pairs: [(String, JSONValue)] = [("path", .string(r.file)), ("status", .string(r.status.rawValue))]
        if let d = r.differences.first {
            pairs.append(
                ("difference", .object([("path", .string(d.path)), ("expected", .string(d.expected)), ("actual", .string(d.actual))])))
            pairs.append(("differences", .int(r.differences.count)))
        }
        if let e = r.error { pairs.append(("error", .string(e))) }
        return JSONValue.object(pairs).serialized()
    }
}

extension TestCommand {
    /// The file a path names, whatever way it is written (`a.apdu`, `./a.apdu`, a link): its
    /// device and inode (one stat; realpath costs a call per folder of the path).
    static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return path }
        return "\(info.st_dev):\(info.st_ino)"
    }
}

/// `cardscan test FOLDER` found no transcript under FOLDER (exit 66).
struct NoTranscripts: UserFacingError {
    let folder: String
    var message: String { "\(folder): no transcripts (*.apdu) in it or below it" }
    var hint: String? {
        "check the path; `cardscan --record FILE.apdu` records one, and `cardscan test --update` writes its expected report"
    }
}
