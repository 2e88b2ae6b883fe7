import APDU
import DESFireCommands
import FeliCaCommands
import Foundation
import Testing

@testable import CardDumps

/// Dumps written for these tests from the formats' descriptions (docs/dump-formats.md), never
/// copied from another project, each imported into the image its values say.
@Suite struct ImportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/Dumps/"

    func imported(_ name: String, options: ImportOptions = ImportOptions()) throws -> (CardImage, [String]) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + name)))
        let r = try DumpImport.images(bytes, file: name, options: options)
        return (try #require(r.images.first), r.warnings)
    }

    @Test func formatsAreToldFromTheirFirstBytes() throws {
        let expect: [(String, DumpFormat)] = [
            ("metrodroid-desfire.json", .metrodroid), ("pm3-mini.json", .proxmark3), ("flipper-classic.nfc", .flipper),
            ("mct-1k.mct", .mct),
        ]
        for (name, format) in expect {
            #expect(DumpFormat.detect(Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + name)))) == format, "\(name)")
        }
        #expect(DumpFormat.detect([UInt8](repeating: 0xFF, count: 1024)) == .mfd)
        #expect(DumpFormat.detect(Array("hello".utf8)) == nil)
    }

    /// Application 1193046 is 0x123456 (the AID in wire order); file 1 is free (read key E in
    /// access bytes 00 E0), file 2 needs key 1 (00 10) and comes as 16 zeros (its size, 0x10);
    /// the cyclic file's 32 bytes are two 16-byte records; the value file's F4 01 00 00 is 500.
    @Test func metrodroidDESFire() throws {
        guard case .desfire(let d) = try imported("metrodroid-desfire.json").0 else { throw Failure("not DESFire") }
        #expect(d.uid == "04 11 22 33 44 55 66")
        #expect(d.applications.map(\.aid) == ["123456"])
        let files = d.applications[0].files
        #expect(files.map(\.id) == [1, 2, 3, 4])
        #expect(files[0].read == "free" && files[0].data == "01 02 03 04 05 06 07 08")
        #expect(files[1].read == "key" && files[1].data == [UInt8](repeating: 0, count: 16).hexString)
        #expect(files[2].type == "cyclic-record" && files[2].recordSize == 16 && files[2].records?.count == 2)
        #expect(files[3].type == "value" && files[3].value == 500 && files[3].upper == 1000)
    }

    /// System 3 is 0003, service 139 is 008B, 4168 is 1048 (needs a key: no blocks).
    @Test func metrodroidFeliCa() throws {
        guard case .felica(let f) = try imported("metrodroid-felica.json").0 else { throw Failure("not FeliCa") }
        #expect(f.idm == "01 01 07 01 12 34 56 78" && f.pmm == "01 20 22 04 27 67 4E FF")
        #expect(f.systems.map(\.code) == ["0003"])
        #expect(f.systems[0].services == ["008B": ["00 00 00 00 00 00 00 00 00 00 00 00 00 00 03 E8"], "1048": []])
    }

    /// The DF named 1TIC.ICA holds SFI 7; the path :2000:2001 reaches the same EF, so the DF
    /// gains FID 2000 and the EF FID 2001. SFI 31 is left out with a warning; China's GET
    /// BALANCE answer becomes a fixed answer to 80 5C 00 02 04.
    @Test func metrodroidISO7816() throws {
        let (image, warnings) = try imported("metrodroid-iso7816.json")
        guard case .iso7816(let i) = image else { throw Failure("not ISO 7816") }
        #expect(i.atr == "3B 80 80 01 01")
        let calypso = i.files[0]
        #expect(calypso.aid == Array("1TIC.ICA".utf8).hexString && calypso.fid == "2000")
        #expect(calypso.files?.first?.sfi == 7 && calypso.files?.first?.fid == "2001")
        #expect(i.files.contains { $0.fid == "0002" && $0.binary == "11 22 33 44 55" })
        #expect(i.answers == [.init(command: "80 5C 00 02 04", response: "00 00 16 2E 90 00")])
        #expect(warnings.contains { $0.contains("SFI 31") })
    }

    /// A Mini: block 0's UID 1A2B3C4D has BCC 40 (1A⊕2B⊕3C⊕4D), SAK 09, ATQA 04 00 stored least
    /// significant byte first; the unreadable block 2 is unknown; sectors 1–4 are locked.
    @Test func metrodroidClassic() throws {
        guard case .classic(let c) = try imported("metrodroid-classic.json").0 else { throw Failure("not Classic") }
        let contents = try c.contents()
        #expect(contents.kind == .mini && contents.atqa == [0x00, 0x04] && contents.sak == 0x09)
        #expect(contents.sectors[0]?.keyA == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5] && contents.sectors[0]?.keyB == nil)
        #expect(contents.sectors[0]?.blocks[2] == [UInt8?](repeating: nil, count: 16))
        #expect(contents.sectors[1...].allSatisfy { $0 == nil })
    }

    /// The trailer FF…FF 7F 07 88 69 ------: key A moves out of it (the trailer then reads 00 as a
    /// card gives it), key B is unknown, and 7F 07 88 make key B unreadable (trailer
    /// condition 011), so its bytes stay unknown in the trailer.
    @Test func mctClassic() throws {
        guard case .classic(let c) = try imported("mct-1k.mct").0 else { throw Failure("not Classic") }
        let s = try #require(try c.contents().sectors[0])
        #expect(s.keyA == [UInt8](repeating: 0xFF, count: 6) && s.keyB == nil)
        #expect(s.blocks[3] == [0, 0, 0, 0, 0, 0, 0x7F, 0x07, 0x88, 0x69] + [UInt8?](repeating: nil, count: 6))
        #expect(try c.contents().kind == .k1 && c.sectors[1].unreadable == true)
    }

    /// Sector 1's trailer 78 77 88 gives the trailer condition 011: key B is a key, not data;
    /// both keys move out, and the trailer reads zeros where they were.
    @Test func flipperClassic() throws {
        guard case .classic(let c) = try imported("flipper-classic.nfc").0 else { throw Failure("not Classic") }
        let contents = try c.contents()
        #expect(contents.uid == [0x1A, 0x2B, 0x3C, 0x4D] && contents.atqa == [0x00, 0x04] && contents.sak == 0x09)
        let s1 = try #require(contents.sectors[1])
        #expect(s1.keyA == [0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5] && s1.keyB == [0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5])
        #expect(s1.blocks[3] == [0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0x00, 0, 0, 0, 0, 0, 0])
        #expect(contents.sectors[2...].allSatisfy { $0 == nil })
        #expect(AccessBits(0x78, 0x77, 0x88)?.conditions[3] == 0b011)
    }

    /// A Hi Limit of 1000 and a Lo Limit written unsigned, 4294967196, which is −100 as the
    /// signed 32 bits it is.
    @Test func flipperDESFire() throws {
        guard case .desfire(let d) = try imported("flipper-desfire.nfc").0 else { throw Failure("not DESFire") }
        let files = d.applications[0].files
        #expect(files[0].data == "01 02 03 04 05 06 07 08" && files[0].read == "free")
        #expect(files[1].value == 500 && files[1].lower == -100 && files[1].upper == 1000)
    }

    /// A DESFire EV1's answers (ATQA 03 44, SAK 20, ATS 06 75 77 81 02 80) are the image's
    /// defaults and are not written; another ATS is kept without its length byte, and the ATR
    /// a PC/SC reader would make comes from its historical bytes 80 12: 3B 82 80 01 80 12, TCK
    /// 82⊕80⊕01⊕80⊕12 = 91.
    @Test func flipperDESFireAnswers() throws {
        guard case .desfire(let plain) = try imported("flipper-desfire.nfc").0 else { throw Failure("not DESFire") }
        #expect(plain.atqa == nil && plain.sak == nil && plain.ats == nil)
        #expect(try plain.contents().atqa == [0x03, 0x44])
        let text = try String(contentsOfFile: Self.root + "flipper-desfire.nfc", encoding: .utf8)
            .replacingOccurrences(of: "ATS: 06 75 77 81 02 80", with: "ATS: 07 75 77 81 02 80 12")
        guard case .desfire(let other) = try #require(DumpImport.images(Array(text.utf8), file: "x.nfc").images.first) else {
            throw Failure("not DESFire")
        }
        #expect(other.ats == "75 77 81 02 80 12")
        #expect(try other.contents().atr == [0x3B, 0x82, 0x80, 0x01, 0x80, 0x12, 0x91])
        let wrongLength = text.replacingOccurrences(of: "ATS: 07 75", with: "ATS: 09 75")
        #expect(throws: DumpError.self) { try DumpImport.images(Array(wrongLength.utf8), file: "x.nfc") }
    }

    @Test func flipperAndMetrodroidUltralightAgree() throws {
        guard case .ultralight(let f) = try imported("flipper-ultralight.nfc").0,
            case .ultralight(let m) = try imported("metrodroid-ultralight.json").0
        else { throw Failure("not Ultralight") }
        #expect(f.uid == m.uid && f.model == "ultralight" && m.model == "ultralight")
        #expect(Array(f.pages[0..<12]) == Array(m.pages[0..<12]))
        #expect(m.pages[12] == ".. .. .. ..")  // isUnauthorized
    }

    /// pm3 writes ATQA 0400 (least significant byte first): 00 04. Sectors of zeros with an
    /// FF key are data pm3 could have made up: taken as they are, keys included.
    @Test func proxmark3Classic() throws {
        guard case .classic(let c) = try imported("pm3-mini.json").0 else { throw Failure("not Classic") }
        let contents = try c.contents()
        #expect(contents.atqa == [0x00, 0x04] && contents.kind == .mini)
        #expect(contents.sectors[1]?.keyA == [UInt8](repeating: 0xFF, count: 6))
        #expect(contents.sectors[0]?.blocks[1] == (1...16).map { UInt8($0) })
    }

    @Test func malformedDumpsNameTheirPlace() throws {
        func failure(_ text: String, _ file: String = "x.json") -> DumpError? {
            do {
                _ = try DumpImport.images(Array(text.utf8), file: file)
                return nil
            } catch { return error }
        }
        #expect(
            failure(#"{"tagId":"04112233445566","mifareDesfire":{"manufacturingData":"0401"}}"#)?.message
                == "x.json: mifareDesfire.manufacturingData: 2 bytes where 28 belong")
        #expect(
            failure(#"{"Created":"proxmark3","FileType":"mfc v2","blocks":{"0":"00"}}"#)?.message
                == "x.json: blocks.0: 2 hex digits where 32 belong")
        #expect(failure("Filetype: Flipper NFC device\nVersion: 4\nDevice type\n", "c.nfc")?.place == "line 3")
        #expect(failure("+Sector: 0\n00\n", "d.mct")?.message == "d.mct: line 2: a block is 32 hex digits, not 2")
        #expect(failure("hello")?.reason.contains("not a dump cardscan knows") == true)
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
