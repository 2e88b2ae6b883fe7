import APDU

/// GetVersion's answer, 28 bytes over three frames (MF3ICD40 data sheet, GetVersion):
/// hardware (7), software (7), then the UID (7), batch number (5), production week and year.
public struct DESFireVersion: Hashable, Sendable {
    /// Vendor, type, subtype, major, minor, storage size, protocol.
    public struct Part: Hashable, Sendable {
        /// Vendor ID (`04`: NXP).
        public let vendor: UInt8
        /// Product type (`01`: MIFARE DESFire).
        public let type: UInt8
        /// Product subtype.
        public let subtype: UInt8
        /// Major version (the hardware's gives ``DESFireVersion/generation``).
        public let major: UInt8
        /// Minor version.
        public let minor: UInt8
        /// 2^(n/2) bytes; an odd n means "between 2^((n-1)/2) and 2^((n+1)/2)".
        public let storageSize: UInt8
        /// Communication protocol type (`05`: ISO/IEC 14443).
        public let protocolType: UInt8
    }

    /// The hardware part (bytes 0–6).
    public let hardware: Part
    /// The software part (bytes 7–13).
    public let software: Part
    /// The 7-byte UID (bytes 14–20).
    public let uid: [UInt8]
    /// The 5-byte production batch number (bytes 21–25).
    public let batch: [UInt8]
    /// Production week and year, BCD (e.g. `12`, `19` for week 12 of 2019).
    public let productionWeek: UInt8
    /// Production year, BCD, last two digits (`19` for 2019; byte 27).
    public let productionYear: UInt8

    /// Parses exactly 28 bytes; anything shorter or longer is malformed.
    public init(_ bytes: some Collection<UInt8>) throws(DESFireError) {
        let b = Array(bytes)
        guard b.count == 28 else { throw .malformed(what: "version", reason: "GetVersion answers 28 bytes, not \(b.count)") }
        func part(_ at: Int) -> Part {
            Part(
                vendor: b[at], type: b[at + 1], subtype: b[at + 2], major: b[at + 3], minor: b[at + 4], storageSize: b[at + 5],
                protocolType: b[at + 6])
        }
        hardware = part(0)
        software = part(7)
        uid = Array(b[14..<21])
        batch = Array(b[21..<26])
        productionWeek = b[26]
        productionYear = b[27]
    }

    /// The bytes again, in GetVersion's order.
    public var bytes: [UInt8] {
        func p(_ x: Part) -> [UInt8] { [x.vendor, x.type, x.subtype, x.major, x.minor, x.storageSize, x.protocolType] }
        return p(hardware) + p(software) + uid + batch + [productionWeek, productionYear]
    }

    /// The EEPROM size the hardware part says, in bytes (the lower bound for an odd code).
    public var storageBytes: Int { 1 << Int(min(hardware.storageSize >> 1, 30)) }

    /// "EV1", "EV2", "EV3" or "MF3ICD40" from the hardware major version.
    public var generation: String {
        switch hardware.major {
        case 0x00: return "MF3ICD40"
        case 0x01: return "EV1"
        case 0x12: return "EV2"
        case 0x33: return "EV3"
        default: return "version \(hardware.major)"
        }
    }
}
