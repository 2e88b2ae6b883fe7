import Foundation
import LabSupport
import Testing

/// Inputs written to hurt (docs/reliability.md §Limits): each ends with a clear error, or a
/// normal result, within the subprocess's time-out and without reading what it need not.
@Suite struct HostileInputTests {
    func temporary(_ name: String) -> String { NSTemporaryDirectory() + "cardscan-hostile-\(UUID().uuidString)-\(name)" }

    /// A 1 GB transcript (sparse: no disk used) is refused by its size before a byte is read.
    @Test func aGigabyteTranscriptIsRefusedBySize() throws {
        let path = temporary("huge.apdu")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let r = try Lab.cardscan(["replay", path], timeout: 20)
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(path): larger than 64 MiB"), "\(r.stderr)")
    }

    /// A 10 MB transcript line (a 3.5 MB "command") ends in a divergence whose message names
    /// the size instead of printing it.
    @Test func aTenMegabyteLineGivesAShortMessage() throws {
        let path = temporary("long.apdu")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let line = "> 00 A4 04 00 " + String(repeating: "AB ", count: 10_000_000 / 3) + "\n< 90 00\n"
        try ("# cardscan transcript 1\n# atr: 3B 02 14 50\n# profile: shanghai-transit\n" + line).write(
            toFile: path, atomically: true, encoding: .utf8)
        let r = try Lab.cardscan(["replay", path], timeout: 60)
        #expect(r.status == 65)
        #expect(r.stderr.contains("replay diverged") && r.stderr.contains("… (3333337 bytes)"), "\(r.stderr.prefix(500))")
        #expect(r.stderr.utf8.count < 2_000, "\(r.stderr.utf8.count) bytes of error text")
    }

    /// "Billion laughs": nine levels of aliases, each ten of the one below (10⁹ leaves if
    /// expanded). Yams shares the aliased nodes and the loader never walks them whole.
    @Test func aYAMLAliasBombIsRefusedQuickly() throws {
        let path = temporary("bomb.yaml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var yaml =
            "id: bomb\nname: Bomb\ncurrency: EUR\nlayouts:\n  l0: &l0 [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n"
        for level in 1...8 {
            yaml += "  l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "steps: *l8\n"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Lab.cardscan(["profiles", "validate", path], timeout: 20)
        #expect(r.status == 65)
        // Each problem at its own line and column, one level deep (100 lines, never 10^9).
        #expect(r.stderr.contains("\(path):5:7: layouts.l1[0]: expected a mapping"), "\(r.stderr.prefix(300))")
        #expect(r.stderr.split(separator: "\n").count <= 120, "\(r.stderr.prefix(300))")
    }

    /// A profile of 10,000 steps loads (or fails) like any other: nothing in the loader is
    /// worse than linear in the steps.
    @Test func aProfileWithTenThousandStepsLoads() throws {
        let path = temporary("many.yaml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var yaml = "id: many\nname: Many\ncurrency: EUR\nsteps:\n"
        for i in 0..<10_000 { yaml += "  - read-binary: { sfi: 1, offset: 0, length: 1 }\n    as: s\(i)\n    optional: true\n" }
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Lab.cardscan(["profiles", "validate", path], timeout: 60)
        #expect(r.status == 0, "\(r.stderr.prefix(300))")
        #expect(r.stdout.contains("ok (many, 10000 steps)"), "\(r.stdout)")
    }

    /// A card image of 100,000 files (100 applications of 1,000 record files each): cardsim
    /// loads it and answers a SELECT of the last application and file, and its READ RECORD,
    /// through pcscd (docs/reliability.md §Limits has the time it took).
    @Test func aCardImageWithAHundredThousandFilesIsServed() throws {
        let path = temporary("many-files.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var dfs: [String] = []
        for d in 0..<100 {
            var efs: [String] = []
            efs.reserveCapacity(1_000)
            for e in 0..<1_000 { efs.append(String(format: "{\"fid\": \"%04X\", \"records\": [\"%02X %02X\"]}", 0x1000 + e, d, e & 0xFF)) }
            dfs.append(
                String(format: "{\"aid\": \"A0 00 00 00 01 %02X\", \"fid\": \"%04X\", \"files\": [", d, 0x0100 + d)
                    + efs.joined(separator: ", ") + "]}")
        }
        let image = "{\"technology\": \"iso7816\", \"atr\": \"3B 80 80 01 01\", \"files\": [" + dfs.joined(separator: ", ") + "]}"
        try image.write(toFile: path, atomically: true, encoding: .utf8)
        try Lab.exclusive {
            let started = Date()
            let card = try Lab.Card(path)
            defer { card.stop() }
            // The last application (63) and its last file (1000 - 1 = 0x3E7 after 0x1000).
            let r = try Lab.cardscan(["apdu", "00 A4 04 0C 06 A0 00 00 00 01 63", "00 A4 02 0C 02 13 E7", "00 B2 01 04 00"], timeout: 60)
            let seconds = Date().timeIntervalSince(started)
            print("hostile input: a 100,000-file image loaded, served and read in \(String(format: "%.2f", seconds)) s")
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("63 E7 90 00"), "\(r.stdout)")
        }
    }
}
