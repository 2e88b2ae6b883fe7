import APDU

/// Variants are told apart by FeliCa services: they need a felica profile with a poll, distinct
/// names, and no service claimed by two of them (it could not tell them apart).
enum VariantChecks {
    static func check(_ p: Profile, _ context: ParseContext) {
        guard let first = p.variants.first else { return }
        if p.technology != .felica {
            context.issue(line: first.line, "variants", "variants are told apart by FeliCa services: set technology: felica")
        } else if !p.steps.contains(where: { if case .felica(.poll) = $0.action { return true } else { return false } }) {
            context.issue(line: first.line, "variants", "variants are asked of the polled system: add a poll step")
        }
        var owner: [UInt16: String] = [:]
        var names: Set<String> = []
        for (i, v) in p.variants.enumerated() {
            if !names.insert(v.name).inserted { context.issue(line: v.line, "variants[\(i)].name", "variant '\(v.name)' is listed twice") }
            for s in v.services {
                if let other = owner[s], other != v.name {
                    context.issue(
                        line: v.line, "variants[\(i)].services",
                        "service 0x\(Hex.format(s)) is also listed for '\(other)': a service two variants share cannot tell them apart")
                } else {
                    owner[s] = v.name
                }
            }
        }
    }
}
