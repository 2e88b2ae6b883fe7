import APDU
import CardReports
import Foundation

/// The legacy XML card files of Farebot (up to 2016) and Metrodroid (up to v2.9.37)
/// (docs/dump-formats.md §5): `<card type id scanned_at>`, alone or inside `<cards>`, binary
/// data base64. Each card is rewritten in Metrodroid JSON's shape (§4) and imported as that
/// is, so both formats map onto images by the same rules; a problem found then is named by
/// the card's line and the JSON path it became.
enum LegacyXMLImport {
    static func cards(_ bytes: [UInt8], file: String, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> [CardImage] {
        let root = try XMLTree.parse(bytes, file: file)
        let cards: [XMLElement]
        switch root.name {
        case "card": cards = [root]
        case "cards": cards = root.all("card")
        default: throw DumpError(file: file, place: "line \(root.line)", reason: "<\(root.name)>: a legacy XML dump is a <card> or <cards>")
        }
        guard !cards.isEmpty else { throw DumpError(file: file, place: "line \(root.line)", reason: "<cards> holds no <card>") }
        var images: [CardImage] = []
        for card in cards {
            let x = LegacyXMLCard(file: file, card: card)
            let json = try x.metrodroid(warn: warn)
            do {
                images.append(try MetrodroidImport.card(JSONNode(json, file: file), options: options, warn: warn))
            } catch {
                throw DumpError(
                    file: file, place: "the card at line \(card.line)" + (error.place.map { " (as Metrodroid JSON: \($0))" } ?? ""),
                    reason: error.reason)
            }
        }
        return images
    }
}

/// One `<card>` element, and what it becomes in Metrodroid JSON.
struct LegacyXMLCard {
    let file: String
    let card: XMLElement

    func fail(_ e: XMLElement, _ reason: String) -> DumpError {
        DumpError(file: file, place: "line \(e.line), <\(e.name)>", reason: reason)
    }

    /// Base64 (line breaks and spaces allowed) as hex text.
    func base64(_ e: XMLElement, _ text: String) throws(DumpError) -> String {
        guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else { throw fail(e, "'\(text.prefix(40))' is not base64") }
        return Array(data).compactHex
    }

    /// A child's text as base64 bytes in hex, nil when there is no such child.
    func base64(child name: String, of e: XMLElement) throws(DumpError) -> String? {
        guard let c = e.first(name) else { return nil }
        return try base64(c, c.text)
    }

    /// A decimal attribute or child element.
    func number(_ e: XMLElement, _ name: String) throws(DumpError) -> Int {
        guard let text = e[name] ?? e.first(name)?.text else { throw fail(e, "no \(name)") }
        guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw fail(e, "\(name) '\(text)' is not a number") }
        return n
    }

