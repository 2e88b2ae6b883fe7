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
            field path with the expected and actual values. The last line is `N passed,
            N failed` (and `, N skipped` for transcripts without an expected report).
            --update rewrites the expected reports, for a maintainer who changed a
            profile on purpose.

            Example: cardscan test Tests/Fixtures
            """)

    @Argument(help: ArgumentHelp("Directories (searched recursively) or transcript files.", valueName: "DIR"))
    var paths: [String]
    @OptionGroup var profiles: ProfileOptions
    @Flag(help: "Write the actual reports as the new expected ones.") var update = false

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
                let files = FileManager.default.enumerator(atPath: p)?.compactMap { $0 as? String } ?? []
                transcripts += files.filter { $0.hasSuffix(".apdu") }.sorted().map { p + "/" + $0 }
            } else {
                transcripts.append(p)
            }
        }
        var passed = 0, failed = 0, skipped = 0
        for file in transcripts {
            let expectedPath = String(file.dropLast(".apdu".count)) + ".expected.json"
            let actual: JSONValue
            do {
                let t = try Transcript(parsing: try TextFile.read(file), file: file)
                let outcome = try TranscriptReplay.run(
                    t, file: file, registry: registry, explicit: profiles.profile, showsPersonalData: profiles.showPersonal)
                if !outcome.unused.isEmpty { throw TranscriptReplay.Failure.unusedExchanges(file: file, lines: outcome.unused.map(\.line)) }
                switch outcome.result.error {
                case nil, .transport?: break  // a recorded removal gives an expected partial report
                case let e?: throw e
                }
                guard let report = outcome.result.report else { throw ReadError.notThisCard(profile: "?", reason: "no report") }
                actual = report.json
            } catch {
                failed += 1
                out(style.red("FAIL") + " \(file)")
                out("  " + ((error as? UserFacingError)?.message ?? "\(error)").replacingOccurrences(of: "\n", with: "\n  "))
                continue
            }
            if update {
                try guarded { try TextFile.write(actual.serialized(pretty: true) + "\n", to: expectedPath) }
                out(style.yellow("UPDATED") + " \(file)")
                passed += 1
                continue
            }
            guard FileManager.default.fileExists(atPath: expectedPath) else {
                skipped += 1
                out(style.dim("SKIP") + " \(file) (no \(expectedPath.split(separator: "/").last!))")
                continue
            }
            let expected: JSONValue
            do { expected = try JSONValue(parsing: try TextFile.read(expectedPath)) } catch {
                failed += 1
                out(style.red("FAIL") + " \(file)\n  \(expectedPath): \(error)")
                continue
            }
            let diffs = ReportDiff.compare(expected: expected, actual: actual)
            if diffs.isEmpty {
                passed += 1
                out(style.green("ok") + "   \(file)")
            } else {
                failed += 1
                out(style.red("FAIL") + " \(file)")
                for d in diffs { out("  \(d.path.isEmpty ? "(report)" : d.path): expected \(d.expected), actual \(d.actual)") }
            }
        }
        out("\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : ""))
        if failed > 0 { throw ExitStatus.testMismatch.exit }
    }
}
