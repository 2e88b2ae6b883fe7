/// The status byte of a DESFire answer: the SW2 of `91 xx` when wrapped in ISO 7816-4
/// (MF3ICD40 data sheet §"Status and error codes").
public struct DESFireStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `91 00`: operation OK.
    public static let ok = Self(rawValue: 0x00)
    /// `91 0C`: no changes done to backup files; CommitTransaction or AbortTransaction not needed.
    public static let noChanges = Self(rawValue: 0x0C)
    /// `91 0E`: not enough EEPROM (non-volatile memory) to complete the command.
    public static let outOfMemory = Self(rawValue: 0x0E)
    /// `91 1C`: command code not supported.
    public static let illegalCommand = Self(rawValue: 0x1C)
    /// `91 1E`: integrity error: the CRC or MAC does not match the data, or the padding is wrong.
    public static let integrityError = Self(rawValue: 0x1E)
    /// `91 40`: the key number given does not exist.
    public static let noSuchKey = Self(rawValue: 0x40)
    /// `91 7E`: the command's length is wrong.
    public static let lengthError = Self(rawValue: 0x7E)
    /// `91 9D`: permission denied: the configuration or status does not allow the command
    /// (e.g. the access rights need a key).
    public static let permissionDenied = Self(rawValue: 0x9D)
    /// `91 9E`: a parameter value is invalid.
    public static let parameterError = Self(rawValue: 0x9E)
    /// `91 A0`: the application asked for is not on the card.
    public static let applicationNotFound = Self(rawValue: 0xA0)
    /// `91 A1`: unrecoverable error within the application, which will be disabled.
    public static let applicationIntegrityError = Self(rawValue: 0xA1)
    /// `91 AE`: the current authentication does not allow the command (a key is needed).
    public static let authenticationError = Self(rawValue: 0xAE)
    /// `91 AF`: more frames follow; send ADDITIONAL FRAME.
    public static let additionalFrame = Self(rawValue: 0xAF)
    /// `91 BE`: boundary error: reading or writing past the end of a file or record, or past
    /// a value file's limits.
    public static let boundaryError = Self(rawValue: 0xBE)
    /// `91 C1`: unrecoverable error within the PICC, which will be disabled.
    public static let piccIntegrityError = Self(rawValue: 0xC1)
    /// `91 CA`: the previous command was not completed (not all its frames were asked for or given).
    public static let commandAborted = Self(rawValue: 0xCA)
    /// `91 CD`: the PICC was disabled by an unrecoverable error.
    public static let piccDisabled = Self(rawValue: 0xCD)
    /// `91 CE`: count error: the card already holds 28 applications (CreateApplication).
    public static let countError = Self(rawValue: 0xCE)
    /// `91 DE`: a file or application with that number already exists.
    public static let duplicateError = Self(rawValue: 0xDE)
    /// `91 EE`: a non-volatile memory write could not complete (e.g. power lost); the card's
    /// backup/rollback mechanism took over.
    public static let eepromError = Self(rawValue: 0xEE)
    /// `91 F0`: the file number does not exist.
    public static let fileNotFound = Self(rawValue: 0xF0)
    /// `91 F1`: unrecoverable error within the file, which will be disabled.
    public static let fileIntegrityError = Self(rawValue: 0xF1)

    /// Success, or "more frames follow".
    public var isSuccess: Bool { self == .ok || self == .additionalFrame }

    /// Whether the answer means "this needs a key" (the file or list is not free to read).
    public var needsKey: Bool { self == .authenticationError || self == .permissionDenied }

    /// The status in words (`file not found`), or `unknown status` for a code not listed.
    public var meaning: String {
        switch rawValue {
        case 0x00: return "operation OK"
        case 0x0C: return "no changes"
        case 0x0E: return "out of EEPROM memory"
        case 0x1C: return "illegal command code"
        case 0x1E: return "integrity error (CRC or MAC)"
        case 0x40: return "no such key"
        case 0x7E: return "length error"
        case 0x9D: return "permission denied"
        case 0x9E: return "parameter error"
        case 0xA0: return "application not found"
        case 0xA1: return "application integrity error"
        case 0xAE: return "authentication error (a key is needed)"
        case 0xAF: return "additional frame expected"
        case 0xBE: return "boundary error (past the end of the file)"
        case 0xC1: return "PICC integrity error"
        case 0xCA: return "command aborted"
        case 0xCD: return "PICC disabled"
        case 0xCE: return "count error"
        case 0xDE: return "duplicate error"
        case 0xEE: return "EEPROM error"
        case 0xF0: return "file not found"
        case 0xF1: return "file integrity error"
        default: return "unknown status"
        }
    }

    public var description: String { "91 \(String(format2: rawValue)): \(meaning)" }
}

extension String {
    /// Two upper-case hex digits.
    init(format2 byte: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
