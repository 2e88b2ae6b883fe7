import APDU
import CardReports
import DESFireCommands
import FeliCaCommands

/// cardscan images as Metrodroid JSON card files (docs/dump-formats.md §4).
enum MetrodroidExport {
    typealias Refusal = DumpExport.Refusal

    static func json(_ image: CardImage, warn: (String) -> Void) throws(Refusal) -> JSONValue {
        let tag: [UInt8], body: (String, JSONValue)
        switch image {
        case .desfire(let d):
            tag = try DumpExport.checked { try Hex.parse(d.uid) }
            body = ("mifareDesfire", try desfire(d))
        case .felica(let f):
            let c = try DumpExport.checked { try f.contents() }
            tag = c.idm
            body = ("felica", felica(c))
        case .classic(let cl):
            let c = try DumpExport.checked { try cl.contents() }
            tag = c.uid
            body = ("mifareClassic", classic(c))
        case .ultralight(let ul):
            let c = try DumpExport.checked { try ul.contents() }
            tag = c.uid
            body = ("mifareUltralight", ultralight(c))
        case .iso7816(let i):
            _ = try DumpExport.checked { try i.contents() }
            tag = [0, 0, 0, 0]
            warn("an ISO 7816 image keeps no UID: tagId 00000000")
            body = ("iso7816", MetrodroidISO7816Export.json(i))
        }
        return .object([
            ("tagId", DumpExport.hex(tag)), ("scannedAt", .object([("timeInMillis", .int(0)), ("tz", .string("UNKNOWN"))])), body,
        ])
    }

    static func desfire(_ d: DESFireCardImage) throws(Refusal) -> JSONValue {
        let c = try DumpExport.checked { try d.contents() }
        var apps: [(String, JSONValue)] = []
        for app in c.applications {
            var files: [(String, JSONValue)] = []
            for f in app.files {
                var pairs: [(String, JSONValue)] = [("settings", DumpExport.hex(f.settings.bytes))]
                if let content = DESFireFileMapping.readable(f.settings, f.content) {
                    pairs.append(("data", DumpExport.hex(content)))
                } else {
                    pairs += [("data", .null), ("error", .string("Permission denied")), ("isUnauthorized", .bool(true))]
                }
                files.append((String(f.number.value), .object(pairs)))
            }
            let aid = app.aid.bytes.reduce(0) { $0 << 8 | Int($1) }
            var pairs: [(String, JSONValue)] = [("files", .object(files))]
            if app.filesLocked { pairs.append(("dirListLocked", .bool(true))) }
            apps.append((String(aid), .object(pairs)))
        }
        var out: [(String, JSONValue)] = [("manufacturingData", DumpExport.hex(c.version.bytes)), ("applications", .object(apps))]
        if c.listLocked { out.append(("appListLocked", .bool(true))) }
        return .object(out)
    }

    static func felica(_ c: FeliCaCardImage.Contents) -> JSONValue {
        let systems: [(String, JSONValue)] = c.systems.map { s in
            let services: [(String, JSONValue)] = s.services.keys.sorted().map { code in
                let blocks = s.services[code] ?? []
                // A service with no blocks that needs a key (attribute bit 0 clear) was not read.
                if blocks.isEmpty && code & 1 == 0 { return (String(code), .object([("skipped", .bool(true))])) }
                let map: [(String, JSONValue)] = blocks.enumerated().map { (String($0), .object([("data", DumpExport.hex($1))])) }
                return (String(code), .object([("blocksMap", .object(map))]))
            }
            return (String(s.code), .object([("services", .object(services))]))
        }
        return .object([("pMm", DumpExport.hex(c.pmm)), ("systems", .object(systems))])
    }

    static func classic(_ c: ClassicCardImage.Contents) -> JSONValue {
        let sectors: [JSONValue] = c.sectors.map { s in
            guard let s else { return .object([("isUnauthorized", .bool(true)), ("error", .string("Unauthorized"))]) }
            var pairs: [(String, JSONValue)] = [
                ("blocks", .array(s.blocks.map { b in ClassicTrailer.known(b).map { DumpExport.hex($0) } ?? .string("") }))
            ]
            if let k = s.keyA { pairs.append(("keyA", DumpExport.hex(k))) }
            if let k = s.keyB { pairs.append(("keyB", DumpExport.hex(k))) }
            return .object(pairs)
        }
        var out: [(String, JSONValue)] = [("sectors", .array(sectors))]
        if c.kind == .k2 { out.append(("subType", .string("PLUS"))) }
        return .object(out)
    }

    static func ultralight(_ c: UltralightCardImage.Contents) -> JSONValue {
        let models: [UltralightCardImage.Model: String] = [
            .ultralight: "MF0ICU1", .ultralightC: "MF0ICU2", .ultralightEV1_11: "EV1_MF0UL11", .ultralightEV1_21: "EV1_MF0UL21",
            .ntag213: "NTAG213", .ntag215: "NTAG215", .ntag216: "NTAG216",
        ]
        var out: [(String, JSONValue)] = [
            (
                "pages",
                .array(
                    c.pages.map { p in
                        ClassicTrailer.known(p).map { .object([("data", DumpExport.hex($0))]) }
                            ?? .object([("isUnauthorized", .bool(true))])
                    })
            )
        ]
        out.append(("cardModel", .string(models[c.model] ?? "UNKNOWN")))
        if let v = c.version { out.append(("cardRawModel", .object([("versionCmd", DumpExport.hex(v))]))) }
        return .object(out)
    }
}
