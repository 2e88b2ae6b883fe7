import APDU

/// The ATR a PC/SC contactless reader makes for an ISO/IEC 14443-4 card (PC/SC part 3
/// §3.1.3.2.3.1): `3B 8n 80 01`, n historical bytes, TCK. For a Type A card the historical
/// bytes are the ATS's; for a Type B card they are exactly 8: the ATQB's application data
/// (4 bytes), its protocol info (3) and the ATTRIB's MBLI and CID (1).
public struct ContactlessATR: Equatable, Sendable {
    /// The ATR's n historical bytes: the ATS's for Type A, the 8 bytes above for Type B.
    public let historicalBytes: [UInt8]

    /// Nil for any other ATR (a contact card's, or a pseudo-ATR of a storage card).
    public init?(_ atr: [UInt8]) {
        guard PseudoATR(atr) == nil, let h = ISO14443Answers.historicalBytes(atr: atr) else { return nil }
        historicalBytes = h
    }

    /// Eight historical bytes: the Type B layout. A Type A card whose ATS carries exactly
    /// eight is rare but possible, so this is a likelihood, and says so where it is shown.
    public var isLikelyTypeB: Bool { historicalBytes.count == 8 }

    /// `ISO 14443-4, likely Type B (ATQB application data 00 00 00 00, protocol info 33 81 81)`.
    public var cardDescription: String {
        guard isLikelyTypeB else { return "ISO 14443-4 smart card" }
        let h = historicalBytes
        return "ISO 14443-4, likely Type B (ATQB application data \(h[0..<4].hexString), protocol info \(h[4..<7].hexString))"
    }

    /// The ATR a PC/SC reader makes from `historicalBytes` (at most 15): `3B 8n 80 01`, the
    /// bytes, TCK (the exclusive-or of every byte after TS).
    public static func atr(historicalBytes h: [UInt8]) -> [UInt8] { ISO14443Answers.atr(historicalBytes: h) }

    /// A Type A card's historical bytes from its ATS as libnfc gives it (without TL): T0, the
    /// interface bytes T0 announces (TA1, TB1, TC1), then the historical bytes (ISO/IEC
    /// 14443-4 §5.2). Nil when the ATS is shorter than T0 says.
    public static func historicalBytes(ats: [UInt8]) -> [UInt8]? { ISO14443Answers.historicalBytes(ats: ats) }

    /// A Type B card's eight historical bytes: the ATQB's application data (4) and protocol
    /// info (3), then the ATTRIB answer's MBLI and CID (`mbliCID`; 00 when not known).
    public static func historicalBytes(applicationData: [UInt8], protocolInfo: [UInt8], mbliCID: UInt8 = 0) -> [UInt8] {
        Array(applicationData.prefix(4)) + Array(protocolInfo.prefix(3)) + [mbliCID]
    }
}
