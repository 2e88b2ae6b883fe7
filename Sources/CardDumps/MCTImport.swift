/// MIFARE Classic Tool's `.mct` dumps (docs/dump-formats.md §9): `+Sector: N` lines, each
/// followed by its blocks as 32 characters of hex, `-` for unknown; sectors no key opened are
/// left out (or, in MCT's memory, a `*` line).
enum MCTImport {
    static func card(_ text: String, file: String, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> ClassicCardImage {
        var sectors: [Int: [[UInt8?]]] = [:]
        var current: Int? = nil
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let place = "line \(i + 1)"
            if line.isEmpty || line.hasPrefix("*") { continue }
            if line.hasPrefix("+Sector: ") {
                guard let n = Int(line.dropFirst("+Sector: ".count)), (0...39).contains(n) else {
                    throw DumpError(file: file, place: place, reason: "'\(line)' is not a sector 0…39")
                }
                guard sectors[n] == nil else {
                    throw DumpError(file: file, place: place, reason: "sector \(n) a second time: two dumps in one file")
                }
                sectors[n] = []
                current = n
                continue
            }
            guard let s = current else { throw DumpError(file: file, place: place, reason: "a block before any '+Sector: N' line") }
            guard sectors[s]!.count < ClassicCardImage.Kind.blocks(inSector: s) else {
                throw DumpError(file: file, place: place, reason: "sector \(s) has \(ClassicCardImage.Kind.blocks(inSector: s)) blocks")
            }
            sectors[s]!.append(try block(line, file: file, place: place))
        }
        for (n, blocks) in sectors where blocks.count != ClassicCardImage.Kind.blocks(inSector: n) {
            throw DumpError(file: file, reason: "sector \(n) has \(blocks.count) block(s) of \(ClassicCardImage.Kind.blocks(inSector: n))")
        }
        guard let highest = sectors.keys.max() else { throw DumpError(file: file, reason: "no '+Sector: N' line: not an MCT dump") }
        let kind = options.classicKind ?? (highest <= 15 ? .k1 : highest <= 31 ? .k2 : .k4)
        guard highest < kind.sectorCount else { throw DumpError(file: file, reason: "sector \(highest) is past a \(kind.rawValue) card's") }
        if options.classicKind == nil, highest <= 4 { warn("an MCT dump cannot tell a Mini from a 1K: taken as a 1K (--type mini)") }
        let list = (0..<kind.sectorCount).map { n in sectors[n].map(ClassicTrailer.sector) ?? .locked }
        return try ClassicImport.image(list, kind: kind, options: options, file: file, warn: warn)
    }

    static func block(_ line: Substring, file: String, place: String) throws(DumpError) -> [UInt8?] {
        let text = Array(line.utf8)
        guard text.count == 32 else { throw DumpError(file: file, place: place, reason: "a block is 32 hex digits, not \(text.count)") }
        switch DashedHex.bytes(text) {
        case .success(let bytes): return bytes
        case .failure(let bad): throw DumpError(file: file, place: place, reason: bad.reason)
        }
    }
}

/// Raw images (`.mfd`, `.bin`; docs/dump-formats.md §10): the card's memory, 16 bytes a block,
/// block 0 first, keys in the trailers as the dumping tool was given them.
enum RawImport {
    static func classic(
        _ bytes: [UInt8], file: String, options: ImportOptions, warn: (String) -> Void
    ) throws(DumpError) -> ClassicCardImage {
        guard let kind = ClassicCardImage.Kind(blockCount: bytes.count / 16), bytes.count % 16 == 0 else {
            throw DumpError(file: file, reason: "\(bytes.count) bytes: a raw Classic image is 320, 1024, 2048 or 4096")
        }
        let blocks = stride(from: 0, to: bytes.count, by: 16).map { bytes[$0..<($0 + 16)].map { Optional($0) } }
        let sectors = ClassicImport.sectors(blocks, kind: kind, zerosUnread: true, warn: warn)
        return try ClassicImport.image(sectors, kind: kind, options: options, file: file, warn: warn)
    }
}
