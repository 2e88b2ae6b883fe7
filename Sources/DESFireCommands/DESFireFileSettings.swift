import APDU

/// GetFileSettings' answer (MF3ICD40 data sheet, GetFileSettings): the file's type, how it
/// is communicated, its access rights, and its sizes. Multi-byte numbers are little-endian.
public struct DESFireFileSettings: Hashable, Sendable {
    /// The file type: byte 0 of the settings.
    public enum FileType: UInt8, Sendable, CaseIterable {
        /// Standard data file (00).
        case standard = 0x00
        /// Backup data file (01): writes take effect on CommitTransaction.
        case backup = 0x01
        /// Value file (02): a signed 32-bit value between a lower and an upper limit.
        case value = 0x02
        /// Linear record file (03): records are added until the file is full.
        case linearRecord = 0x03
        /// Cyclic record file (04): when full, a new record replaces the oldest.
        case cyclicRecord = 0x04

        /// The name a card image uses (`standard`, `backup`, `value`, `linear-record`, `cyclic-record`).
        public var name: String {
            switch self {
            case .standard: return "standard"
            case .backup: return "backup"
            case .value: return "value"
            case .linearRecord: return "linear-record"
            case .cyclicRecord: return "cyclic-record"
            }
        }
    }

    /// How the file's data travels: the low 2 bits of byte 1 of the settings.
    public enum Communication: UInt8, Sendable, CaseIterable {
        /// Plain (00): data in the clear.
        case plain = 0x00
        /// MACed (01): data in the clear, secured by a MAC.
        case maced = 0x01
        /// Fully enciphered (03).
        case enciphered = 0x03
    }

    /// Which key a kind of access needs: a key number 0…13, 14 (E) free, 15 (F) never.
    public struct AccessRights: Hashable, Sendable {
        /// Key for Read: the high nibble of the second byte.
        public let read: UInt8
        /// Key for Write: the low nibble of the second byte.
        public let write: UInt8
        /// Key for Read&Write: the high nibble of the first byte.
        public let readWrite: UInt8
        /// Key for changing the access rights (ChangeFileSettings): the low nibble of the first byte.
        public let change: UInt8

        /// From the 2 bytes as sent (little-endian 16 bits: RW and Change in the first byte's
        /// nibbles, Read and Write in the second's).
        public init(_ lo: UInt8, _ hi: UInt8) {
            readWrite = lo >> 4
            change = lo & 0x0F
            read = hi >> 4
            write = hi & 0x0F
        }

        /// The 2 bytes as sent, in the order ``init(_:_:)`` takes them.
        public var bytes: [UInt8] { [readWrite << 4 | change, read << 4 | write] }

        /// Free to read: read or read-write access is "free" (E).
        public var readIsFree: Bool { read == 0x0E || readWrite == 0x0E }
    }

    /// The fields after the access rights (from byte 4, little-endian), by file type.
    public enum Sizes: Hashable, Sendable {
        /// Standard and backup data files: the size in bytes.
        case data(size: Int)
        /// Value files: the limits, the limited-credit value and whether it is enabled.
        case value(lower: Int32, upper: Int32, limitedCredit: Int32, limitedCreditEnabled: Bool)
        /// Record files: one record's size, the most records, and how many there are now.
        case records(recordSize: Int, maxRecords: Int, currentRecords: Int)
    }

    /// The file type (byte 0).
    public let type: FileType
    /// The communication mode (byte 1).
    public let communication: Communication
    /// The access rights (bytes 2 and 3).
    public let access: AccessRights
    /// The sizes (byte 4 on).
    public let sizes: Sizes

    /// Whether reading needs a key (a free read still needs plain communication).
    public var readNeedsKey: Bool { !access.readIsFree }

    /// Settings from their parts.
    public init(type: FileType, communication: Communication, access: AccessRights, sizes: Sizes) {
        self.type = type
        self.communication = communication
        self.access = access
        self.sizes = sizes
    }

    /// Parses the answer: 7 bytes for a data file, 17 for a value file, 13 for a record file
    /// (EV2 cards may add bytes after these for extra access rights: they are refused, not guessed).
    public init(_ bytes: some Collection<UInt8>) throws(DESFireError) {
        let b = Array(bytes)
        guard b.count >= 4 else { throw .malformed(what: "file settings", reason: "\(b.count) bytes: at least 4 are needed") }
        guard let type = FileType(rawValue: b[0]) else {
            throw .malformed(what: "file settings", reason: "file type \(String(format2: b[0])) is not one of 00…04")
        }
        guard let comm = Communication(rawValue: b[1] & 0x03) else {
            throw .malformed(what: "file settings", reason: "communication mode \(String(format2: b[1])) is not 00, 01 or 03")
        }
        self.type = type
        communication = comm
        access = AccessRights(b[2], b[3])
        func le(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
        let expected: Int
        switch type {
        case .standard, .backup: expected = 7
        case .value: expected = 17
        case .linearRecord, .cyclicRecord: expected = 13
        }
        guard b.count == expected else {
            throw .malformed(what: "file settings", reason: "a \(type.name) file's settings are \(expected) bytes, not \(b.count)")
        }
        switch type {
        case .standard, .backup:
            sizes = .data(size: le(4, 3))
        case .value:
            sizes = .value(
                lower: Int32(truncatingIfNeeded: le(4, 4)), upper: Int32(truncatingIfNeeded: le(8, 4)),
                limitedCredit: Int32(truncatingIfNeeded: le(12, 4)), limitedCreditEnabled: b[16] & 1 == 1)
        case .linearRecord, .cyclicRecord:
            sizes = .records(recordSize: le(4, 3), maxRecords: le(7, 3), currentRecords: le(10, 3))
        }
    }

    /// The bytes again, as GetFileSettings answers them.
    public var bytes: [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var out = [type.rawValue, communication.rawValue] + access.bytes
        switch sizes {
        case .data(let size): out += le(size, 3)
        case .value(let lo, let up, let lc, let on): out += le(Int(lo), 4) + le(Int(up), 4) + le(Int(lc), 4) + [on ? 1 : 0]
        case .records(let size, let max, let current): out += le(size, 3) + le(max, 3) + le(current, 3)
        }
        return out
    }

    /// The command that reads this file's content: ReadData, GetValue or ReadRecords.
    public func readCommand(_ file: DESFireFileNumber) -> DESFireCommand {
        switch type {
        case .standard, .backup: return try! .readData(file)
        case .value: return .getValue(file)
        case .linearRecord, .cyclicRecord: return try! .readRecords(file)
        }
    }
}

extension DESFireFileSettings {
    /// GetValue's answer: a signed 32-bit little-endian value, exactly 4 bytes.
    public static func value(_ data: [UInt8]) throws(DESFireError) -> Int32 {
        guard data.count == 4 else { throw .malformed(what: "value", reason: "GetValue answers 4 bytes, not \(data.count)") }
        return Int32(bitPattern: UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
    }
}
