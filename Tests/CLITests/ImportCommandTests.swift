import Foundation
import LabSupport
import Testing

/// `cardscan import`, `export` and `read` of other tools' dumps, as a user runs them.
@Suite struct ImportCommandTests {
    func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "cardscan-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func object(_ text: String) throws -> NSMutableDictionary {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: .mutableContainers) as? NSMutableDictionary)
        o.removeObject(forKey: "exchanges")  // another reader (another ATR) probes other applications
        return o
    }

    @Test func importWritesOneImageACardAndRefusesToReplaceOne() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dump = Lab.root + "/Tests/Dumps/metrodroid-desfire.json"
        let first = try Lab.cardscan(["import", dump, "--out", dir])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("desfire-04112233445566.json: desfire card image"))
        let again = try Lab.cardscan(["import", dump, "--out", dir])
        #expect(again.status == 65 && again.stderr.contains("exists") && again.stderr.contains("--force"))
        #expect(try Lab.cardscan(["import", dump, "--out", dir, "--force"]).status == 0)
    }

    /// Metrodroid's bulk export: each card of the ZIP becomes its own image.
    @Test func anArchiveGivesAnImageACard() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Lab.cardscan(["import", Lab.root + "/Tests/Dumps/metrodroid-export.zip", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("README.txt: not a card file (.json, .xml or .mfc), skipped"), "\(r.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == ["desfire-04112233445566.json", "felica-0101070112345678.json"])
    }

    @Test func aMalformedDumpWritesNothing() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = dir + "/bad.json"
        try #"{"tagId": "0411", "mifareDesfire": {"manufacturingData": "zz"}}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try Lab.cardscan(["import", bad, "--out", dir + "/out"])
        #expect(r.status == 65 && r.stderr.contains("mifareDesfire.manufacturingData"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    /// A lab card written as a Metrodroid dump (and, for DESFire, a Flipper file) reads to the
    /// report the lab gives.
    @Test(arguments: [("opal", "metrodroid"), ("opal", "flipper"), ("pasmo", "metrodroid"), ("navigo", "metrodroid"), ("hsl", "flipper")])
    func aDumpReadsAsTheCardItCameFrom(_ card: (String, String)) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = Lab.root + "/Tests/LabCards/\(card.0)-image.json"
        let dump = dir + "/card.\(card.1 == "flipper" ? "nfc" : "json")"
        let exported = try Lab.cardscan(["export", image, "--format", card.1, "--out", dump])
        #expect(exported.status == 0, "\(exported.stderr)")
        let fromDump = try Lab.cardscan(["read", dump, "--json"])
        let fromImage = try Lab.cardscan(["read", image, "--json"])
        #expect(fromDump.status == 0, "\(fromDump.stderr)")
        #expect(try object(fromDump.stdout) == object(fromImage.stdout))
    }

    @Test func aFormatThatCannotHoldTheCardIsRefused() throws {
        let r = try Lab.cardscan(["export", Lab.root + "/Tests/LabCards/opal-image.json", "--format", "mct"])
        #expect(r.status == 65 && r.stderr.contains("cannot be written as mct"))
        let classic = try Lab.cardscan(["read", Lab.root + "/Tests/Dumps/mct-1k.mct", "--classic-type", "1k"])
        #expect(classic.status == 64)  // read takes no import options
        // A Classic dump reads as the card: no Classic profile knows this made-up one.
        let unknown = try Lab.cardscan(["read", Lab.root + "/Tests/Dumps/mct-1k.mct"])
        #expect(unknown.status == 76 && unknown.stderr.contains("no profile recognises this card"), "\(unknown.stderr)")
    }
}
