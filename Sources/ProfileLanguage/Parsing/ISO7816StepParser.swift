import APDU
import Yams

/// The ISO 7816 steps of a profile file (docs/profile-format.md §Steps): `select`,
/// `read-binary`, `read-record`, `read-records` and `command` (read commands only).
enum ISO7816StepParser {
    static let actions = ["select", "read-binary", "read-record", "read-records", "command"]

    static func parse(_ key: String, _ node: Node, _ apath: String, _ r: YAMLReader) -> ISO7816Step? {
        switch key {
        case "select":
            if case .mapping(let m) = node, m.keys.contains(where: { $0.string == "aid-from" }) {
                guard let sm = r.mapping(node, apath, allowed: ["aid-from", "fci"]) else { return nil }
                let sg = { (k: String) in sm.node(k) }
                let returning: CommandAPDU.SelectResponse = (sg("fci").flatMap { r.bool($0, "\(apath).fci") } ?? true) ? .fci : .none
                guard let ref = DependentStepParser.reference(sg("aid-from"), "\(apath).aid-from", r) else { return nil }
                return .dependent(.select(aid: ref, returning: returning))
            }
            guard let candidates = parseSelect(node, apath, r) else { return nil }
            return candidates.count == 1 ? .command(candidates[0]) : .select(candidates)
        case "read-binary":
            guard let m = r.mapping(node, apath, allowed: ["sfi", "offset", "length"]) else { return nil }
            let g = { (k: String) in m.node(k) }
            let length = r.int(g("length"), "\(apath).length", range: 1...256) ?? 256
            if let sfiNode = g("sfi") {
                guard let sfi = r.int(sfiNode, "\(apath).sfi", range: 1...30) else { return nil }
                let off = r.int(g("offset"), "\(apath).offset", range: 0...255) ?? 0
                return .command(.readBinary(sfi: UInt8(sfi), offset: UInt8(off), length: length))
            }
            let off = r.int(g("offset"), "\(apath).offset", range: 0...0x7FFF) ?? 0
            return .command(.readBinary(offset: off, length: length))
        case "read-record":
            guard let m = r.mapping(node, apath, allowed: ["sfi", "record", "length", "retry-length"]) else { return nil }
            let g = { (k: String) in m.node(k) }
            let sfi = g("sfi").flatMap { r.int($0, "\(apath).sfi", range: 1...30) }
            let length = r.int(g("length"), "\(apath).length", range: 1...256) ?? 256
            let retry = retryLength(g, length: g("length") == nil ? nil : length, node, apath, r)
            if g("record") == nil { r.issue(node, "\(apath).record", "required key 'record' is missing") }
            guard let rec = r.int(g("record"), "\(apath).record", range: 1...254) else { return nil }
            return .command(.readRecord(UInt8(rec), sfi: sfi.map(UInt8.init), length: length), retryLength: retry)
        case "read-records":
            guard
                let m = r.mapping(
                    node, apath, allowed: ["sfi", "first", "last", "length", "try-all-first", "retry-length", "sequence", "locator"])
            else {
                return nil
            }
            let g = { (k: String) in m.node(k) }
            if let ln = g("locator") {
                for k in m.map(\.key) where k != "locator" {
                    r.issue(g(k), "\(apath).\(k)", "'locator' lists the records to read: '\(k)' does not apply")
                }
                let items = r.list(ln, "\(apath).locator") ?? []
                let refs = items.enumerated().compactMap { i, n in
                    DependentStepParser.reference(n, ln.sequence == nil ? "\(apath).locator" : "\(apath).locator[\(i)]", r)
                }
                if items.isEmpty { r.issue(ln, "\(apath).locator", "the list is empty") }
                return refs.count == items.count && !refs.isEmpty ? .dependent(.locatedRecords(refs)) : nil
            }
            let isReference = { (n: Node?) -> Bool in if case .mapping? = n { return true } else { return false } }
            let sfiRef = isReference(g("sfi")) ? DependentStepParser.reference(g("sfi"), "\(apath).sfi", r) : nil
            let lastRef = isReference(g("last")) ? DependentStepParser.reference(g("last"), "\(apath).last", r) : nil
            if isReference(g("last")), !isReference(g("sfi")) {
                r.issue(g("last"), "\(apath).last", "a 'last' taken from an answer goes with an 'sfi' taken from one")
            }
            let sfi = isReference(g("sfi")) ? nil : g("sfi").flatMap { r.int($0, "\(apath).sfi", range: 1...30) }
            let first = r.int(g("first"), "\(apath).first", range: 1...254) ?? 1
            let last = isReference(g("last")) ? nil : g("last").flatMap { r.int($0, "\(apath).last", range: 1...254) }
            if let last, last < first { r.issue(g("last"), "\(apath).last", "last record \(last) comes before first \(first)") }
            let length = g("length").flatMap { r.int($0, "\(apath).length", range: 1...256) }
            let tryAll = g("try-all-first").flatMap { r.bool($0, "\(apath).try-all-first") } ?? false
            if tryAll && length == nil { r.issue(node, "\(apath).try-all-first", "needs 'length' to split the answer into records") }
            let retry = retryLength(g, length: length, node, apath, r)
            var reads = ISO7816Step.RecordReads(
                sfi: sfi.map(UInt8.init), first: UInt8(first), last: last.map(UInt8.init), length: length, tryAllFirst: tryAll,
                retryLength: retry)
            if let sn = g("sequence"), let sm = r.mapping(sn, "\(apath).sequence", allowed: ["offset", "length"]) {
                let sg = { (k: String) in sm.node(k) }
                let off = r.int(sg("offset"), "\(apath).sequence.offset", range: 0...255) ?? 0
                let len = r.int(sg("length"), "\(apath).sequence.length", range: 1...4) ?? 2
                if let length, off + len > length {
                    r.issue(sn, "\(apath).sequence", "bytes \(off)…\(off + len - 1) are past a \(length)-byte record")
                }
                reads.sequence = (off, len)
            }
            if isReference(g("sfi")) {
                guard let sfiRef else { return nil }
                return .dependent(.records(sfi: sfiRef, last: lastRef, reads))
            }
            return .readRecords(reads)
        case "command":
            guard let bytes = r.hex(node, apath) else { return nil }
            do {
                let c = try CommandAPDU(bytes: bytes)
                let policy = r.commandPolicy
                if policy.isReadOnly(c) { return .command(c) }
                r.issue(
                    node, apath,
                    "refused: \(bytes.hexString) is not a read command (CLA \([c.cla].hexString) INS \([c.ins].hexString): \(policy.refusal(of: c))); profiles may send \(policy.summary), and commands of their own declared under 'commands' in a file the user trusts"
                )
            } catch {
                r.issue(node, apath, "'\(bytes.hexString)' is not a valid command APDU: \(error.message)")
            }
            return nil
        default:
            return nil
        }
    }

