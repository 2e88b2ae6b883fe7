import APDU

/// The 8-byte manufacture ID a card answers Polling with (JIS X 6319-4 §7.4.2). The upper
/// nibble of byte 0 selects the system number when sent back in a command.
public struct IDm: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) throws(FeliCaError) { self.bytes = try eightBytes(bytes, "IDm") }
    public var description: String { bytes.compactHex }
}

/// The 8-byte manufacture parameter (PMm): IC type and the timing coefficients.
public struct PMm: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]
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
    public let value: UInt16
    public init(_ value: UInt16) { self.value = value }
    public static let wildcard = SystemCode(0xFFFF)
    public static let ndef = SystemCode(0x12FC)
    public var bigEndianBytes: [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public var description: String { Hex.format(value) }
}

/// A service code (JIS X 6319-4 §6.3): service number (bits 15-6) and attribute (bits 5-0),
/// sent little-endian. Bit 0 set means "no authentication needed".
public struct ServiceCode: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt16
    public init(_ value: UInt16) { self.value = value }
    public init(number: UInt16, attribute: UInt8) { value = number << 6 | UInt16(attribute & 0x3F) }

    public var number: UInt16 { value >> 6 }
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
    public let serviceIndex: Int
    public let blockNumber: UInt16
    public let accessMode: UInt8

    public init(serviceIndex: Int, blockNumber: UInt16, accessMode: UInt8 = 0) throws(FeliCaError) {
        guard (0...15).contains(serviceIndex) else { throw .invalidArgument("service index \(serviceIndex) is outside 0…15") }
        guard accessMode < 8 else { throw .invalidArgument("access mode \(accessMode) is outside 0…7") }
        self.serviceIndex = serviceIndex
        self.blockNumber = blockNumber
        self.accessMode = accessMode
    }

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
