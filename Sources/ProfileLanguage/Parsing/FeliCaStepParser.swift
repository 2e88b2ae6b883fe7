import FeliCaCommands

/// The FeliCa steps of a profile (docs/profile-format.md §FeliCa): `poll` and `read-blocks`
/// (services readable without a key only).
enum FeliCaStepParser {
    static let actions = ["poll", "read-blocks"]

    static func parse(_ key: String, _ c: Cursor) -> FeliCaStep? {
        if key == "poll" {
            guard let s = c.section(.poll), let code = s.required("system-code", "e.g. 0x0003")?.int(0...0xFFFF) else { return nil }
            return .poll(systemCode: UInt16(code))
        }
        guard let s = c.section(.readBlocks) else { return nil }
        let service = s.required("service", "e.g. 0x090F")?.int(0...0xFFFF)
        if let service, ServiceCode(UInt16(service)).needsAuthentication {
            s["service"].issue(
                "service \(String(service, radix: 16)) needs authentication (a 'with key' attribute): cardscan only reads without encryption"
            )
        }
        let first = s["first"].int(0...0xFFFF) ?? 0
        let count = s["count"].int(1...255) ?? 1
        let per = s["per-command"].int(1...15) ?? 15
        // Block numbers are 16 bits (FeliCa Card User's Manual §7.4.6): the read would fail on
        // every card, so the file is wrong, not the card.
        if first + count - 1 > 0xFFFF {
            (s.has("count") ? s["count"] : s["first"]).issue(
                "\(count) blocks from block \(first) go past block 65535 (block numbers are 16 bits)")
        }
        guard let service else { return nil }
        return .readBlocks(service: UInt16(service), first: UInt16(first), count: count, perCommand: per)
    }
}
