import APDU
import CardReports
import Foundation

/// Farebot's JSON exports (docs/dump-formats.md §6): the Gson era (2017–2019) and Farebot 2026,
/// one card or `{"cards": […]}`, byte strings base64. Each card is rewritten in Metrodroid
/// JSON's shape (§4) and imported as that is; a problem found then is named by the card's path
/// and the JSON path it became.
enum FarebotImport {
    static func cards(_ root: JSONNode, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> [CardImage] {
        let list = root["cards"].exists ? try root["cards"].items() : [root]
        guard !list.isEmpty else { throw root["cards"].fail("no card in the list") }
        var images: [CardImage] = []
        for card in list {
            let json = try metrodroid(card)
            do {
                images.append(try MetrodroidImport.card(JSONNode(json, file: card.file), options: options, warn: warn))
            } catch {
                let at = card.path.isEmpty ? "the card" : card.path
                throw DumpError(
                    file: card.file, place: at + (error.place.map { " (as Metrodroid JSON: \($0))" } ?? ""), reason: error.reason)
            }
        }
        return images
    }

    /// Bytes as Farebot wrote them: base64 text, a list of numbers (Gson's Java bytes, so
    /// −128…255), or an object holding them under `data`.
    static func bytes(_ n: JSONNode) throws(DumpError) -> [UInt8] {
        switch n.value {
        case .string(let s)?:
            guard let d = Data(base64Encoded: s.filter { !$0.isWhitespace }) else { throw n.fail("not base64") }
            return Array(d)
        case .array(let items)?:
            return try items.enumerated().map { i, v throws(DumpError) in
                guard case .int(let x) = v, (-128...255).contains(x) else { throw n.fail("item \(i): not a byte") }
                return UInt8(truncatingIfNeeded: x)
            }
        case .object?: return try bytes(n["data"])
        default: throw n.fail(n.exists ? "expected bytes (base64)" : "missing")
        }
    }

    static func hex(_ n: JSONNode) throws(DumpError) -> JSONValue { .string(try bytes(n).compactHex) }

    /// `_tagId` and `_scannedAt`: Farebot 2026's Ultralight, FeliCa and NFC-V cards name them so.
    static func field(_ card: JSONNode, _ name: String) -> JSONNode { card[name].exists ? card[name] : card["_" + name] }

    static func metrodroid(_ card: JSONNode) throws(DumpError) -> JSONValue {
        let tag = try bytes(field(card, "tagId"))
        let type = try card["cardType"].string()
        let body: (String, JSONValue)
        switch type {
        case "MifareClassic": body = ("mifareClassic", try classic(card))
        case "MifareUltralight": body = ("mifareUltralight", try ultralight(card))
        case "MifareDesfire": body = ("mifareDesfire", try desfire(card))
        case "FeliCa": body = ("felica", try felica(card))
        case "CEPAS":
            throw card["cardType"].fail("a CEPAS card as Farebot kept it: purse and history answers, not a card cardscan can serve")
        default:
            throw card["cardType"].fail("'\(type)': cardscan reads MifareClassic, MifareUltralight, MifareDesfire and FeliCa from Farebot")
        }
        return .object([("tagId", .string(tag.compactHex)), body])
    }

    /// Items ordered by their position key (`index`, `address`), each position once.
    static func ordered(_ list: [JSONNode], by key: String) throws(DumpError) -> [(Int, JSONNode)] {
        var out: [(Int, JSONNode)] = []
        for item in list {
            let n = try item[key].int()
            guard !out.contains(where: { $0.0 == n }) else { throw item[key].fail("\(key) \(n) is given twice") }
            out.append((n, item))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    static func classic(_ card: JSONNode) throws(DumpError) -> JSONValue {
        var sectors: [JSONValue] = []
        for (expected, (n, s)) in try ordered(try card["sectors"].items(), by: "index").enumerated() {
            guard n == expected else { throw s["index"].fail("sector \(n) where sector \(expected) comes next") }
            let type = s["type"].exists ? try s["type"].string() : "data"
            guard type == "data", s["blocks"].exists else {
                sectors.append(.object([("isUnauthorized", .bool(true))]))
                continue
            }
            var blocks: [JSONValue] = []
            for (i, (m, b)) in try ordered(try s["blocks"].items(), by: "index").enumerated() {
                guard m == i else { throw b["index"].fail("block \(m) where block \(i) comes next") }
                blocks.append(b["data"].exists ? try hex(b["data"]) : .string(""))
            }
            var sector: [(String, JSONValue)] = [("blocks", .array(blocks))]
            for key in ["keyA", "keyB"] where s[key].exists { sector.append((key, try hex(s[key]))) }
            sectors.append(.object(sector))
        }
        return .object([("sectors", .array(sectors))])
    }

    static func ultralight(_ card: JSONNode) throws(DumpError) -> JSONValue {
        var pages: [JSONValue] = []
        for (i, (n, p)) in try ordered(try card["pages"].items(), by: "index").enumerated() {
            guard n == i else { throw p["index"].fail("page \(n) where page \(i) comes next") }
            let locked = try p["isUnauthorized"].bool() || !p["data"].exists
            pages.append(.object(locked ? [("isUnauthorized", .bool(true))] : [("data", try hex(p["data"]))]))
        }
        var body: [(String, JSONValue)] = [("pages", .array(pages))]
        if let model = LegacyXMLCard.model(androidType: card["ultralightType"].exists ? try card["ultralightType"].int() : nil) {
            body.append(("cardModel", .string(model)))
        }
        return .object(body)
    }

    static func desfire(_ card: JSONNode) throws(DumpError) -> JSONValue {
        var apps: [(String, JSONValue)] = []
        for app in card["applications"].exists ? try card["applications"].items() : [] {
            var files: [(String, JSONValue)] = []
            for f in app["files"].exists ? try app["files"].items() : [] {
                var file: [(String, JSONValue)] = []
                if f["fileSettings"].exists { file.append(("settings", try hex(f["fileSettings"]))) }
                if f["error"].exists { file.append(("error", .string("unreadable"))) }
                if f["fileData"].exists { file.append(("data", try hex(f["fileData"]))) }
                files.append(("\(try f["fileId"].int())", .object(file)))
            }
            var body: [(String, JSONValue)] = [("files", .object(files))]
            if try app["dirListLocked"].bool() { body.append(("dirListLocked", .bool(true))) }
            apps.append(("\(try app["appId"].int())", .object(body)))
        }
        var out: [(String, JSONValue)] = [("manufacturingData", try hex(card["manufacturingData"])), ("applications", .object(apps))]
        if try card["appListLocked"].bool() { out.append(("appListLocked", .bool(true))) }
        return .object(out)
    }

    /// The PMm as Gson wrote it (`icCode` then `maximumResponseTime`) or as base64 (2026).
    static func felica(_ card: JSONNode) throws(DumpError) -> JSONValue {
        var systems: [(String, JSONValue)] = []
        for system in try card["systems"].items() where !(try system["skipped"].bool()) {
            var services: [(String, JSONValue)] = []
            for service in system["services"].exists ? try system["services"].items() : [] where !(try service["skipped"].bool()) {
                var blocks: [(String, JSONValue)] = []
                for (address, block) in try ordered(service["blocks"].exists ? try service["blocks"].items() : [], by: "address") {
                    blocks.append(("\(address)", .object([("data", try hex(block["data"]))])))
                }
                services.append(("\(try service["serviceCode"].int())", .object([("blocksMap", .object(blocks))])))
            }
            systems.append(("\(try system["code"].int())", .object([("services", .object(services))])))
        }
        var out: [(String, JSONValue)] = [("systems", .object(systems))]
        let pmm = card["pmm"]
        if case .object? = pmm.value, pmm["icCode"].exists {
            out.append(("pMm", .string((try bytes(pmm["icCode"]) + bytes(pmm["maximumResponseTime"])).compactHex)))
        } else if pmm.exists {
            out.append(("pMm", try hex(pmm)))
        }
        return .object(out)
    }
}
