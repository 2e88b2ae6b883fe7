import APDU
import Foundation
import Testing

@testable import CardDumps

/// Farebot's legacy XML and JSON, written for these tests from docs/dump-formats.md §5 and §6:
/// the same cards as the Metrodroid test dumps, so each import must give the same image.
@Suite struct FarebotTests {
    let t = ImportTests()

    func all(_ name: String) throws -> ImportResult {
        try DumpImport.images(Array(try Data(contentsOf: URL(fileURLWithPath: ImportTests.root + name))), file: name)
    }

    func failure(_ text: String, _ file: String = "x.xml") -> DumpError? {
        do {
            _ = try DumpImport.images(Array(text.utf8), file: file, format: file.hasSuffix(".xml") ? .legacyXML : nil)
            return nil
        } catch { return error }
    }

    /// Sector 0 carries key A as Metrodroid's XML kept it; sector 3's `invalid` is a locked
    /// sector; block 2 without data is unknown; sectors out of order are put in order. The
    /// FeliCa card's service 139 is 008B.
    @Test func legacyXMLCardsAreTheMetrodroidCards() throws {
        let r = try all("farebot-cards.xml")
        #expect(DumpFormat.detect(Array(try Data(contentsOf: URL(fileURLWithPath: ImportTests.root + "farebot-cards.xml")))) == .legacyXML)
        #expect(r.images.map(\.technology) == ["classic", "felica"])
        #expect(r.images[0].json == (try t.imported("metrodroid-classic.json").0.json))
        guard case .felica(let f) = r.images[1] else { throw Failure("not FeliCa") }
        #expect(f.idm == "01 01 07 01 12 34 56 78" && f.pmm == "01 20 22 04 27 67 4E FF")
        #expect(f.systems[0].services == ["008B": ["00 00 00 00 00 00 00 00 00 00 00 00 00 00 03 E8"]])
    }