    /// Children by their position attribute (`index`, `id`, …), in that order; each position
    /// once. A child without one takes its place in the document.
    func ordered(_ list: [XMLElement], by key: String) throws(DumpError) -> [(Int, XMLElement)] {
        var out: [(Int, XMLElement)] = []
        for (i, e) in list.enumerated() {
            let n = e[key] == nil && e.first(key) == nil ? i : try number(e, key)
            guard !out.contains(where: { $0.0 == n }) else { throw fail(e, "\(key) \(n) is given twice") }
            out.append((n, e))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// A boolean written as an attribute or as a child element of the same name.
    func flag(_ e: XMLElement, _ name: String) -> Bool { (e[name] ?? e.first(name)?.text)?.trimmingCharacters(in: .whitespaces) == "true" }

    /// Whether an element says it could not be read: `unauthorized`, `invalid`, or an `error`
    /// (attribute or element).
    func unreadable(_ e: XMLElement) -> Bool {
        flag(e, "unauthorized") || flag(e, "invalid") || e["error"] != nil || e.first("error") != nil
    }

    func metrodroid(warn: (String) -> Void) throws(DumpError) -> JSONValue {
        guard let id = card["id"], let tag = try? Hex.parse(id) else { throw fail(card, "no id, or an id that is not hex") }
        let type = try number(card, "type")
        let body: (String, JSONValue)
        switch type {
        case 0: body = ("mifareClassic", try classic())
        case 1: body = ("mifareUltralight", try ultralight())
        case 2: body = ("mifareDesfire", try LegacyXMLDESFire(card: self).desfire(uid: tag, warn: warn))
        case 4: body = ("felica", try felica())
        case 3: throw fail(card, "a CEPAS card as early Farebot kept it: its values, not the card's bytes, so nothing cardscan can serve")
        case 5:
            throw fail(
                card, "an ISO 7816 card in legacy XML: not read yet; Metrodroid 3 exports the same card as JSON, which cardscan reads")
        default: throw fail(card, "card type \(type): cardscan reads 0 (Classic), 1 (Ultralight), 2 (DESFire) and 4 (FeliCa)")
        }
        return .object([("tagId", .string(tag.compactHex)), body])
    }

    private func classic() throws(DumpError) -> JSONValue {
        var sectors: [JSONValue] = []
        let list = try ordered(card.first("sectors")?.all("sector") ?? [], by: "index")
        for (expected, (n, s)) in list.enumerated() {
            guard n == expected else { throw fail(s, "sector \(n) where sector \(expected) comes next") }
            if unreadable(s) {
                sectors.append(.object([("isUnauthorized", .bool(true))]))
                continue
            }
            var blocks: [JSONValue] = []
            for (i, (m, block)) in try ordered(s.first("blocks")?.all("block") ?? [], by: "index").enumerated() {
                guard m == i else { throw fail(block, "block \(m) where block \(i) comes next") }
                blocks.append(.string(try base64(child: "data", of: block) ?? ""))
            }
            var sector: [(String, JSONValue)] = [("blocks", .array(blocks))]
            // Metrodroid's XML kept the one key that opened the sector.
            if let key = s["key"] ?? s.first("key")?.text {
                let hex = try base64(s, key)
                sector.append((s["keytype"] == "KeyB" ? "keyB" : "keyA", .string(hex)))
            }
            sectors.append(.object(sector))
        }
        return .object([("sectors", .array(sectors))])
    }

    private func ultralight() throws(DumpError) -> JSONValue {
        var pages: [JSONValue] = []
        for (i, (n, p)) in try ordered(card.first("pages")?.all("page") ?? [], by: "index").enumerated() {
            guard n == i else { throw fail(p, "page \(n) where page \(i) comes next") }
            if unreadable(p) {
                pages.append(.object([("isUnauthorized", .bool(true))]))
            } else {
                guard let data = try base64(child: "data", of: p) else { throw fail(p, "no <data>") }
                pages.append(.object([("data", .string(data))]))
            }
        }
        var body: [(String, JSONValue)] = [("pages", .array(pages))]
        if let model = card["cardModel"] ?? Self.model(androidType: card["ultralightType"].flatMap { Int($0) }) {
            body.append(("cardModel", .string(model)))
        }
        return .object(body)
    }

    /// Metrodroid's model name for Android's `MifareUltralight.getType()`, which Farebot kept:
    /// 1 Ultralight (MF0ICU1), 2 Ultralight C (MF0ICU2); nil for −1 (unknown) and anything else.
    static func model(androidType: Int?) -> String? { [1: "MF0ICU1", 2: "MF0ICU2"][androidType ?? -1] }

    private func felica() throws(DumpError) -> JSONValue {
        var systems: [(String, JSONValue)] = []
        for (code, system) in try ordered(card.first("systems")?.all("system") ?? [], by: "code") {
            var services: [(String, JSONValue)] = []
            for (sc, service) in try ordered(system.first("services")?.all("service") ?? [], by: "code") {
                var blocks: [(String, JSONValue)] = []
                for (address, block) in try ordered(service.first("blocks")?.all("block") ?? [], by: "address") {
                    blocks.append(("\(address)", .object([("data", .string(try base64(block, block.text)))])))
                }
                services.append(("\(sc)", .object([("blocksMap", .object(blocks))])))
            }
            systems.append(("\(code)", .object([("services", .object(services))])))
        }
        var body: [(String, JSONValue)] = [("systems", .object(systems))]
        if let pmm = try base64(child: "pmm", of: card) { body.append(("pMm", .string(pmm))) }
        return .object(body)
    }
}
