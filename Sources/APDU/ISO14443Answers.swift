/// A contactless card's answers to a reader's anticollision and activation (ISO/IEC 14443-3
/// and -4), and the ATR a PC/SC reader makes of them (PC/SC part 3 §3.1.3.2.3.1). Pure
/// arithmetic: the PC/SC side (``ContactlessATR`` in PCSCTransport) and the simulated cards
/// use the same rules.
public enum ISO14443Answers {
    /// The ATR a PC/SC reader makes from an ISO 14443-4 card's historical bytes (at most 15
    /// are kept): `3B 8n 80 01`, the bytes, TCK (the exclusive-or of every byte after TS).
    public static func atr(historicalBytes h: [UInt8]) -> [UInt8] {
        let bytes = [0x3B, 0x80 | UInt8(min(h.count, 15)), 0x80, 0x01] + h.prefix(15)
        return bytes + [bytes.dropFirst().reduce(0, ^)]
    }

    /// A Type A card's historical bytes from its ATS without TL: T0, the interface bytes T0
    /// announces (TA1, TB1, TC1), then the historical bytes (ISO/IEC 14443-4 §5.2). Nil when
    /// the ATS is shorter than T0 says; empty for an empty ATS.
    public static func historicalBytes(ats: [UInt8]) -> [UInt8]? {
        guard let t0 = ats.first else { return [] }
        let start = 1 + [0x10, 0x20, 0x40].filter { t0 & $0 != 0 }.count
        guard ats.count >= start else { return nil }
        return Array(ats[start...])
    }

    /// The historical bytes of a PC/SC contactless ATR (`3B 8n 80 01 …  TCK`), or nil for
    /// any other ATR.
    public static func historicalBytes(atr: [UInt8]) -> [UInt8]? {
        guard atr.count >= 5, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 else { return nil }
        let n = Int(atr[1] & 0x0F)
        guard atr.count == 4 + n + 1 else { return nil }
        return Array(atr[4..<4 + n])
    }

    /// An ATS (without TL) that a PC/SC reader would turn into an ATR with these historical
    /// bytes: T0 `78` (FSCI 8: frames of 256 bytes; TA1, TB1 and TC1 follow), TA1 `80`
    /// (106 kbps both ways), TB1 `70` (FWI 7, SFGI 0), TC1 `02` (CID supported), then the bytes.
    public static func ats(historicalBytes h: [UInt8]) -> [UInt8] { [0x78, 0x80, 0x70, 0x02] + h }
}
