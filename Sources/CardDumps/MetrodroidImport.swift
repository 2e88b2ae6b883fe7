import APDU
import CardReports
import DESFireCommands
import FeliCaCommands

/// Metrodroid's JSON card files (docs/dump-formats.md §4): one card per file; its bytes hex,
/// its maps keyed by decimal numbers. The ISO 7816 part is in MetrodroidISO7816.swift.
enum MetrodroidImport {
    static func card(_ root: JSONNode, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> CardImage {
        let tag = try root["tagId"].hex()
        if root["mifareDesfire"].exists { return .desfire(try desfire(root["mifareDesfire"], uid: tag, warn: warn)) }
        if root["felica"].exists { return .felica(try felica(root["felica"], idm: tag, warn: warn)) }
        if root["mifareClassic"].exists { return .classic(try classic(root["mifareClassic"], uid: tag, options: options, warn: warn)) }
        if root["mifareUltralight"].exists { return .ultralight(try ultralight(root["mifareUltralight"], uid: tag, warn: warn)) }
        if root["iso7816"].exists { return .iso7816(try MetrodroidISO7816.image(root["iso7816"], options: options, warn: warn)) }
        if root["cepasCompat"].exists || root["vicinity"].exists {
            throw root.fail("a CEPAS card as early Metrodroid kept it (values, no card bytes) or an NFC-V card: nothing cardscan can serve")
        }
        throw root.fail("no card in it (mifareDesfire, felica, mifareClassic, mifareUltralight or iso7816)")
    }

    static func desfire(_ n: JSONNode, uid: [UInt8], warn: (String) -> Void) throws(DumpError) -> DESFireCardImage {
        let version = try n["manufacturingData"].hex(count: 28)
        var apps: [DESFireCardImage.Application] = []
        if n["applications"].exists {
            for (key, app) in try n["applications"].members() {
                let aid = try decimalKey(key, 1...0xFF_FFFF, app, what: "DESFire application number")
                var files: [DESFireCardImage.File] = []
                if app["files"].exists {
                    for (fileKey, f) in try app["files"].members() {
                        let id = try decimalKey(fileKey, 0...31, f, what: "file number")
                        guard f["settings"].exists else {
                            warn("\(f.path): no settings (GetFileSettings was refused): the file is left out")
                            continue
                        }
                        let raw = try f["settings"].hex()
                        let settings: DESFireFileSettings
                        do { settings = try DESFireFileSettings(raw) } catch { throw f["settings"].fail(error.message) }
                        if let problem = DESFireFileMapping.sizeProblem(settings) { throw f["settings"].fail(problem) }
                        if settings.communication != .plain { warn("\(f.path): not plain communication: served as plain") }
                        let failed = try f["isUnauthorized"].bool() || f["error"].exists || !f["data"].exists
                        files.append(DESFireFileMapping.file(id: id, settings: settings, content: failed ? nil : try f["data"].hex()))
                    }
                }
                let aidBytes = [UInt8(aid >> 16), UInt8(aid >> 8 & 0xFF), UInt8(aid & 0xFF)]
                apps.append(.init(aid: aidBytes.compactHex, filesLocked: try app["dirListLocked"].bool() ? true : nil, files: files))
            }
        }
        if uid.count != 7 && uid.count != 4 { throw n.fail("tagId: \(uid.count) bytes; a DESFire UID is 7 (or a random 4)") }
        return DESFireCardImage(
            uid: uid.hexString, version: version.hexString, listLocked: try n["appListLocked"].bool() ? true : nil, applications: apps)
    }

    static func felica(_ n: JSONNode, idm: [UInt8], warn: (String) -> Void) throws(DumpError) -> FeliCaCardImage {
        guard idm.count == 8 else { throw n.fail("tagId: \(idm.count) bytes; a FeliCa IDm is 8") }
        var pmm = [UInt8](repeating: 0, count: 8)
        if n["pMm"].exists { pmm = try n["pMm"].hex(count: 8) } else { warn("felica.pMm: none kept: PMm 00…00") }
        var systems: [FeliCaCardImage.System] = []
        for (key, system) in try n["systems"].members() {
            let code = try decimalKey(key, 0...0xFFFF, system, what: "system code")
            var services: [String: [String]] = [:]
            if system["services"].exists {
                for (serviceKey, service) in try system["services"].members() {
                    let sc = try decimalKey(serviceKey, 0...0xFFFF, service, what: "service code")
                    services[Hex.format(UInt16(sc))] = try blocks(service, warn: warn)
                }
            }
            systems.append(.init(code: Hex.format(UInt16(code)), services: services))
        }
        return FeliCaCardImage(idm: idm, pmm: pmm, systems: systems)
    }

    /// A service's blocks 0, 1, … while contiguous (`blocksMap`, or the older `blocks` list).
    private static func blocks(_ service: JSONNode, warn: (String) -> Void) throws(DumpError) -> [String] {
        var out: [String] = []
        if service["blocksMap"].exists {
            var byNumber: [Int: [UInt8]] = [:]
            for (key, block) in try service["blocksMap"].members() {
                byNumber[try decimalKey(key, 0...0xFFFF, block, what: "block number")] = try block["data"].hex(count: 16)
            }
            while let b = byNumber[out.count] { out.append(b.hexString) }
            if byNumber.count > out.count { warn("\(service.path): blocks after \(out.count) are not contiguous: left out") }
        } else if service["blocks"].exists {
            for b in try service["blocks"].items() { out.append(try b["data"].hex(count: 16).hexString) }
        }
        return out
    }

    static func classic(_ n: JSONNode, uid: [UInt8], options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> ClassicCardImage {
        let list = try n["sectors"].items()
        guard let kind = ClassicCardImage.Kind.allCases.first(where: { $0.sectorCount == list.count }) else {
            throw n["sectors"].fail("\(list.count) sectors; a Classic card has 5, 16, 32 or 40")
        }
        var sectors: [ClassicCardImage.Sector] = []
        for (i, s) in list.enumerated() {
            if try s["isUnauthorized"].bool() || s["error"].exists || !s["blocks"].exists {
                sectors.append(.locked)
                continue
            }
            var blocks: [[UInt8?]] = []
            for b in try s["blocks"].items() {
                let text = try b.string()
                // `04` or empty: a block that could not be read.
                blocks.append(text.count == 32 ? try b.hex(count: 16).map { Optional($0) } : [UInt8?](repeating: nil, count: 16))
            }
            guard blocks.count == ClassicCardImage.Kind.blocks(inSector: i) else {
                throw s["blocks"].fail("\(blocks.count) blocks; sector \(i) has \(ClassicCardImage.Kind.blocks(inSector: i))")
            }
            let keyA = s["keyA"].exists ? try s["keyA"].hex(count: 6) : nil
            let keyB = s["keyB"].exists ? try s["keyB"].hex(count: 6) : nil
            sectors.append(.init(keyA: keyA, keyB: keyB, blocks: blocks))
        }
        let (atqa, sak) = ClassicIdentity.answers(uid: uid, sectors: sectors, kind: kind, warn: warn)
        return ClassicCardImage(uid: uid, atqa: atqa, sak: sak, kind: kind, sectors: sectors)
    }

    static func ultralight(_ n: JSONNode, uid: [UInt8], warn: (String) -> Void) throws(DumpError) -> UltralightCardImage {
        var pages: [[UInt8?]] = []
        for p in try n["pages"].items() {
            if try p["isUnauthorized"].bool() || !p["data"].exists {
                pages.append([nil, nil, nil, nil])
            } else {
                pages.append(try p["data"].hex(count: 4).map { Optional($0) })
            }
        }
        let version = n["cardRawModel"]["versionCmd"].exists ? try n["cardRawModel"]["versionCmd"].hex(count: 8) : nil
        let names: [String: UltralightCardImage.Model] = [
            "MF0ICU1": .ultralight, "MF0ICU2": .ultralightC, "EV1_MF0UL11": .ultralightEV1_11, "EV1_MF0UL21": .ultralightEV1_21,
            "NTAG213": .ntag213, "NTAG215": .ntag215, "NTAG216": .ntag216,
        ]
        var model = n["cardModel"].exists ? names[try n["cardModel"].string()] ?? .unknown : .unknown
        if let m = model.pageCount, m != pages.count { model = .unknown }
        warn("mifareUltralight: ATQA and SAK are not kept: 00 44 and 00")
        return UltralightCardImage(uid: uid, model: model, version: version, pages: pages)
    }
}

/// ATQA and SAK of a Classic card: from its manufacturer block when it has NXP's layout, else
/// the usual values for its size (with a warning that they are guessed).
enum ClassicIdentity {
    static func answers(
        uid: [UInt8], sectors: [ClassicCardImage.Sector], kind: ClassicCardImage.Kind, warn: (String) -> Void
    ) -> (
        [UInt8], UInt8
    ) {
        if let first = sectors.first?.blocks?.first, let block = try? Transcript.parsePattern(first),
            let id = ManufacturerBlock.identity(block), id.uid == uid
        {
            return (id.atqa, id.sak)
        }
        let guess: ([UInt8], UInt8)
        switch kind {
        case .mini: guess = ([0x00, 0x04], 0x09)
        case .k1: guess = ([0x00, 0x04], 0x08)
        case .k2: guess = ([0x00, 0x04], 0x19)
        case .k4: guess = ([0x00, 0x02], 0x18)
        }
        warn("ATQA and SAK are not in the dump: \(guess.0.hexString) and \([guess.1].hexString), the usual values for a \(kind.rawValue)")
        return guess
    }
}
