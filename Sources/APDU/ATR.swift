/// An Answer-to-Reset (ISO/IEC 7816-3 §8.2): TS, T0, the interface-byte chain
/// TAi/TBi/TCi/TDi, the historical bytes and, when a protocol other than T=0 is
/// offered, the check byte TCK.
public struct ATR: Hashable, Sendable {
    /// The whole ATR, TS first, exactly as parsed.
    public let bytes: [UInt8]
    /// Initial character: 3B direct convention, 3F inverse convention (§8.1).
    public let ts: UInt8
    /// Format byte: Y1 in bits 8-5, K (number of historical bytes) in bits 4-1.
    public let t0: UInt8
    /// One group per i = 1, 2, …: the interface bytes present in that group.
    public let interfaceGroups: [InterfaceGroup]
    /// The K historical bytes (K from T0), whose content ISO/IEC 7816-4 defines.
    public let historicalBytes: [UInt8]
    /// The check byte TCK, present (and verified) when a TDi announces a protocol other than
    /// T=0; nil otherwise.
    public let tck: UInt8?

    /// The interface bytes TAi, TBi, TCi and TDi of one group i (ISO/IEC 7816-3 §8.2); a byte
    /// the previous Y bits do not announce is nil.
    public struct InterfaceGroup: Hashable, Sendable {
        /// The group number i, counted from 1.
        public let index: Int
        /// TAi, or nil when absent.
        public var ta: UInt8?
        /// TBi, or nil when absent.
        public var tb: UInt8?
        /// TCi, or nil when absent.
        public var tc: UInt8?
        /// TDi, or nil when absent: Y(i+1) in bits 8-5 (which bytes the next group has), a protocol
        /// T in bits 4-1.
        public var td: UInt8?
        /// The protocol this group's TD announces (low nibble of TDi).
        public var protocolAnnounced: Int? { td.map { Int($0 & 0x0F) } }
    }

    /// Why bytes are not a valid ATR.
    public enum ParseError: UserFacingError, Equatable {
        /// Fewer than the two bytes TS and T0.
        case tooShort
        /// TS (the byte given) is neither 3B nor 3F.
        case invalidTS(UInt8)
        /// The bytes end before the named part: `TA2`, `TCK`, `3 historical byte(s)`, ….
        case truncated(expecting: String)
        /// TCK is `actual`, but the XOR of T0 up to the byte before TCK is `expected`.
        case tckMismatch(expected: UInt8, actual: UInt8)
        /// This many bytes follow the end of the ATR.
        case trailingBytes(Int)
        /// More than 33 bytes (the count given), the most an ATR can have.
        case tooLong(Int)
        public var message: String {
            switch self {
            case .tooShort: return "an ATR needs at least TS and T0"
            case .invalidTS(let b): return "TS must be 3B or 3F, got \([b].hexString)"
            case .truncated(let w): return "ATR truncated: \(w) missing"
            case .tckMismatch(let e, let a): return "TCK is \([a].hexString) but the XOR of T0…Tk needs \([e].hexString)"
            case .trailingBytes(let n): return "\(n) byte(s) after the end of the ATR"
            case .tooLong(let n): return "an ATR has at most 33 bytes, got \(n)"
            }
        }
        public var hint: String? {
            "an ATR is TS (3B or 3F), T0, the interface bytes it announces, the historical bytes and TCK (ISO/IEC 7816-3 §8.2)"
        }
    }

    /// Protocols the card offers (the TD chain; T=0 when there is none).
    public var protocols: [Int] {
        var result: [Int] = []
        for g in interfaceGroups { if let p = g.protocolAnnounced, !result.contains(p) { result.append(p) } }
        return result.isEmpty ? [0] : result
    }

    /// Parses and checks an ATR: the chain must fit, TCK (when present) must verify,
    /// and nothing may follow.
    public init(bytes input: some Collection<UInt8>) throws(ParseError) {
        let all = Array(input)
        if all.count > 33 { throw .tooLong(all.count) }
        var s = all[...]
        guard let ts = s.popFirst(), let t0 = s.popFirst() else { throw .tooShort }
        guard ts == 0x3B || ts == 0x3F else { throw .invalidTS(ts) }
        var groups: [InterfaceGroup] = []
        var y = t0 >> 4
        var index = 1
        var needsTCK = false
        while true {
            var g = InterfaceGroup(index: index)
            if y & 1 != 0 {
                guard let b = s.popFirst() else { throw .truncated(expecting: "TA\(index)") }
                g.ta = b
            }
            if y & 2 != 0 {
                guard let b = s.popFirst() else { throw .truncated(expecting: "TB\(index)") }
                g.tb = b
            }
            if y & 4 != 0 {
                guard let b = s.popFirst() else { throw .truncated(expecting: "TC\(index)") }
                g.tc = b
            }
            if y & 8 != 0 {
                guard let b = s.popFirst() else { throw .truncated(expecting: "TD\(index)") }
                g.td = b
            }
            groups.append(g)
            guard let td = g.td else { break }
            if td & 0x0F != 0 { needsTCK = true }
            y = td >> 4
            if y == 0 { break }
            index += 1
        }
        let k = Int(t0 & 0x0F)
        guard s.count >= k else { throw .truncated(expecting: "\(k - s.count) historical byte(s)") }
        let historical = Array(s.prefix(k))
        s = s.dropFirst(k)
        var tck: UInt8? = nil
        if needsTCK {
            guard let b = s.popFirst() else { throw .truncated(expecting: "TCK") }
            let x = all[1..<(all.count - s.count - 1)].reduce(0, ^)
            if x != b { throw .tckMismatch(expected: x, actual: b) }
            tck = b
        }
        if !s.isEmpty { throw .trailingBytes(s.count) }
        self.bytes = all
        self.ts = ts
        self.t0 = t0
        self.interfaceGroups = groups
        self.historicalBytes = historical
        self.tck = tck
    }

    /// A multi-line breakdown in the words of ISO/IEC 7816-3.
    public var breakdown: [(String, String)] {
        var rows: [(String, String)] = []
        rows.append(("TS", "\([ts].hexString)  \(ts == 0x3B ? "direct convention" : "inverse convention")"))
        rows.append(("T0", "\([t0].hexString)  Y1=\(String(t0 >> 4, radix: 2)), K=\(t0 & 0x0F) historical byte(s)"))
        for g in interfaceGroups {
            if let v = g.ta { rows.append(("TA\(g.index)", "\([v].hexString)\(g.index == 1 ? "  Fi/Di = \(v >> 4)/\(v & 0x0F)" : "")")) }
            if let v = g.tb { rows.append(("TB\(g.index)", [v].hexString)) }
            if let v = g.tc { rows.append(("TC\(g.index)", "\([v].hexString)\(g.index == 1 ? "  extra guard time \(v)" : "")")) }
            if let v = g.td { rows.append(("TD\(g.index)", "\([v].hexString)  protocol T=\(v & 0x0F)")) }
        }
        rows.append(("protocols", protocols.map { "T=\($0)" }.joined(separator: ", ")))
        let printable = historicalBytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        rows.append(
            (
                "historical",
                historicalBytes.isEmpty
                    ? "(none)" : historicalBytes.hexString + (printable ? "  \"\(String(decoding: historicalBytes, as: UTF8.self))\"" : "")
            ))
        if let tck { rows.append(("TCK", "\([tck].hexString)  (correct)")) }
        return rows
    }
}
