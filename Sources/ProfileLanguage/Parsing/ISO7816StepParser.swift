import APDU

/// The ISO 7816 steps of a profile (docs/profile-format.md §Steps): `select`, `read-binary`,
/// `read-record` (one record), `read-records` (a range, or until the card has no more) and
/// `command` (any other read command, written out).
enum ISO7816StepParser {
    static let actions = ["select", "read-binary", "read-record", "read-records", "command"]

    static func parse(_ key: String, _ c: Cursor) -> ISO7816Step? {
        switch key {
        case "select": return select(c)
        case "read-binary": return readBinary(c)
        case "read-record": return readRecord(c)
        case "read-records": return readRecords(c)
        default: return command(c)
        }
    }

    /// The SELECTs a `select` step tries, in order: each DF name of `aid` (one or a list), then
    /// `fid`, then `path` — the first the card accepts is the answer; or `aid-from` a value.
    static func select(_ c: Cursor) -> ISO7816Step? {
        guard let s = c.section(.select) else { return nil }
        let returning: CommandAPDU.SelectResponse = (s["fci"].bool() ?? true) ? .fci : .none
        if s.has("aid-from") {
            for k in ["aid", "fid", "path"] where s.has(k) { s[k].issue("'aid-from' names the one DF to select: leave '\(k)' out") }
            return ReferenceParser.reference(s["aid-from"]).map { .dependent(.select(aid: $0, returning: returning)) }
        }
        guard s.has("aid") || s.has("fid") || s.has("path") else {
            c.issue("select needs aid, fid or path (several: tried in that order until the card accepts one)")
            return nil
        }
        var out: [CommandAPDU] = []
        var ok = true
        if s.has("aid") {
            let items = s["aid"].oneOrList() ?? []
            if items.isEmpty { s["aid"].issue("the list of DF names is empty") }
            for item in items {
                if let aid = item.hex(1...16) { out.append(.select(aid: aid, returning: returning)) } else { ok = false }
            }
        }
        if s.has("fid") {
            if let b = s["fid"].hex(2...2) {
                out.append(.select(fileID: UInt16(b[0]) << 8 | UInt16(b[1]), returning: returning))
            } else {
                ok = false
            }
        }
        if let text = s["path"].text() {
            var fids: [UInt16] = []
            for part in text.split(separator: "/") {
                guard let b = try? Hex.parse(part), b.count == 2 else {
                    s["path"].issue("'\(text)' is not a path of 2-byte file identifiers, e.g. 1001/0015")
                    return nil
                }
                fids.append(UInt16(b[0]) << 8 | UInt16(b[1]))
            }
            if fids.isEmpty { s["path"].issue("the path is empty") } else { out.append(.select(path: fids, returning: returning)) }
        }
        guard ok, !out.isEmpty else { return nil }
        return out.count == 1 ? .command(out[0]) : .select(out)
    }

    static func readBinary(_ c: Cursor) -> ISO7816Step? {
        guard let s = c.section(.readBinary) else { return nil }
        let length = s["length"].int(1...256) ?? 256
        if s.has("sfi") {
            guard let sfi = s["sfi"].int(1...30) else { return nil }
            return .command(.readBinary(sfi: UInt8(sfi), offset: UInt8(s["offset"].int(0...255) ?? 0), length: length))
        }
        return .command(.readBinary(offset: s["offset"].int(0...0x7FFF) ?? 0, length: length))
    }

    static func readRecord(_ c: Cursor) -> ISO7816Step? {
        guard let s = c.section(.readRecord) else { return nil }
        let sfi = s.has("sfi") ? s["sfi"].int(1...30) : nil
        let length = s["length"].int(1...256)
        let retry = retryLength(s, length: length)
        guard let record = s.required("record")?.int(1...254) else { return nil }
        return .command(.readRecord(UInt8(record), sfi: sfi.map(UInt8.init), length: length ?? 256), retryLength: retry)
    }

