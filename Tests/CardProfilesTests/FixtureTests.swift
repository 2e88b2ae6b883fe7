import APDU
import CardReading
import Foundation
import Synchronization
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Every transcript in Tests/Fixtures replays strictly to exactly its expected report.
@Suite struct FixtureTests {
    static let transcripts: [String] = {
        let files = FileManager.default.enumerator(atPath: fixtures)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".apdu") }.sorted()
    }()

    @Test func everyBuiltInProfileHasAtLeastTwoFixtures() throws {
        for entry in builtInRegistry.entries {
            let count = Self.transcripts.filter { $0.hasPrefix(entry.id + "/") }.count
            #expect(count >= 2, "\(entry.id) has \(count) fixture(s)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/profiles").filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 11 && builtInRegistry.entries.count == files.count)
        // Built-ins are named by id: the registry finds one without reading the others.
        for entry in builtInRegistry.entries { #expect(entry.file.hasSuffix("/" + entry.id + ".yaml")) }
        #expect(builtInRegistry.invalid.isEmpty, "\(builtInRegistry.invalid.map(\.error.message))")
    }

    @Test(arguments: transcripts)
    func replaysToTheExpectedReport(_ file: String) throws {
        let outcome = try TranscriptReplay.run(try transcript(file), file: file, registry: builtInRegistry)
        #expect(outcome.unused.isEmpty)
        let report = try #require(outcome.result.report)
        let expectedText = try String(contentsOfFile: fixtures + "/" + file.dropLast(5) + ".expected.json", encoding: .utf8)
        let expected = try JSONValue(parsing: expectedText)
        let diffs = ReportDiff.compare(expected: expected, actual: report.json)
        #expect(diffs.isEmpty, "\(diffs)")
        #expect(report.partial == (outcome.result.error != nil))
    }

    /// Detection on every fixture: with its `# profile:` header removed, each transcript that
    /// names a profile is recognised as that profile among all the built-in ones (replayed
    /// leniently: the other profiles' probes get `6D 00`, as from a card without them).
    @Test(arguments: transcripts)
    func detectionFindsTheRecordedProfile(_ file: String) throws {
        var t = try transcript(file)
        guard let recorded = t.headers.first(where: { $0.key == "profile" })?.value else { return }
        // A card known by its key's hash (Podorozhnik) is known in a replay only by the name its
        // recording gives: the keys are written `..`.
        if try builtInRegistry.resolve(recorded).detect.require.contains(where: { !$0.keyDigests.isEmpty }) { return }
        t.headers.removeAll { $0.key == "profile" }
        let outcome = try TranscriptReplay.run(t, file: file, registry: builtInRegistry, lenient: true)
        #expect(outcome.result.report?.profile == recorded, "\(file): detected \(outcome.result.report?.profile ?? "nothing")")
    }

    /// The values, asserted independently of the expected files (checked by hand once).
    @Test func shanghaiFullReadValues() throws {
        let outcome = try TranscriptReplay.run(try transcript("shanghai-transit/full-read.apdu"), file: "f", registry: builtInRegistry)
        let r = try #require(outcome.result.report)
        #expect(r.balance?.minorUnits == 5710)  // 80 00 16 4E: bit 31 ignored
        #expect(r.card["number"] == .string("305419896"))  // 12 34 56 78 big-endian
        #expect(r.card["validFrom"]?.description == "2019-03-01")
        #expect(r.trips.count == 10)
        #expect(r.trips[0].map(\.0) == ["time", "kind", "amount", "terminal", "sequence"])
        #expect(r.trips[0][0].1.description == "2024-03-05T08:30:15+08:00")
        // Typed: 08:30:15 at UTC+8 is 00:30:15 UTC, 1709598615 s after 1970 (date -u -d … +%s).
        #expect(r.trips[0].instant == Date(timeIntervalSince1970: 1_709_598_615))
        #expect(r.trips[0].date == CivilDate(year: 2024, month: 3, day: 5))
        #expect(r.trips[0].kind == "purchase" && r.trips[0].amount == Money(minorUnits: -300, currency: "CNY"))
        #expect(r.balance?.description == "¥57.10" && r.card.number == "305419896")
        #expect(r.card.validUntil == CivilDate(year: 2029, month: 3, day: 1))
        #expect(r.trips[2][1].1 == .string("top-up") && r.trips[2].amount?.minorUnits == 5000)
        #expect(r.trips[6][1].1 == .string("compound-purchase") && r.trips[6].amount?.minorUnits == -1000)
        #expect(r.exchanges == 14)  // a wrapped log: 10 records, then 6A 83 to the 11th (first-ten.apdu: 13)
        #expect(
            r.json.serialized().hasPrefix(
                #"{"profile":"shanghai-transit","name":"Shanghai Public Transportation Card","card":{"number":"305419896""#))
    }

    /// Suica: balance from 008B, 20 history blocks in 2 commands, fares across records.
    @Test func suicaFullRead() throws {
        var t = try transcript("suica/full-read.apdu")
        t.headers.removeAll { $0.key == "profile" }  // detected among FeliCa profiles
        let codes = Mutex<[UInt8]>([])
        let outcome = try TranscriptReplay.run(t, file: "f", registry: builtInRegistry) { x in codes.withLock { $0.append(x.command[1]) } }
        #expect(outcome.profile?.id == "suica")
        let r = try #require(outcome.result.report)
        // Target: ≤ 3 Read Without Encryption (06); then one Request Service (02) names the issuer.
        #expect(codes.withLock { $0 } == [0x06, 0x06, 0x06, 0x02])
        #expect(r.exchanges == 4 && r.name == "Suica")
        #expect(r.balance?.minorUnits == 1270 && r.currency == "JPY")
        #expect(r.trips.count == 7)  // 13 empty blocks skipped
        let worked = try #require(r.trips.first { $0.time == .date(CivilDate(year: 2011, month: 3, day: 12)!) })
        #expect(worked.amount == Money(minorUnits: -160, currency: "JPY"))  // docs/cards/suica.md worked check
        #expect(worked.first { $0.0 == "entry" }?.1 == .string("E33B") && worked.first { $0.0 == "exit" }?.1 == .string("E621"))
        #expect(r.trips.last?.contains { $0.0 == "amount" } == false)  // the oldest has no older record
    }

    /// Without --profile, an SZT-only FeliCa card is not taken for Octopus (its poll for 8008 fails).
    @Test func shenzhenTongFeliCaIsDetected() throws {
        var t = try transcript("shenzhen-tong-felica/negative-balance.apdu")
        t.headers.removeAll { $0.key == "profile" }
        let outcome = try TranscriptReplay.run(t, file: "f", registry: builtInRegistry)
        #expect(outcome.profile?.id == "shenzhen-tong-felica")
        #expect(outcome.result.report?.balance?.minorUnits == -940)  // raw 0100: (256 − 350) × 10 fen
    }

    /// Offset 350 for every card (docs/cards/octopus.md): a real card's raw 920 is what its
    /// holder saw as HK$57.00; a raw value below 350 is money owed.
    @Test func octopusOffsetFollowsTheDocumentedChoice() throws {
        var t = try transcript("octopus/negative-balance.apdu")
        t.headers.removeAll { $0.key == "profile" }
        let outcome = try TranscriptReplay.run(t, file: "f", registry: builtInRegistry)
        #expect(outcome.profile?.id == "octopus")  // Suica's poll for 0003 finds nothing
        #expect(outcome.result.report?.balance?.minorUnits == -940)  // raw 256: (256 − 350) × 10 cents
        #expect(outcome.result.report?.card["stored"] == .int(256))
        let real = try TranscriptReplay.run(try transcript("octopus/real-card-920.apdu"), file: "f", registry: builtInRegistry)
        #expect(real.result.report?.balance?.minorUnits == 5700)
    }

    @Test func allRecordsCardNeedsThreeExchanges() throws {
        let outcome = try TranscriptReplay.run(try transcript("shanghai-transit/all-records.apdu"), file: "f", registry: builtInRegistry)
        #expect(outcome.result.report?.exchanges == 3)  // target: ≤ 4
        #expect(outcome.result.report?.trips.count == 10)
    }

    @Test func removedMidReadKeepsWhatWasRead() throws {
        let outcome = try TranscriptReplay.run(
            try transcript("shanghai-transit/removed-mid-read.apdu"), file: "f", registry: builtInRegistry)
        let r = try #require(outcome.result.report)
        #expect(r.partial)
        #expect(r.balance?.minorUnits == 5710)
        #expect(r.trips.count == 5)
        guard case .transport(let e)? = outcome.result.error else {
            Issue.record("expected a transport error")
            return
        }
        #expect(e.failure == .removed)
        #expect(outcome.result.error?.isNotRecognised == false)
    }

    @Test func t0CardWithOverdraft() throws {
        let outcome = try TranscriptReplay.run(
            try transcript("shanghai-transit/t0-overdrawn-few-trips.apdu"), file: "f", registry: builtInRegistry)
        let r = try #require(outcome.result.report)
        #expect(r.balance?.minorUnits == -250)  // FF FF FF 06: 31-bit signed
        #expect(r.trips.count == 3)
        #expect(r.card["number"] == .string("305419896"))  // read with READ BINARY after 6C? no: 00 B0 95 00 1E
    }
}
