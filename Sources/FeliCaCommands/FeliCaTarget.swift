/// A FeliCa card as Polling found it (JIS X 6319-4 §7.4.2): its IDm, its PMm, and the system
/// code it answered for. Every transport produces one (libnfc's target info, a PC/SC reader's
/// Polling pseudo-APDU, a transcript's `idm`/`pmm`/`system-code` headers), so nothing slices
/// the 18 bytes by hand.
public struct FeliCaTarget: Hashable, Sendable, CustomStringConvertible {
    /// The IDm the system answered with; commands to that system carry it.
    public let idm: IDm
    /// The card's PMm.
    public let pmm: PMm
    /// The system code the card answered for.
    public let systemCode: SystemCode

    /// A target from its parts.
    public init(idm: IDm, pmm: PMm, systemCode: SystemCode) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
    }

    /// From the 18 bytes IDm (8) + PMm (8) + system code (2, big-endian); nothing may follow.
    public init(bytes: [UInt8]) throws(FeliCaError) {
        guard bytes.count == 18 else {
            throw .badLength(field: "Polling answer (IDm, PMm, system code)", expected: 18, actual: bytes.count)
        }
        self.init(
            idm: try IDm(Array(bytes[0..<8])), pmm: try PMm(Array(bytes[8..<16])),
            systemCode: SystemCode(UInt16(bytes[16]) << 8 | UInt16(bytes[17])))
    }

    /// From a Polling response: the system code it carries (request code 1), else the one asked for.
    public init(_ polling: FeliCaResponse.Polling, requested: SystemCode) {
        self.init(idm: polling.idm, pmm: polling.pmm, systemCode: polling.systemCode ?? requested)
    }

    /// IDm + PMm + system code: the answer of a profile's `poll` step, as fields read it.
    public var bytes: [UInt8] { idm.bytes + pmm.bytes + systemCode.bigEndianBytes }

    /// `IDm 012E4CD01A2B3C4D, system 0003`.
    public var description: String { "IDm \(idm), system \(systemCode)" }
}

/// Polling for one system code through whatever carries the frames: the card's answer, or
/// nil when no system with that code answers.
public typealias FeliCaPoller = (SystemCode) throws -> FeliCaTarget?