    /// `retry-length`: only with a Le of 00 (no `length`) for it to retry.
    private static func retryLength(_ s: Section, length: Int?) -> Int? {
        guard s.has("retry-length"), let v = s["retry-length"].int(1...255) else { return nil }
        if length != nil { s["retry-length"].issue("retry-length retries a Le of 00: leave 'length' out") }
        return v
    }

    static func readRecords(_ c: Cursor) -> ISO7816Step? {
        guard let s = c.section(.readRecords) else { return nil }
        if s.has("locator") {
            for k in s.keys where k != "locator" { s[k].issue("'locator' lists the records to read: '\(k)' does not apply") }
            let items = s["locator"].oneOrList() ?? []
            if items.isEmpty { s["locator"].issue("the list is empty") }
            let refs = items.compactMap { ReferenceParser.reference($0) }
            return refs.count == items.count && !refs.isEmpty ? .dependent(.locatedRecords(refs)) : nil
        }
        let sfiRef = s["sfi"].isMapping ? ReferenceParser.reference(s["sfi"]) : nil
        let lastRef = s["last"].isMapping ? ReferenceParser.reference(s["last"]) : nil
        if s["last"].isMapping, !s["sfi"].isMapping { s["last"].issue("a 'last' taken from an answer goes with an 'sfi' taken from one") }
        let sfi = s["sfi"].isMapping || !s.has("sfi") ? nil : s["sfi"].int(1...30)
        let first = s["first"].int(1...254) ?? 1
        let last = s["last"].isMapping || !s.has("last") ? nil : s["last"].int(1...254)
        if let last, last < first { s["last"].issue("last record \(last) comes before first \(first)") }
        let length = s["length"].int(1...256)
        let tryAll = s["try-all-first"].bool() ?? false
        if tryAll && length == nil { s["try-all-first"].issue("needs 'length' to split the answer into records") }
        var reads = ISO7816Step.RecordReads(
            sfi: sfi.map(UInt8.init), first: UInt8(first), last: last.map(UInt8.init), length: length, tryAllFirst: tryAll,
            retryLength: retryLength(s, length: length))
        if let t = s["transaction-number"].section(.transactionNumber) {
            let off = t["offset"].int(0...255) ?? 0, len = t["length"].int(1...4) ?? 2
            if let length, off + len > length { t.cursor.issue("bytes \(off)…\(off + len - 1) are past a \(length)-byte record") }
            reads.transactionNumber = (off, len)
        }
        if s["sfi"].isMapping {
            guard let sfiRef else { return nil }
            return .dependent(.records(sfi: sfiRef, last: lastRef, reads))
        }
        return .readRecords(reads)
    }

    /// A read command written out: refused when it changes a card, when cardscan does not know
    /// it (unless the profile declares it, trusted), or when it has a step of its own.
    static func command(_ c: Cursor) -> ISO7816Step? {
        guard let bytes = c.hex() else { return nil }
        let parsed: CommandAPDU
        do { parsed = try CommandAPDU(bytes: bytes) } catch {
            c.issue("'\(bytes.hexString)' is not a valid command APDU: \(error.message)")
            return nil
        }
        if parsed.cla & 0xF0 == 0, let own = ownStep(parsed) {
            c.issue("\(bytes.hexString) is a \(own): write it as a `\(own)` step")
            return nil
        }
        let policy = c.context.commandPolicy
        if policy.isReadOnly(parsed) { return .command(parsed) }
        c.issue(
            "refused: \(bytes.hexString) is not a read command (CLA \([parsed.cla].hexString) INS \([parsed.ins].hexString): \(policy.refusal(of: parsed))); profiles may send \(policy.summary), and commands of their own declared under 'commands' in a file the user trusts"
        )
        return nil
    }

    /// The step that writes a standard command (SELECT, READ BINARY, READ RECORD).
    private static func ownStep(_ c: CommandAPDU) -> String? {
        switch c.ins {
        case 0xA4: return "select"
        case 0xB0: return "read-binary"
        case 0xB2: return "read-record"
        default: return nil
        }
    }
}
