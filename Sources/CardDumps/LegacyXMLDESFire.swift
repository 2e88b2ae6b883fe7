import APDU
import CardReports

/// The DESFire part of a legacy XML card (docs/dump-formats.md §5): the manufacturing data as
/// its 28 bytes (`<raw>`, Metrodroid) or as decimal fields (Farebot), and each file's settings
/// as fields, rebuilt here into the bytes GetFileSettings answers.
struct LegacyXMLDESFire {
    let card: LegacyXMLCard

    func desfire(uid: [UInt8], warn: (String) -> Void) throws(DumpError) -> JSONValue {
        guard let m = card.card.first("manufacturing-data") else { throw card.fail(card.card, "no <manufacturing-data>") }
        let version: String
        if let raw = try card.base64(child: "raw", of: m) {
            version = raw
        } else {
            version = try fields(m, uid: uid, warn: warn).compactHex
        }
        var apps: [(String, JSONValue)] = []
        for (aid, app) in try card.ordered(card.card.first("applications")?.all("application") ?? [], by: "id") {
            var files: [(String, JSONValue)] = []
            for (id, f) in try card.ordered(app.first("files")?.all("file") ?? [], by: "id") {
                var file: [(String, JSONValue)] = []
                if let s = f.first("settings") { file.append(("settings", .string(try settings(s).compactHex))) }
                if card.flag(f, "unauthorized") || card.flag(f, "invalid") { file.append(("isUnauthorized", .bool(true))) }
                if let e = f.first("error") { file.append(("error", .string(e.text))) }
                if let data = try card.base64(child: "data", of: f) { file.append(("data", .string(data))) }
                files.append(("\(id)", .object(file)))
            }
            apps.append(("\(aid)", .object([("files", .object(files))])))
        }
        return .object([("manufacturingData", .string(version)), ("applications", .object(apps))])
    }

    /// GetVersion's 28 bytes from Farebot's decimal fields: hardware and software (7 each), then
    /// the UID (from the card's id: Farebot kept only its low 32 bits), batch number, week, year.
    private func fields(_ m: XMLElement, uid: [UInt8], warn: (String) -> Void) throws(DumpError) -> [UInt8] {
        func byte(_ name: String) throws(DumpError) -> UInt8 {
            let n = try card.number(m, name)
            guard (0...255).contains(n) else { throw card.fail(m, "\(name) \(n) is not a byte") }
            return UInt8(n)
        }
        var out: [UInt8] = []
        for part in ["hw", "sw"] {
            for field in ["vendor-id", "type", "sub-type", "major-version", "minor-version", "storage-size", "protocol"] {
                out.append(try byte("\(part)-\(field)"))
            }
        }
        guard uid.count == 7 else { throw card.fail(card.card, "id: \(uid.count) bytes; a DESFire UID is 7") }
        let batch = try card.number(m, "batch-no")
        guard (0...0xFF_FFFF_FFFF).contains(batch) else { throw card.fail(m, "batch-no \(batch) is more than 5 bytes") }
        warn("manufacturing-data: Farebot kept the batch number as a 32-bit number: its first byte may be lost")
        out += uid
        out += (0..<5).reversed().map { UInt8(truncatingIfNeeded: batch >> ($0 * 8)) }
        out += [try byte("week-prod"), try byte("year-prod")]
        return out
    }

    /// GetFileSettings' answer from `<settings>`'s fields: type, communication, access rights
    /// (hex, card order), then the sizes for the file's type, little-endian.
    private func settings(_ s: XMLElement) throws(DumpError) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let type = try card.number(s, "filetype")
        // Farebot wrote −1 here (a Java byte), and before 2014 spelled it `commsetting`.
        let commKey = s.first("commsettings") != nil || s["commsettings"] != nil ? "commsettings" : "commsetting"
        let comm = s.first(commKey) != nil || s[commKey] != nil ? try card.number(s, commKey) : 0
        guard let rightsText = s["accessrights"] ?? s.first("accessrights")?.text, let rights = try? Hex.parse(rightsText),
            rights.count == 2
        else {
            throw card.fail(s, "accessrights: two bytes of hex expected")
        }
        guard (-128...255).contains(comm) else { throw card.fail(s, "\(commKey) \(comm) is not a byte") }
        var out: [UInt8] = [UInt8(truncatingIfNeeded: type), UInt8(truncatingIfNeeded: comm)] + rights
        switch type {
        case 0, 1: out += le(try card.number(s, "filesize"), 3)
        case 2:
            out += le(try card.number(s, "min"), 4) + le(try card.number(s, "max"), 4) + le(try card.number(s, "limitcredit"), 4)
            out.append(card.flag(s, "limitcreditenabled") ? 1 : 0)
        case 3, 4:
            out +=
                le(try card.number(s, "recordsize"), 3) + le(try card.number(s, "maxrecords"), 3) + le(try card.number(s, "currecords"), 3)
        default: throw card.fail(s, "filetype \(type): DESFire files are 0 to 4")
        }
        return out
    }
}
