/// A Classic sector trailer's access bits (bytes 6–8: each condition bit stored twice, once
/// inverted; NXP MF1S50 data sheet §8.7): what they allow, as importers and cardsim need it.
public struct AccessBits: Equatable, Sendable {
    /// (C1, C2, C3) of blocks 0, 1, 2 and the trailer (block 3), each 0…7 as C1·4 + C2·2 + C3.
    public let conditions: [UInt8]

    /// The bits of trailer bytes 6, 7 and 8; nil when a bit and its inverted copy disagree
    /// (a card refuses such a trailer).
    public init?(_ b6: UInt8, _ b7: UInt8, _ b8: UInt8) {
        let c1 = b7 >> 4, c2 = b8 & 0x0F, c3 = b8 >> 4
        guard ~b6 & 0x0F == c1, ~b6 >> 4 & 0x0F == c2, ~b7 & 0x0F == c3 else { return nil }
        conditions = (0..<4).map { i in (c1 >> i & 1) << 2 | (c2 >> i & 1) << 1 | (c3 >> i & 1) }
    }

    /// The trailer's bytes 6–8 for `conditions` (four values 0…7), and byte 9 as given.
    public static func bytes(_ conditions: [UInt8]) -> [UInt8] {
        var c1: UInt8 = 0, c2: UInt8 = 0, c3: UInt8 = 0
        for (i, c) in conditions.prefix(4).enumerated() {
            c1 |= (c >> 2 & 1) << i
            c2 |= (c >> 1 & 1) << i
            c3 |= (c & 1) << i
        }
        return [(~c2 & 0x0F) << 4 | (~c1 & 0x0F), c1 << 4 | (~c3 & 0x0F), c3 << 4 | c2]
    }

    /// Whether key B can be read from the trailer (with key A): conditions 000, 010 and 001
    /// of the trailer, where key B then serves as data, not as a key.
    public var keyBReadable: Bool { [0, 2, 1].contains(conditions[3]) }

    /// What block `block` (0–2 a data block, 3 the trailer) allows, in words (NXP MF1S50 data
    /// sheet §8.7.2 and §8.7.3): `read A/B, write B`, `value: read A/B, decrement A/B`, ….
    public func describe(block: Int) -> String {
        let c = conditions[min(block, 3)]
        if block < 3 {
            return [
                "read A/B, write A/B, value A/B", "value: read A/B, decrement A/B", "read A/B", "read B, write B",
                "read A/B, write B", "read B", "value: read A/B, write B, increment B, decrement A/B", "no access",
            ][Int(c)]
        }
        return [
            "A writes the keys, B readable", "A writes the keys and access bits, B readable", "B readable, nothing writable",
            "B writes the keys and access bits", "B writes the keys", "B writes the access bits", "nothing writable",
            "nothing writable",
        ][Int(c)]
    }
}
