import APDU
import CardReports

/// Raw images, Proxmark3 JSON and MCT dumps of Classic and Ultralight images
/// (docs/dump-formats.md §8–§10).
enum RawExport {
    typealias Refusal = DumpExport.Refusal

    /// Every block, keys written into the trailers; an unknown byte (or key) becomes 00.
    static func classicBlocks(_ c: ClassicCardImage.Contents, warn: (String) -> Void) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var unknown = 0
        for (n, s) in c.sectors.enumerated() {
            let count = ClassicCardImage.Kind.blocks(inSector: n)
            for i in 0..<count {
                var b = s?.blocks[i] ?? [UInt8?](repeating: nil, count: 16)
                if let s, i == count - 1 { b = ClassicTrailer.merge(b, keyA: s.keyA, keyB: s.keyB) }
                unknown += b.filter { $0 == nil }.count
                out.append(b.map { $0 ?? 0 })
            }
        }
        if unknown > 0 { warn("\(unknown) unknown byte(s) (unreadable sectors, unknown keys) written as 00: the format cannot mark them") }
        return out
    }

    static func classic(_ image: ClassicCardImage, warn: (String) -> Void) throws(Refusal) -> [UInt8] {
        classicBlocks(try DumpExport.checked { try image.contents() }, warn: warn).flatMap { $0 }
    }

    static func ultralight(_ image: UltralightCardImage, warn: (String) -> Void) throws(Refusal) -> [UInt8] {
        let c = try DumpExport.checked { try image.contents() }
        if c.pages.contains(where: { $0.contains(nil) }) { warn("unknown bytes written as 00: the format cannot mark them") }
        return c.pages.flatMap { $0.map { $0 ?? 0 } }
    }
}

enum Proxmark3Export {
    typealias Refusal = DumpExport.Refusal

    static func classic(_ image: ClassicCardImage, warn: (String) -> Void) throws(Refusal) -> JSONValue {
        let c = try DumpExport.checked { try image.contents() }
        let blocks = RawExport.classicBlocks(c, warn: warn)
        var keys: [(String, JSONValue)] = []
        var at = 0
        for n in 0..<c.kind.sectorCount {
            at += ClassicCardImage.Kind.blocks(inSector: n)
            let t = blocks[at - 1]
            keys.append(
                (
                    String(n),
                    .object([
                        ("KeyA", DumpExport.hex(Array(t[0..<6]), upper: true)), ("KeyB", DumpExport.hex(Array(t[10..<16]), upper: true)),
                        ("AccessConditions", DumpExport.hex(Array(t[6..<10]), upper: true)),
                    ])
                ))
        }
        return .object([
            ("Created", .string("proxmark3")), ("FileType", .string("mfc v2")),
            (
                "Card",
                .object([
                    ("UID", DumpExport.hex(c.uid, upper: true)), ("ATQA", DumpExport.hex([c.atqa[1], c.atqa[0]], upper: true)),
                    ("SAK", DumpExport.hex([c.sak], upper: true)),
                ])
            ),
            ("blocks", .object(blocks.enumerated().map { (String($0), DumpExport.hex($1, upper: true)) })),
            ("SectorKeys", .object(keys)),
        ])
    }

    static func ultralight(_ image: UltralightCardImage, warn: (String) -> Void) throws(Refusal) -> JSONValue {
        let c = try DumpExport.checked { try image.contents() }
        if c.pages.contains(where: { $0.contains(nil) }) { warn("unknown bytes written as 00: the format cannot mark them") }
        var card: [(String, JSONValue)] = [
            ("UID", DumpExport.hex(c.uid, upper: true)),
            ("Version", DumpExport.hex(c.version ?? [UInt8](repeating: 0, count: 8), upper: true)),
            ("TBO_0", .string("0000")), ("TBO_1", .string("00")),
            ("Signature", DumpExport.hex(c.signature ?? [UInt8](repeating: 0, count: 32), upper: true)),
        ]
        let counters = c.counters ?? [0, 0, 0]
        for i in 0..<3 {
            let v = counters[i]
            card.append(("Counter\(i)", DumpExport.hex([UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)], upper: true)))
            card.append(("Tearing\(i)", .string("00")))
        }
        return .object([
            ("Created", .string("proxmark3")), ("FileType", .string("mfu")), ("Card", .object(card)),
            ("blocks", .object(c.pages.enumerated().map { (String($0), DumpExport.hex($1.map { $0 ?? 0 }, upper: true)) })),
        ])
    }
}

enum MCTExport {
    /// Readable sectors only, `--` for an unknown byte, keys written into the trailer.
    static func text(_ image: ClassicCardImage) throws(DumpExport.Refusal) -> String {
        let c = try DumpExport.checked { try image.contents() }
        var lines: [String] = []
        for (n, s) in c.sectors.enumerated() {
            guard let s else { continue }
            lines.append("+Sector: \(n)")
            for (i, b) in s.blocks.enumerated() {
                let bytes = i == s.blocks.count - 1 ? ClassicTrailer.merge(b, keyA: s.keyA, keyB: s.keyB) : b
                lines.append(bytes.map { $0.map { [$0].compactHex } ?? "--" }.joined())
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
