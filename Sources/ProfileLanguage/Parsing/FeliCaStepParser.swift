import FeliCaCommands
import Yams

/// The FeliCa steps of a profile file (docs/profile-format.md §FeliCa): `poll` and
/// `read-blocks` (services readable without a key only).
enum FeliCaStepParser {
    static let actions = ["poll", "read-blocks"]

    static func parse(_ key: String, _ node: Node, _ apath: String, _ r: YAMLReader) -> FeliCaStep? {
        switch key {
        case "poll":
            guard let m = r.mapping(node, apath, allowed: ["system-code"]) else { return nil }
            let g = { (k: String) in m.node(k) }
            if g("system-code") == nil { r.issue(node, "\(apath).system-code", "required key 'system-code' is missing (e.g. 0x0003)") }
            guard let sc = r.int(g("system-code"), "\(apath).system-code", range: 0...0xFFFF) else { return nil }
            return .poll(systemCode: UInt16(sc))
        case "read-blocks":
            guard let m = r.mapping(node, apath, allowed: ["service", "first", "count", "per-command", "records"]) else { return nil }
            let g = { (k: String) in m.node(k) }
            if g("service") == nil { r.issue(node, "\(apath).service", "required key 'service' is missing (e.g. 0x090F)") }
            let service = r.int(g("service"), "\(apath).service", range: 0...0xFFFF)
            if let service, ServiceCode(UInt16(service)).needsAuthentication {
                r.issue(
                    g("service"), "\(apath).service",
                    "service \(String(service, radix: 16)) needs authentication (a 'with key' attribute): cardscan only reads without encryption"
                )
            }
            let first = g("first").flatMap { r.int($0, "\(apath).first", range: 0...0xFFFF) } ?? 0
            let count = g("count").flatMap { r.int($0, "\(apath).count", range: 1...255) } ?? 1
            let per = g("per-command").flatMap { r.int($0, "\(apath).per-command", range: 1...15) } ?? 15
            let records = g("records").flatMap { r.bool($0, "\(apath).records") } ?? false
            // Block numbers are 16 bits (FeliCa Card User's Manual §7.4.6): the read would fail
            // on every card, so the file is wrong, not the card.
            if first + count - 1 > 0xFFFF {
                r.issue(
                    g("count") ?? node, "\(apath).count",
                    "\(count) blocks from block \(first) go past block 65535 (block numbers are 16 bits)")
            }
            guard let service else { return nil }
            return .readBlocks(service: UInt16(service), first: UInt16(first), count: count, perCommand: per, records: records)
        default:
            return nil
        }
    }
}
