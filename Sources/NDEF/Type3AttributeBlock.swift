/// The Attribute Information Block of an NFC Forum Type 3 Tag (T3T 1.0 §7.1): block 0 of
/// service 0x000B, 16 bytes, with a checksum over bytes 0-13.
public struct Type3AttributeBlock: Hashable, Sendable {
    /// Ver, byte 0: the mapping version, major in the high nibble (only 1 is parsed); 0x10 is 1.0.
    public var version: UInt8
    /// Blocks per Check (read) and per Update (write) command.
    public var nbr: UInt8
    /// Nbw: the most blocks one Update (Write Without Encryption) may write.
    public var nbw: UInt8
    /// Blocks available for NDEF data (capacity = nmaxb × 16).
    public var nmaxb: UInt16
    /// 0x0F while a write is in progress.
    public var writeFlag: UInt8
    /// 0x00 read-only, 0x01 read/write.
    public var rwFlag: UInt8
    /// The NDEF message length in bytes (24-bit).
    public var ln: Int

    /// A block of these fields, as they are: nothing is checked; ``encoded`` adds the checksum.
    public init(version: UInt8 = 0x10, nbr: UInt8, nbw: UInt8, nmaxb: UInt16, writeFlag: UInt8 = 0, rwFlag: UInt8, ln: Int) {
        self.version = version
        self.nbr = nbr
        self.nbw = nbw
        self.nmaxb = nmaxb
        self.writeFlag = writeFlag
        self.rwFlag = rwFlag
        self.ln = ln
    }

    /// Parses block 0's 16 bytes, checking the checksum, mapping version 1.x, Nbr > 0 and
    /// that Ln fits in Nmaxb × 16 bytes.
    public init(parsing b: [UInt8]) throws(NDEFError) {
        guard b.count == 16 else { throw .malformedPayload("an attribute block is 16 bytes, not \(b.count)") }
        let sum = b[0..<14].reduce(0) { $0 + Int($1) }
        let stored = Int(b[14]) << 8 | Int(b[15])
        guard sum == stored else { throw .malformedPayload("attribute block checksum is \(stored), the bytes add up to \(sum)") }
        guard b[0] >> 4 == 1 else { throw .malformedPayload("unsupported Type 3 mapping version \(b[0] >> 4).\(b[0] & 0x0F)") }
        version = b[0]
        nbr = b[1]
        nbw = b[2]
        nmaxb = UInt16(b[3]) << 8 | UInt16(b[4])
        writeFlag = b[9]
        rwFlag = b[10]
        ln = Int(b[11]) << 16 | Int(b[12]) << 8 | Int(b[13])
        guard nbr > 0 else { throw .malformedPayload("Nbr is 0") }
        guard ln <= Int(nmaxb) * 16 else { throw .malformedPayload("Ln \(ln) exceeds the \(Int(nmaxb) * 16)-byte NDEF area") }
    }

    /// Block 0's 16 bytes: the fields, reserved bytes 5–8 zero, and in bytes 14–15 the
    /// checksum (the sum of bytes 0–13, big-endian).
    public var encoded: [UInt8] {
        var b: [UInt8] = [
            version, nbr, nbw, UInt8(nmaxb >> 8), UInt8(nmaxb & 0xFF), 0, 0, 0, 0, writeFlag, rwFlag,
            UInt8(ln >> 16 & 0xFF), UInt8(ln >> 8 & 0xFF), UInt8(ln & 0xFF),
        ]
        let sum = b.reduce(0) { $0 + Int($1) }
        b += [UInt8(sum >> 8 & 0xFF), UInt8(sum & 0xFF)]
        return b
    }

    /// Blocks to read after block 0 to get the message.
    public var dataBlocks: Int { (ln + 15) / 16 }

    /// Read/write when RWFlag is 01, else read-only; capacity Nmaxb × 16 bytes.
    public var status: NDEFStatus {
        NDEFStatus(access: rwFlag == 0x01 ? .readWrite : .readOnly, capacity: Int(nmaxb) * 16)
    }
}
