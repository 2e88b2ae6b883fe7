import Foundation
import LabSupport
import Testing

/// What a newcomer writing a profile meets: a replay that diverges names the profile and step
/// that sent the command; a profile file replayed over a transcript recorded by detection takes
/// part in detection; `profiles validate --strict` replays a profile over recordings.
@Suite struct ProfileWritingTests {
    let dir = NSTemporaryDirectory() + "cardscan-writing-\(UUID().uuidString)"

    func write(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Shanghai's profile (which extends city-union) with its log read one record at a time.
    var shanghaiOneByOne: String {
        get throws {
            try String(contentsOfFile: Lab.root + "/profiles/shanghai-transit.yaml", encoding: .utf8)
                + "\nsteps:\n  - read-records: { sfi: 0x18, length: 23 }\n    as: log\n    optional: true\n"
        }
    }

    @Test func aDivergenceNamesTheProfileAndTheStepThatSentTheCommand() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try shanghaiOneByOne
        let file = try write("shanghai-transit.yaml", text)
        let r = try Lab.cardscan(["replay", "--profile", file, Lab.fixture("shanghai-transit/full-read.apdu")])
        #expect(r.status == 65, "\(r.stderr)")
        // The recording asked for all records at once first (00 B2 01 C5 00); this profile does not.
        #expect(r.stderr.contains("expected: 00 B2 01 C5 00\n  actual:   00 B2 01 C4 17"), "\(r.stderr)")
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 3  // "  - read-records" of the step
        #expect(r.stderr.contains("sent by: profile 'shanghai-transit', step 'log' (line \(line))"), "\(r.stderr)")
    }

    /// A transcript recorded by detection (`# detected: clipper`): `--profile FILE` of that id
    /// joins detection, so the replay sends what the recording sent and reads with the file.
    @Test func aProfileFileTakesPartInTheDetectionATranscriptRecorded() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clipper = try String(contentsOfFile: Lab.root + "/profiles/clipper.yaml", encoding: .utf8)
        let file = try write("clipper.yaml", clipper.replacingOccurrences(of: "name: Clipper\n", with: "name: My Clipper\n"))
        let r = try Lab.cardscan(["replay", "--json", "--profile", file, Lab.fixture("clipper/detected.apdu")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""name": "My Clipper""#), "\(r.stdout)")
    }

    @Test func strictValidationReplaysAProfileOverRecordings() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = try Lab.cardscan([
            "profiles", "validate", Lab.root + "/profiles/shanghai-transit.yaml", "--strict", Lab.fixture("shanghai-transit"),
        ])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(
            good.stdout.contains("strict: 5 transcript(s) read by shanghai-transit, 0 with problems; 0 of other cards"), "\(good.stdout)")
        // A field that does not decode on a recorded card: a warning, which --strict fails on.
        let text =
            try String(contentsOfFile: Lab.root + "/profiles/shanghai-transit.yaml", encoding: .utf8)
            + "  issued: { from: info, offset: 0, length: 4, type: bcd-date }\n"
        let file = try write("shanghai-transit.yaml", text)
        let plain = try Lab.cardscan(["profiles", "validate", file])
        #expect(plain.status == 0, "\(plain.stderr)")
        let strict = try Lab.cardscan(["profiles", "validate", file, "--strict", Lab.fixture("shanghai-transit")])
        #expect(strict.status == 65, "\(strict.stdout)")
        #expect(strict.stderr.contains("full-read.apdu: warning: card.issued:"), "\(strict.stderr)")
    }
}
