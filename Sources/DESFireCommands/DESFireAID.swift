import APDU

/// A DESFire application identifier: the 3 bytes sent after SelectApplication (5A), in that
/// order (NXP's tools show them reversed). `00 00 00` is the PICC level (the card itself).
public struct DESFireAID: Hashable, Sendable, CustomStringConvertible {
    /// The 3 bytes, in the order SelectApplication sends them.
    public let bytes: [UInt8]

    /// `00 00 00`: the PICC level (the card itself), not an application.
    public static let picc = DESFireAID(unchecked: [0, 0, 0])

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// From exactly 3 bytes, in the order sent; any other count throws
    /// ``DESFireError/malformed(what:reason:)``.
    public init(_ bytes: some Collection<UInt8>) throws(DESFireError) {
        guard bytes.count == 3 else {
            throw .malformed(what: "application ID", reason: "an application ID is 3 bytes, not \(bytes.count)")
        }
        self.bytes = Array(bytes)
    }

    /// From hex: `3010F2`.
    public init(hex: String) throws(DESFireError) {
        guard let b = try? Hex.parse(hex) else { throw .malformed(what: "application ID", reason: "'\(hex)' is not hex") }
        try self.init(b)
    }

    /// As a number, the way Metrodroid writes them (`0x3010F2`).
    public var value: UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }

    public var description: String { bytes.compactHex }

    /// The list GetApplicationIDs answers: 3 bytes per application, nothing left over.
    public static func list(_ data: [UInt8]) throws(DESFireError) -> [DESFireAID] {
        guard data.count % 3 == 0 else {
            throw .malformed(what: "application list", reason: "\(data.count) bytes is not a whole number of 3-byte IDs")
        }
        return stride(from: 0, to: data.count, by: 3).map { DESFireAID(unchecked: Array(data[$0..<($0 + 3)])) }
    }
}

/// A file number inside an application: 0…31 (EV1).
public struct DESFireFileNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file number, 0…31.
    public let value: UInt8

    /// From a number 0…31; anything else throws ``DESFireError/malformed(what:reason:)``.
    public init(_ value: Int) throws(DESFireError) {
        guard (0...31).contains(value) else { throw .malformed(what: "file number", reason: "\(value) is not 0…31") }
        self.value = UInt8(value)
    }

    init(unchecked value: UInt8) { self.value = value }

    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
    public var description: String { String(value) }

    /// The list GetFileIDs answers: one byte per file, each 0…31.
    public static func list(_ data: [UInt8]) throws(DESFireError) -> [DESFireFileNumber] {
        try data.map { b throws(DESFireError) in try DESFireFileNumber(Int(b)) }
    }
}
