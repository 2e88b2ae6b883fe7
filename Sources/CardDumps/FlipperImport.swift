import APDU
import DESFireCommands
import FeliCaCommands
import Foundation

/// Flipper Zero's `.nfc` files (docs/dump-formats.md §7): `Key: value` lines, hex as spaced
/// byte pairs, `??` for an unknown Classic byte.
struct FlipperFile {
    let file: String
    /// Each key's value and line, the first of a repeated key kept.
    let values: [String: (value: String, line: Int)]
    let version: Int

    init(_ text: String, file: String) throws(DumpError) {
        self.file = file
        var values: [String: (String, Int)] = [:]
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw DumpError(file: file, place: "line \(i + 1)", reason: "'\(line.prefix(40))' is not a 'Key: value' line")
            }
            let key = String(line[..<colon])
            if values[key] == nil { values[key] = (line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces), i + 1) }
        }
        self.values = values
        guard values["Filetype"]?.0 == "Flipper NFC device" else {
            throw DumpError(file: file, place: "line 1", reason: "not a Flipper NFC file (no 'Filetype: Flipper NFC device')")
        }
        version = Int(values["Version"]?.0 ?? "") ?? 0
    }

    func fail(_ key: String, _ reason: String) -> DumpError {
        DumpError(file: file, place: values[key].map { "line \($0.line)" } ?? "'\(key)'", reason: "\(key): \(reason)")
    }

    func string(_ key: String) throws(DumpError) -> String {
        guard let v = values[key]?.value else { throw DumpError(file: file, reason: "no '\(key):' line") }
        return v
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    /// Spaced hex, `??` an unknown byte.
    func pattern(_ key: String, count: Int? = nil) throws(DumpError) -> [UInt8?] {
        let text = try string(key)
        var out: [UInt8?] = []
        for word in text.split(separator: " ") {
            if word == "??" {
                out.append(nil)
            } else if word.count == 2, let b = UInt8(word, radix: 16) {
                out.append(b)
            } else {
                throw fail(key, "'\(word)' is not a hex byte")
            }
        }
        if let count, out.count != count { throw fail(key, "\(out.count) bytes where \(count) belong") }
        return out
    }

    func hex(_ key: String, count: Int? = nil) throws(DumpError) -> [UInt8] {
        let p = try pattern(key, count: count)
        guard let b = ClassicTrailer.known(p) else { throw fail(key, "unknown bytes (??) where the value must be known") }
        return b
    }

    func int(_ key: String) throws(DumpError) -> Int {
        guard let n = Int(try string(key)) else { throw fail(key, "not a number") }
        return n
    }

    /// ATQA most significant byte first (file version 2 wrote it the other way round).
    func atqa() throws(DumpError) -> [UInt8] {
        let a = try hex("ATQA", count: 2)
        return version <= 2 ? [a[1], a[0]] : a
    }
}

enum FlipperImport {
    static func card(_ text: String, file: String, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> CardImage {
        let f = try FlipperFile(text, file: file)
        let device = try f.string("Device type")
        switch device {
        case "Mifare Classic": return .classic(try classic(f, warn: warn))
        case "NTAG/Ultralight", "Mifare Ultralight", "NTAG203", "NTAG213", "NTAG215", "NTAG216": return .ultralight(try ultralight(f))
        case "Mifare DESFire": return .desfire(try FlipperDESFire.image(f, warn: warn))
        case "FeliCa": return .felica(try FlipperFeliCa.image(f, text: text, warn: warn))
        default:
            throw f.fail(
                "Device type",
                "'\(device)' is not a card cardscan keeps images of (Mifare Classic, NTAG/Ultralight, Mifare DESFire, FeliCa)")
        }
    }

    static func classic(_ f: FlipperFile, warn: (String) -> Void) throws(DumpError) -> ClassicCardImage {
        let kinds: [String: ClassicCardImage.Kind] = ["MINI": .mini, "1K": .k1, "Plus 2K": .k2, "2K": .k2, "4K": .k4]
        let name = try f.string("Mifare Classic type")
        guard let kind = kinds[name] else { throw f.fail("Mifare Classic type", "'\(name)' is not MINI, 1K, Plus 2K or 4K") }
        if f.has("Key A map") { warn("a data format 1 file: every byte it does not mark is taken as read") }
        var sectors: [ClassicCardImage.Sector] = []
        var block = 0
        for s in 0..<kind.sectorCount {
            var blocks: [[UInt8?]] = []
            for _ in 0..<ClassicCardImage.Kind.blocks(inSector: s) {
                blocks.append(try f.pattern("Block \(block)", count: 16))
                block += 1
            }
            sectors.append(blocks.allSatisfy { $0.allSatisfy { $0 == nil } } ? .locked : ClassicTrailer.sector(blocks))
        }
        return ClassicCardImage(uid: try f.hex("UID"), atqa: try f.atqa(), sak: try f.hex("SAK", count: 1)[0], kind: kind, sectors: sectors)
    }

    static func ultralight(_ f: FlipperFile) throws(DumpError) -> UltralightCardImage {
        let names: [String: UltralightCardImage.Model] = [
            "Mifare Ultralight": .ultralight, "Mifare Ultralight 11": .ultralightEV1_11, "Mifare Ultralight 21": .ultralightEV1_21,
            "NTAG203": .ntag203, "NTAG213": .ntag213, "NTAG215": .ntag215, "NTAG216": .ntag216,
        ]
        let typeName = f.has("NTAG/Ultralight type") ? try f.string("NTAG/Ultralight type") : try f.string("Device type")
        let total = try f.int("Pages total")
        let read = f.has("Pages read") ? try f.int("Pages read") : total
        guard (4...1024).contains(total) else { throw f.fail("Pages total", "\(total); an Ultralight has 4 to 1024 pages") }
        var pages: [[UInt8?]] = []
        for p in 0..<total { pages.append(p < read ? try f.pattern("Page \(p)", count: 4) : [nil, nil, nil, nil]) }
        var model = names[typeName] ?? .unknown
        if let n = model.pageCount, n != total { model = .unknown }
        let version = f.has("Mifare version") ? try f.hex("Mifare version", count: 8) : nil
        let signature = f.has("Signature") ? try f.hex("Signature", count: 32) : nil
        // Flipper writes three counters for every chip; only an Ultralight EV1 has them.
        var counters: [Int]? = nil
        if f.has("Counter 0"), [.ultralightEV1_11, .ultralightEV1_21].contains(model) {
            counters = [try f.int("Counter 0"), try f.int("Counter 1"), try f.int("Counter 2")]
        }
        return UltralightCardImage(
            uid: try f.hex("UID"), atqa: try f.atqa(), sak: try f.hex("SAK", count: 1)[0], model: model,
            version: version?.allSatisfy { $0 == 0 } == false ? version : nil,
            signature: signature?.allSatisfy { $0 == 0 } == false ? signature : nil, counters: counters, pages: pages)
    }
}
