import APDU

/// The 8-byte manufacture ID a card answers Polling with (JIS X 6319-4 §7.4.2). The upper
/// nibble of byte 0 selects the system number when sent back in a command.
public struct IDm: Hashable, Sendable, CustomStringConvertible {
    /// The 8 bytes.
    public let bytes: [UInt8]
    /// From exactly 8 bytes; another count throws ``FeliCaError/badLength(field:expected:actual:)``.
    public init(_ bytes: [UInt8]) throws(FeliCaError) { self.bytes = try eightBytes(bytes, "IDm") }
    public var description: String { bytes.compactHex }
}

/// The 8-byte manufacture parameter (PMm): IC type and the timing coefficients.
public struct PMm: Hashable, Sendable, CustomStringConvertible {
    /// The 8 bytes.
    public let bytes: [UInt8]
    /// From exactly 8 bytes; another count throws ``FeliCaError/badLength(field:expected:actual:)``.
    public init(_ bytes: [UInt8]) throws(FeliCaError) { self.bytes = try eightBytes(bytes, "PMm") }
    public var description: String { bytes.compactHex }
}

/// IDm and PMm are both exactly 8 bytes.
private func eightBytes(_ bytes: [UInt8], _ field: String) throws(FeliCaError) -> [UInt8] {
    guard bytes.count == 8 else { throw .badLength(field: field, expected: 8, actual: bytes.count) }
    return bytes
}

/// A system code, sent big-endian in Polling (`80 08` is Octopus, `00 03` CJRC transit,
/// `12 FC` NFC Forum Type 3, `FF FF` any).
public struct SystemCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as a number (`0x0003`).
    public let value: UInt16
    /// The system code `value`.
    public init(_ value: UInt16) { self.value = value }
    /// `FF FF`: in Polling, matches any system.
    public static let wildcard = SystemCode(0xFFFF)
    /// `12 FC`: the NDEF system of an NFC Forum Type 3 tag.
    public static let ndef = SystemCode(0x12FC)
    /// The two bytes as Polling sends them, high byte first.
    public var bigEndianBytes: [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public var description: String { Hex.format(value) }
}

/// A service code (JIS X 6319-4 §6.3): service number (bits 15-6) and attribute (bits 5-0),
/// sent little-endian. Bit 0 set means "no authentication needed".
public struct ServiceCode: Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit code (`0x008B`).
    public let value: UInt16
    /// The service code `value`.
    public init(_ value: UInt16) { self.value = value }
    /// From a 10-bit service number and a 6-bit attribute (`number << 6 | attribute`); bits
    /// beyond those widths are dropped.
    public init(number: UInt16, attribute: UInt8) { value = number << 6 | UInt16(attribute & 0x3F) }

    /// The service number: bits 15-6.
    public var number: UInt16 { value >> 6 }
    /// The attribute: bits 5-0, the kind of service and whether it needs a key.
    public var attribute: UInt8 { UInt8(value & 0x3F) }
    /// The documented "with key" attributes (08, 0A, … 16: bit 0 clear). Attributes outside
    /// that table (Shenzhen Tong's purse 0118 has 18) are not assumed to need a key.
    public var needsAuthentication: Bool { (0x08...0x17).contains(attribute) && attribute & 1 == 0 }
    /// The two bytes as sent: little-endian.
    public var packed: [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    static let attributeNames: [UInt8: String] = [
        0x08: "Random RW with key", 0x09: "Random RW w/o key", 0x0A: "Random RO with key", 0x0B: "Random RO w/o key",
        0x0C: "Cyclic RW with key", 0x0D: "Cyclic RW w/o key", 0x0E: "Cyclic RO with key", 0x0F: "Cyclic RO w/o key",
        0x10: "Purse Direct with key", 0x11: "Purse Direct w/o key", 0x12: "Purse Cashback with key", 0x13: "Purse Cashback w/o key",
        0x14: "Purse Decrement with key", 0x15: "Purse Decrement w/o key", 0x16: "Purse Read Only with key",
        0x17: "Purse Read Only w/o key",
    ]

    /// The attribute in words: `Random RO w/o key`, `Purse Direct with key`, or `Type 18`
    /// for one outside the documented table.
    public var attributeName: String { Self.attributeNames[attribute] ?? "Type \(String(attribute, radix: 16))" }

    /// `Service Code 008Bh (Random RO w/o key)`.
    public var description: String { "Service Code \(Hex.format(value))h (\(attributeName))" }
}

/// One element of a block list (JIS X 6319-4 §7.4.7): which service (its index in the
/// command's service list), which block, the access mode. Block numbers under 256 use the
/// 2-byte form (`1aaa ssss` + block); others the 3-byte form with the number little-endian,
/// as nfcpy does (libnfc's nfc-read-forum-tag3 writes it high byte first; see
/// docs/felica.md).
public struct BlockListElement: Hashable, Sendable {
    /// The service's index in the command's service code list, 0…15.
    public let serviceIndex: Int
    /// The block number within that service.
    public let blockNumber: UInt16
    /// The access mode, 3 bits (0…7); 0 by default.
    public let accessMode: UInt8

    /// Block `blockNumber` of the service at `serviceIndex`; throws ``FeliCaError/invalidArgument(_:)``
    /// for a service index outside 0…15 or an access mode outside 0…7.
    public init(serviceIndex: Int, blockNumber: UInt16, accessMode: UInt8 = 0) throws(FeliCaError) {
        guard (0...15).contains(serviceIndex) else { throw .invalidArgument("service index \(serviceIndex) is outside 0…15") }
        guard accessMode < 8 else { throw .invalidArgument("access mode \(accessMode) is outside 0…7") }
        self.serviceIndex = serviceIndex
        self.blockNumber = blockNumber
        self.accessMode = accessMode
    }

    /// The element as sent: 2 bytes (`1aaa ssss`, block) for a block under 256, else 3
    /// (`0aaa ssss`, then the block number little-endian).
    public var packed: [UInt8] {
        let head = (accessMode & 7) << 4 | UInt8(serviceIndex & 0x0F)
        if blockNumber < 256 { return [0x80 | head, UInt8(blockNumber)] }
        return [head, UInt8(blockNumber & 0xFF), UInt8(blockNumber >> 8)]
    }
}

extension SystemCode: ExpressibleByIntegerLiteral {
    /// `0x0003` where a system code is expected.
    public init(integerLiteral value: UInt16) { self.init(value) }
}
