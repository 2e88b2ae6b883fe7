import CardReading
import Foundation
import Testing

/// The Classic transit lab cards' fixtures replayed by detection among the built-in profiles:
/// each must be read by its profile, and its JSON report hold the values the card's page in
/// docs/cards/ works out by hand (Tests/LabCards/classic-transit-cards.json, the same table
/// ClassicSystemsLabTests reads the live cards with).
@Suite struct ClassicTransitReplayTests {
    struct Row: Decodable {
        var profile: String
        var fixture: String
        var expected: [String]
    }

    static let rows: [Row] = {
        struct Table: Decodable { var cards: [Row] }
        let file = fixtures + "/../LabCards/classic-transit-cards.json"
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return (try? JSONDecoder().decode(Table.self, from: data).cards) ?? []
    }()

    @Test func theTableIsThere() { #expect(Self.rows.count >= 38) }

    @Test(arguments: rows.map(\.fixture))
    func replaysToTheHandWorkedValues(_ fixture: String) throws {
        let row = try #require(Self.rows.first { $0.fixture == fixture })
        var t = try transcript(fixture)
        t.headers.removeAll { $0.key == "detected" && $0.value != row.profile }
        let report = try #require(try TranscriptReplay.run(t, file: fixture, registry: builtInRegistry).result.report)
        #expect(report.profile == row.profile)
        let json = report.json.serialized(pretty: true)
        for text in row.expected {
            // A value from personal bytes (bip!'s card type comes from the holder's ID) is
            // hidden in a recording: the replay says so instead.
            let key = text.split(separator: "\"").first.map(String.init) ?? ""
            let redacted = report.redacted.contains { $0.hasSuffix("." + key) }
            #expect(json.contains(text) || redacted, "\(fixture): \(text) not in \(json)")
        }
    }
}