    /// `retry-length`: only with a Le of 00 (no `length`) for it to retry.
    private static func retryLength(_ g: (String) -> Node?, length: Int?, _ node: Node, _ apath: String, _ r: YAMLReader) -> Int? {
        guard let n = g("retry-length") else { return nil }
        guard let v = r.int(n, "\(apath).retry-length", range: 1...255) else { return nil }
        if length != nil { r.issue(n, "\(apath).retry-length", "retry-length retries a Le of 00: leave 'length' out") }
        return v
    }

    /// The SELECTs a `select` step tries, in order: each DF name of `aid` (one or a list), then
    /// `fid`, then `path` — the first the card accepts is the answer.
    static func parseSelect(_ node: Node, _ path: String, _ r: YAMLReader) -> [CommandAPDU]? {
        guard let m = r.mapping(node, path, allowed: ["aid", "fid", "path", "fci"]) else { return nil }
        let g = { (k: String) in m.node(k) }
        let returning: CommandAPDU.SelectResponse = (g("fci").flatMap { r.bool($0, "\(path).fci") } ?? true) ? .fci : .none
        guard g("aid") != nil || g("fid") != nil || g("path") != nil else {
            r.issue(node, path, "select needs aid, fid or path (several: tried in that order until the card accepts one)")
            return nil
        }
        var out: [CommandAPDU] = []
        var ok = true
        if let a = g("aid") {
            let items = a.sequence.map(Array.init) ?? [a]
            for (i, item) in items.enumerated() {
                let p = a.sequence == nil ? "\(path).aid" : "\(path).aid[\(i)]"
                guard let aid = r.hex(item, p) else {
                    ok = false
                    continue
                }
                guard (1...16).contains(aid.count) else {
                    r.issue(item, p, "an AID is 1 to 16 bytes")
                    ok = false
                    continue
                }
                out.append(.select(aid: aid, returning: returning))
            }
            if items.isEmpty { r.issue(a, "\(path).aid", "the list of DF names is empty") }
        }
        if let f = g("fid") {
            let b = r.hex(f, "\(path).fid")
            if let b, b.count == 2 {
                out.append(.select(fileID: UInt16(b[0]) << 8 | UInt16(b[1]), returning: returning))
            } else {
                if b != nil { r.issue(f, "\(path).fid", "a file identifier is 2 bytes, e.g. 1001") }
                ok = false
            }
        }
        if let pn = g("path"), let text = r.string(pn, "\(path).path") {
            var fids: [UInt16] = []
            for part in text.split(separator: "/") {
                guard let b = try? Hex.parse(part), b.count == 2 else {
                    r.issue(pn, "\(path).path", "'\(text)' is not a path of 2-byte file identifiers, e.g. 1001/0015")
                    return nil
                }
                fids.append(UInt16(b[0]) << 8 | UInt16(b[1]))
            }
            if fids.isEmpty {
                r.issue(pn, "\(path).path", "the path is empty")
            } else {
                out.append(.select(path: fids, returning: returning))
            }
        }
        return ok && !out.isEmpty ? out : nil
    }
}