    /// GetVersion rebuilt from Farebot's decimal fields: 4 1 1 1 0 24 5, 4 1 1 1 4 24 5, the UID
    /// from the card's id, batch number 1144607360 = 44 39 52 80 (its first byte lost, warned),
    /// week 64 = 40, year 9 = 09. The settings fields give the bytes Metrodroid keeps.
    @Test func legacyXMLDESFireFromFields() throws {
        let r = try all("farebot-desfire.xml")
        guard case .desfire(let d) = try #require(r.images.first) else { throw Failure("not DESFire") }
        #expect(d.version == "04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 11 22 33 44 55 66 00 44 39 52 80 40 09")
        #expect(r.warnings == ["manufacturing-data: Farebot kept the batch number as a 32-bit number: its first byte may be lost"])
        guard case .desfire(let m) = try t.imported("metrodroid-desfire.json").0 else { throw Failure("not DESFire") }
        #expect(d.applications.map(\.aid) == m.applications.map(\.aid))
        #expect(CardImage.desfire(d).json.contains(#""files""#))
        for (x, y) in zip(d.applications[0].files, m.applications[0].files) {
            #expect(
                x.id == y.id && x.type == y.type && x.read == y.read && x.data == y.data && x.records == y.records && x.value == y.value)
        }
    }

    /// Gson's bytes: base64 text, and the FeliCa IDm and PMm as lists of Java bytes (FF is −1).
    @Test func gsonExportIsTheMetrodroidCards() throws {
        let r = try all("farebot-gson.json")
        #expect(r.images.map(\.technology) == ["ultralight", "felica", "desfire"])
        #expect(r.images[0].json == (try t.imported("metrodroid-ultralight.json").0.json))
        guard case .felica(let f) = r.images[1] else { throw Failure("not FeliCa") }
        #expect(f.pmm == "01 20 22 04 27 67 4E FF")
        #expect(r.images[2].json == (try t.imported("metrodroid-desfire.json").0.json))
    }

    /// Flipper's FeliCa Standard lines give the card of metrodroid-felica.json, service 1048
    /// listed but not read.
    @Test func flipperFeliCaIsTheMetrodroidCard() throws {
        let r = try all("flipper-felica.nfc")
        #expect(r.images.first?.json == (try t.imported("metrodroid-felica.json").0.json))
        #expect(r.warnings.isEmpty)
        let noSystem = try String(contentsOfFile: ImportTests.root + "flipper-felica.nfc", encoding: .utf8)
            .replacingOccurrences(of: "System 00: 0003\n", with: "")
        let guessed = try DumpImport.images(Array(noSystem.utf8), file: "x.nfc")
        #expect(guessed.images.first?.json == r.images.first?.json)
        #expect(guessed.warnings == ["the file keeps no system code: 0003 (transit), the system of almost every card Flipper reads"])
        let gap = noSystem.replacingOccurrences(of: "Block index 00", with: "Block index 01")
        #expect(failure(gap, "x.nfc")?.reason == "block 1 of service 008B where block 0 comes next (blocks must follow on from 0)")
    }

    /// What real Farebot files hold: `commsettings` −1 (a Java byte: FF, not plain, warned),
    /// the pre-2014 spelling `commsetting`, flags as child elements, and pages without an index
    /// (their document order).
    @Test func farebotQuirks() throws {
        let text = try String(contentsOfFile: ImportTests.root + "farebot-desfire.xml", encoding: .utf8)
            .replacingOccurrences(
                of: "<commsettings>0</commsettings><accessrights>00e0</accessrights><filesize>8</filesize>",
                with: "<commsettings>-1</commsettings><accessrights>00e0</accessrights><filesize>8</filesize>"
            )
            .replacingOccurrences(
                of: "<filetype>4</filetype><commsettings>0</commsettings>", with: "<filetype>4</filetype><commsetting>0</commsetting>")
        let r = try DumpImport.images(Array(text.utf8), file: "x.xml")
        #expect(r.warnings.contains { $0.contains("not plain communication") })
        let pages =
            "<card type=\"1\" id=\"04a1b2c3d4e5f6\"><pages>"
            + (0..<16).map { i in
                i == 15
                    ? "<page><unauthorized>true</unauthorized></page>"
                    : "<page><data>\(Data([UInt8(i), 0, 0, 0]).base64EncodedString())</data></page>"
            }.joined() + "</pages></card>"
        guard case .ultralight(let u) = try #require(DumpImport.images(Array(pages.utf8), file: "p.xml").images.first) else {
            throw Failure("not Ultralight")
        }
        #expect(u.pages[3] == "03 00 00 00" && u.pages[15] == ".. .. .. ..")
    }

    @Test func malformedXMLNamesItsLine() throws {
        #expect(
            failure("<card type=\"2\" id=\"04\">\n<manufacturing-data>\n</card>")?.message
                == "x.xml: line 3: </card> closes <manufacturing-data> (line 2)")
        #expect(
            failure("<!DOCTYPE card [<!ENTITY a \"b\">]>\n<card/>")?.reason
                == "a document type declaration: card dumps have none, and cardscan reads none")
        #expect(
            failure(
                "<card type=\"0\" id=\"1a2b3c4d\"><sectors><sector index=\"0\"><blocks><block index=\"0\"><data>&bogus;</data></block></blocks></sector></sectors></card>"
            )?.reason == "&bogus; is not an entity XML defines")
        #expect(failure(String(repeating: "<a>", count: 40))?.reason == "elements nested deeper than 32")
        #expect(failure("<card type=\"3\" id=\"01\"/>")?.reason.hasPrefix("a CEPAS card") == true)
        let badData = "<card type=\"1\" id=\"04a1b2c3d4e5f6\">\n<pages>\n<page index=\"0\"><data>!!</data></page></pages></card>"
        #expect(failure(badData)?.message == "x.xml: line 3, <data>: '!!' is not base64")
        // A card whose shape is wrong once rewritten: the card's line and the Metrodroid path.
        let threeBlocks =
            "<card type=\"0\" id=\"1a2b3c4d\"><sectors><sector index=\"0\"><blocks><block index=\"0\"/></blocks></sector></sectors></card>"
        #expect(failure(threeBlocks)?.place == "the card at line 1 (as Metrodroid JSON: mifareClassic.sectors)")
    }

    @Test func malformedFarebotJSONNamesItsPath() throws {
        let bad = #"{"cards": [{"cardType": "MifareUltralight", "tagId": "BKGyw9Tl9g==", "pages": [{"index": 1, "data": "AAAAAA=="}]}]}"#
        #expect(failure(bad, "f.json")?.message == "f.json: cards[0].pages[0].index: page 1 where page 0 comes next")
        let cepas = #"{"cardType": "CEPAS", "tagId": "AQ=="}"#
        #expect(failure(cepas, "f.json")?.place == "cardType")
    }
}
