import APDU
import Foundation
import Testing

@testable import CardDumps

/// Export, then import: the same image, for every format that can hold the card.
@Suite struct RoundTripTests {
    static let labCards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/LabCards/"

    func image(_ path: String) throws -> CardImage {
        try #require(try DumpImport.images(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path).images.first)
    }

    func roundTrip(_ image: CardImage, _ format: DumpExport.Format) throws -> CardImage {
        let (bytes, _) = try DumpExport.bytes(image, as: format)
        var options = ImportOptions()
        options.classicKind = format == .mct ? .mini : nil  // MCT cannot tell a Mini from a 1K: the user says it
        let r = try DumpImport.images(bytes, file: "exported.\(format.rawValue)", format: format == .mfd ? .mfd : nil, options: options)
        return try #require(r.images.first)
    }

    /// A Classic image with every byte and key known survives every Classic format.
    static let classic = ClassicCardImage(
        uid: [0x1A, 0x2B, 0x3C, 0x4D], atqa: [0x00, 0x04], sak: 0x09, kind: .mini,
        sectors: (0..<5).map { s in
            let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0x00, 0, 0, 0, 0, 0, 0]
            let block0: [UInt8] = [0x1A, 0x2B, 0x3C, 0x4D, 0x40, 0x09, 0x04, 0x00] + [UInt8](repeating: 0x11, count: 8)
            let data = (0..<3).map { b in s == 0 && b == 0 ? block0 : [UInt8](repeating: UInt8(s * 16 + b), count: 16) }
            return ClassicCardImage.Sector(
                keyA: [UInt8](repeating: UInt8(0xA0 + s), count: 6), keyB: [UInt8](repeating: UInt8(0xB0 + s), count: 6),
                blocks: (data + [trailer]).map { $0.map { Optional($0) } })
        })

    @Test(arguments: [DumpExport.Format.metrodroid, .proxmark3, .flipper, .mfd, .mct])
    func classicSurvives(_ format: DumpExport.Format) throws {
        #expect(try roundTrip(.classic(Self.classic), format).json == CardImage.classic(Self.classic).json)
    }

    @Test(arguments: [DumpExport.Format.metrodroid, .flipper])
    func desfireLabCardsSurvive(_ format: DumpExport.Format) throws {
        for name in ["opal", "clipper", "hsl", "myki", "adelaide-metrocard"] {
            let original = try image(Self.labCards + "\(name)-image.json")
            guard case .desfire(var d) = original else { throw Failure("\(name) is not DESFire") }
            d.atr = nil  // no format keeps a DESFire card's ATR
            d.note = nil
            // "false" and absent say the same; imports write only "true".
            if d.listLocked == false { d.listLocked = nil }
            for i in d.applications.indices where d.applications[i].filesLocked == false { d.applications[i].filesLocked = nil }
            // Flipper keeps no "the file list needed a key": it lists the files it has.
            if format == .flipper { for i in d.applications.indices { d.applications[i].filesLocked = nil } }
            #expect(try roundTrip(.desfire(d), format).json == CardImage.desfire(d).json, "\(name)")
        }
    }

    /// Neither Metrodroid nor Flipper keeps FeliCa areas: the rest survives.
    @Test(arguments: [DumpExport.Format.metrodroid, .flipper])
    func feliCaLabCardsSurvive(_ format: DumpExport.Format) throws {
        for name in ["pasmo", "edy", "octopus-szt", "pasmo-edy", "kmt", "mrt-jakarta"] {
            guard case .felica(var f) = try image(Self.labCards + "\(name)-image.json") else { continue }
            f.note = nil
            for i in f.systems.indices { f.systems[i].areas = nil }
            #expect(try roundTrip(.felica(f), format).json == CardImage.felica(f).json, "\(name)")
        }
    }

    @Test(arguments: [DumpExport.Format.metrodroid, .proxmark3, .flipper])
    func ultralightSurvives(_ format: DumpExport.Format) throws {
        let pages: [[UInt8?]] = (0..<16).map { p in [UInt8(p), 0x10, 0x20, 0x30] }
        let u = UltralightCardImage(
            uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], model: .ultralight, counters: [0, 0, 0], pages: pages)
        var expected = u
        // Metrodroid keeps no counters; Flipper writes three for every chip, and only an EV1 has them.
        if format == .metrodroid || format == .flipper { expected.counters = nil }
        #expect(try roundTrip(.ultralight(u), format).json == CardImage.ultralight(expected).json)
    }

    @Test func aFormatThatCannotHoldTheCardSaysSo() throws {
        let d = try image(Self.labCards + "opal-image.json")
        #expect(throws: DumpExport.Refusal.self) { try DumpExport.bytes(d, as: .mct) }
    }
}
