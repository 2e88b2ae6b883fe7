import APDU

/// Proxmark3's JSON dumps (docs/dump-formats.md §8): `mfc v2`/`v3`/`mfcard` for Classic,
/// `mfu` for Ultralight; hex uppercase without spaces, blocks keyed by decimal number. Nothing
/// marks unknown data: a block pm3 could not read is zeros, and a key it never found FF…FF.
enum Proxmark3Import {
    static func card(_ root: JSONNode, warn: (String) -> Void) throws(DumpError) -> CardImage {
        let type = try root["FileType"].string()
        switch type {
        case "mfc v2", "mfc v3", "mfcard": return .classic(try classic(root, warn: warn))
        case "mfu": return .ultralight(try ultralight(root))
        default: throw root["FileType"].fail("'\(type)' is not a dump cardscan imports (mfc v2, mfc v3, mfcard, mfu)")
        }
    }

    /// Blocks (or pages) "0", "1", … until the first missing one, `size` bytes each (`-` an
    /// unknown half byte, as MIFARE Classic Tool writes this shape).
    static func numbered(_ blocks: JSONNode, size: Int) throws(DumpError) -> [[UInt8?]] {
        var byNumber: [Int: JSONNode] = [:]
        for (key, b) in try blocks.members() { byNumber[try decimalKey(key, 0...4095, b, what: "block number")] = b }
        var out: [[UInt8?]] = []
        while let b = byNumber[out.count] { out.append(try dashedHex(b, size: size)) }
        return out
    }

    /// Hex of `size` bytes, a byte with a `-` in it unknown.
    static func dashedHex(_ n: JSONNode, size: Int) throws(DumpError) -> [UInt8?] {
        let text = Array(try n.string().utf8)
        guard text.count == size * 2 else { throw n.fail("\(text.count) hex digits where \(size * 2) belong") }
        switch DashedHex.bytes(text) {
        case .success(let bytes): return bytes
        case .failure(let bad): throw n.fail(bad.reason)
        }
    }

    static func classic(_ root: JSONNode, warn: (String) -> Void) throws(DumpError) -> ClassicCardImage {
        let blocks = try numbered(root["blocks"], size: 16)
        guard let kind = ClassicCardImage.Kind(blockCount: blocks.count) else {
            throw root["blocks"].fail("\(blocks.count) blocks; a Classic card has 20, 64, 128 or 256")
        }
        let sectors = ClassicImport.sectors(blocks, kind: kind, zerosUnread: try root["Created"].string() == "proxmark3", warn: warn)
        if root["Card"]["UID"].exists {
            let atqa = try root["Card"]["ATQA"].hex(count: 2)
            return ClassicCardImage(
                uid: try root["Card"]["UID"].hex(), atqa: [atqa[1], atqa[0]], sak: try root["Card"]["SAK"].hex(count: 1)[0], kind: kind,
                sectors: sectors)
        }
        return try ClassicImport.image(sectors, kind: kind, options: ImportOptions(), file: root.file, warn: warn)
    }

    static func ultralight(_ root: JSONNode) throws(DumpError) -> UltralightCardImage {
        let card = root["Card"]
        let pages = try numbered(root["blocks"], size: 4)
        let version = try card["Version"].hex(count: 8)
        let signature = card["Signature"].exists ? try card["Signature"].hex(count: 32) : []
        var counters: [Int] = []
        for i in 0..<3 {
            let c = card["Counter\(i)"].exists ? try card["Counter\(i)"].hex(count: 3) : [0, 0, 0]
            counters.append(Int(c[0]) | Int(c[1]) << 8 | Int(c[2]) << 16)  // as READ_CNT answers: least significant byte first
        }
        var model = UltralightCardImage.Model(version: version)
        if model == .unknown, let m = UltralightCardImage.Model.allCases.first(where: { $0.pageCount == pages.count && $0 != .ntag203 }) {
            model = m
        }
        if let n = model.pageCount, n != pages.count { model = .unknown }
        return UltralightCardImage(
            uid: try card["UID"].hex(count: 7), model: model, version: version.allSatisfy { $0 == 0 } ? nil : version,
            signature: signature.allSatisfy { $0 == 0 } ? nil : signature, counters: counters, pages: pages)
    }
}

/// What the Classic dump formats share: blocks into sectors, keys out of the trailers, and the
/// card's identity from block 0.
enum ClassicImport {
    /// The sectors of `blocks` (every block of `kind`, unknown bytes nil). With `zerosUnread`
    /// (formats that write an unread block as zeros), a sector of zeros, trailer included, is
    /// taken as unread.
    static func sectors(
        _ blocks: [[UInt8?]], kind: ClassicCardImage.Kind, zerosUnread: Bool, warn: (String) -> Void
    )
        -> [ClassicCardImage.Sector]
    {
        var out: [ClassicCardImage.Sector] = []
        var at = 0
        for s in 0..<kind.sectorCount {
            let n = ClassicCardImage.Kind.blocks(inSector: s)
            let sector = Array(blocks[at..<(at + n)])
            at += n
            let blank = sector.allSatisfy { $0.allSatisfy { $0 == nil } }
            let zeros = zerosUnread && sector.allSatisfy { $0.allSatisfy { $0 == 0 } }
            if zeros { warn("sector \(s) is all zeros, trailer included: taken as unread") }
            out.append(blank || zeros ? .locked : ClassicTrailer.sector(sector))
        }
        return out
    }

    /// The image of `sectors`, the UID, ATQA and SAK read from block 0 (or `--uid` and the usual
    /// values for the size).
    static func image(
        _ sectors: [ClassicCardImage.Sector], kind: ClassicCardImage.Kind, options: ImportOptions, file: String, warn: (String) -> Void
    ) throws(DumpError) -> ClassicCardImage {
        let block0 = sectors.first?.blocks?.first.flatMap { try? Transcript.parsePattern($0) }
        if let block0, let id = ManufacturerBlock.identity(block0) {
            return ClassicCardImage(uid: id.uid, atqa: id.atqa, sak: id.sak, kind: kind, sectors: sectors)
        }
        guard let uid = options.uid else {
            throw DumpError(file: file, reason: "no manufacturer block (sector 0) to take the UID from: give it with --uid")
        }
        let (atqa, sak) = ClassicIdentity.answers(uid: uid, sectors: sectors, kind: kind, warn: warn)
        return ClassicCardImage(uid: uid, atqa: atqa, sak: sak, kind: kind, sectors: sectors)
    }
}
