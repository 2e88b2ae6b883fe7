import APDU
import Yams

/// The ISO 7816 steps of a profile file (docs/profile-format.md §Steps): `select`,
/// `read-binary`, `read-record`, `read-records` and `command` (read commands only).
enum ISO7816StepParser {
    static let actions = ["select", "read-binary", "read-record", "read-records", "command"]

    static func parse(_ key: String, _ node: Node, _ apath: String, _ r: YAMLReader) -> ISO7816Step? {
        switch key {
        case "select": return parseSelect(node, apath, r).map { .command($0) }
        case "read-binary":
            guard let m = r.mapping(node, apath, allowed: ["sfi", "offset", "length"]) else { return nil }
            let g = { (k: String) in m.first { $0.key == k }?.node }
            let length = r.int(g("length"), "\(apath).length", range: 1...256) ?? 256
            if let sfiNode = g("sfi") {
                guard let sfi = r.int(sfiNode, "\(apath).sfi", range: 1...30) else { return nil }
                let off = r.int(g("offset"), "\(apath).offset", range: 0...255) ?? 0
                return .command(.readBinary(sfi: UInt8(sfi), offset: UInt8(off), length: length))
            }
            let off = r.int(g("offset"), "\(apath).offset", range: 0...0x7FFF) ?? 0
            return .command(.readBinary(offset: off, length: length))
        case "read-record":
            guard let m = r.mapping(node, apath, allowed: ["sfi", "record", "length"]) else { return nil }
            let g = { (k: String) in m.first { $0.key == k }?.node }
            let sfi = g("sfi").flatMap { r.int($0, "\(apath).sfi", range: 1...30) }
            let length = r.int(g("length"), "\(apath).length", range: 1...256) ?? 256
            if g("record") == nil { r.issue(node, "\(apath).record", "required key 'record' is missing") }
            guard let rec = r.int(g("record"), "\(apath).record", range: 1...254) else { return nil }
            return .command(.readRecord(UInt8(rec), sfi: sfi.map(UInt8.init), length: length))
        case "read-records":
            guard let m = r.mapping(node, apath, allowed: ["sfi", "first", "last", "length", "try-all-first"]) else { return nil }
            let g = { (k: String) in m.first { $0.key == k }?.node }
            let sfi = g("sfi").flatMap { r.int($0, "\(apath).sfi", range: 1...30) }
            let first = r.int(g("first"), "\(apath).first", range: 1...254) ?? 1
            let last = g("last").flatMap { r.int($0, "\(apath).last", range: 1...254) }
            if let last, last < first { r.issue(g("last"), "\(apath).last", "last record \(last) comes before first \(first)") }
            let length = g("length").flatMap { r.int($0, "\(apath).length", range: 1...256) }
            let tryAll = g("try-all-first").flatMap { r.bool($0, "\(apath).try-all-first") } ?? false
            if tryAll && length == nil { r.issue(node, "\(apath).try-all-first", "needs 'length' to split the answer into records") }
            return .readRecords(
                sfi: sfi.map(UInt8.init), first: UInt8(first), last: last.map(UInt8.init), length: length, tryAllFirst: tryAll)
        case "command":
            guard let bytes = r.hex(node, apath) else { return nil }
            do {
                let c = try CommandAPDU(bytes: bytes)
                if ReadOnlyCommands.isReadOnly(c) { return .command(c) }
                r.issue(
                    node, apath,
                    "refused: \(bytes.hexString) is not a read command (CLA \([c.cla].hexString) INS \([c.ins].hexString)); profiles may only send \(ReadOnlyCommands.summary)"
                )
            } catch {
                r.issue(node, apath, "'\(bytes.hexString)' is not a valid command APDU: \(error.message)")
            }
            return nil
        default:
            return nil
        }
    }

    static func parseSelect(_ node: Node, _ path: String, _ r: YAMLReader) -> CommandAPDU? {
        guard let m = r.mapping(node, path, allowed: ["aid", "fid", "path", "fci"]) else { return nil }
        let g = { (k: String) in m.first { $0.key == k }?.node }
        let returning: CommandAPDU.SelectResponse = (g("fci").flatMap { r.bool($0, "\(path).fci") } ?? true) ? .fci : .none
        let given = ["aid", "fid", "path"].filter { g($0) != nil }
        guard given.count == 1 else {
            r.issue(node, path, "select needs exactly one of aid, fid, path")
            return nil
        }
        switch given[0] {
        case "aid":
            guard let aid = r.hex(g("aid"), "\(path).aid") else { return nil }
            guard (1...16).contains(aid.count) else {
                r.issue(g("aid"), "\(path).aid", "an AID is 1 to 16 bytes")
                return nil
            }
            return .select(aid: aid, returning: returning)
        case "fid":
            guard let b = r.hex(g("fid"), "\(path).fid") else { return nil }
            guard b.count == 2 else {
                r.issue(g("fid"), "\(path).fid", "a file identifier is 2 bytes, e.g. 1001")
                return nil
            }
            return .select(fileID: UInt16(b[0]) << 8 | UInt16(b[1]), returning: returning)
        default:
            guard let text = r.string(g("path"), "\(path).path") else { return nil }
            var fids: [UInt16] = []
            for part in text.split(separator: "/") {
                guard let b = try? Hex.parse(part), b.count == 2 else {
                    r.issue(g("path"), "\(path).path", "'\(text)' is not a path of 2-byte file identifiers, e.g. 1001/0015")
                    return nil
                }
                fids.append(UInt16(b[0]) << 8 | UInt16(b[1]))
            }
            return .select(path: fids, returning: returning)
        }
    }
}
