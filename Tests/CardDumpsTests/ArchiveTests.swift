import Foundation
import Testing

@testable import CardDumps

/// Metrodroid's bulk export: a ZIP of one JSON file a card and a README. The archive is written
/// by scripts/dump-zip.py from this repository's own test dumps (one entry deflated, one stored).
@Suite struct ArchiveTests {
    static let zip = ImportTests.root + "metrodroid-export.zip"

    func bytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: Self.zip))) }

    func failure(_ bytes: [UInt8]) -> DumpError? {
        do {
            _ = try DumpImport.images(bytes, file: "x.zip")
            return nil
        } catch { return error }
    }

    @Test func everyCardOfTheArchive() throws {
        let r = try DumpImport.images(try bytes(), file: "export.zip")
        #expect(r.images.map(\.technology) == ["desfire", "felica"])
        guard case .desfire(let d) = r.images[0], case .felica(let f) = r.images[1] else { throw Failure("wrong cards") }
        #expect(d.uid == "04 11 22 33 44 55 66")
        #expect(f.idm == "01 01 07 01 12 34 56 78")
        #expect(r.warnings.contains("README.txt: not a card file (.json, .xml or .mfc), skipped"))
        // Each card's own warnings name the entry they came from.
        #expect(r.warnings.filter { $0.hasPrefix("Metrodroid-") }.count == r.warnings.count - 1)
    }

    /// The first entry's deflate data starts 30 + 30 (its name) bytes in: one byte changed
    /// there is damaged data or a CRC that no longer matches, named by entry.
    @Test func aDamagedEntryIsNamed() throws {
        var b = try bytes()
        b[60 + 10] ^= 0xFF
        let e = try #require(failure(b))
        #expect(e.place == "Metrodroid-04112233445566.json", "\(e)")
        #expect(e.reason.contains("CRC-32") || e.reason.contains("damaged"), "\(e)")
    }

    @Test func aTruncatedOrEncryptedArchiveIsRefused() throws {
        let b = try bytes()
        #expect(failure(Array(b.prefix(b.count - 30)))?.reason == "no end of central directory record: not a whole ZIP archive")
        var encrypted = b
        encrypted[6] |= 1  // the first local header's flags: encrypted (the central copy is what counts)
        #expect(failure(encrypted) == nil)
        // The central directory's first entry starts after the three local entries; its flags are at +8.
        let central = try #require((0..<(b.count - 4)).first { b[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) })
        encrypted[central + 8] |= 1
        #expect(failure(encrypted)?.reason == "encrypted: cardscan reads no encrypted archive")
    }

    /// A declared size that is too small: the data goes on past it.
    @Test func moreDataThanDeclaredIsRefused() throws {
        var b = try bytes()
        let central = try #require((0..<(b.count - 4)).first { b[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]) })
        b[central + 24] = 10
        b[central + 25] = 0
        #expect(failure(b)?.reason == "it unpacks to more than its declared 10 bytes")
    }
}
