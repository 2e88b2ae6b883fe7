import APDU
import CardReading
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// The package root, found from this file's path (tests run from any directory).
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

let fixtures = packageRoot + "/Tests/Fixtures"

let builtInRegistry = ProfileRegistry(directories: [.init(path: packageRoot + "/profiles", isBuiltIn: true)])

func transcript(_ relative: String) throws -> Transcript {
    try Transcript(parsing: String(contentsOfFile: fixtures + "/" + relative, encoding: .utf8), file: relative)
}

/// The report of a fixture replayed by detection among every built-in profile (its `detected`
/// header, which names the profile a key check holds for, left out).
func replayByDetection(_ relative: String) throws -> CardReport {
    var t = try transcript(relative)
    t.headers.removeAll { $0.key == "detected" }
    return try #require(try TranscriptReplay.run(t, file: relative, registry: builtInRegistry).result.report)
}

func profileYAML(_ body: String) -> String {
    "id: t\nname: Test\ncurrency: CNY\n" + body
}

/// Loads a profile from text, failing the test with every issue if it does not load.
func load(_ yaml: String) throws(ProfileLoadError) -> Profile {
    try ProfileLoader.load(yaml: yaml, file: "test.yaml")
}

/// Runs `profile` over answers scripted as (command hex, response hex) in strict order.
func run(_ profile: Profile, _ exchanges: [(String, String)]) throws -> ReadResult {
    var lines = ["# cardscan transcript 1"]
    for (c, r) in exchanges {
        lines.append("> " + c)
        lines.append(r.hasPrefix("!") ? r : "< " + r)
    }
    let t = try Transcript(parsing: lines.joined(separator: "\n"))
    let engine = ProfileEngine(session: CardSession(exchange: CardExchange(channel: ReplayChannel(t))))
    return engine.read(profile)
}

/// Expects `yaml` to be refused with an issue whose reason contains `reason`.
func expectRefused(_ yaml: String, because reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try load(yaml)
        Issue.record("loaded, but should be refused (\(reason))", sourceLocation: sourceLocation)
    } catch {
        #expect(error.issues.contains { $0.reason.contains(reason) }, "\(error.issues)", sourceLocation: sourceLocation)
    }
}
