/// The status byte of a DESFire answer: the SW2 of `91 xx` when wrapped in ISO 7816-4
/// (MF3ICD40 data sheet §"Status and error codes").
public struct DESFireStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ok = Self(rawValue: 0x00)
    public static let noChanges = Self(rawValue: 0x0C)
    public static let outOfMemory = Self(rawValue: 0x0E)
    public static let illegalCommand = Self(rawValue: 0x1C)
    public static let integrityError = Self(rawValue: 0x1E)
    public static let noSuchKey = Self(rawValue: 0x40)
    public static let lengthError = Self(rawValue: 0x7E)
    public static let permissionDenied = Self(rawValue: 0x9D)
    public static let parameterError = Self(rawValue: 0x9E)
    public static let applicationNotFound = Self(rawValue: 0xA0)
    public static let applicationIntegrityError = Self(rawValue: 0xA1)
    public static let authenticationError = Self(rawValue: 0xAE)
    public static let additionalFrame = Self(rawValue: 0xAF)
    public static let boundaryError = Self(rawValue: 0xBE)
    public static let piccIntegrityError = Self(rawValue: 0xC1)
    public static let commandAborted = Self(rawValue: 0xCA)
    public static let piccDisabled = Self(rawValue: 0xCD)
    public static let countError = Self(rawValue: 0xCE)
    public static let duplicateError = Self(rawValue: 0xDE)
    public static let eepromError = Self(rawValue: 0xEE)
    public static let fileNotFound = Self(rawValue: 0xF0)
    public static let fileIntegrityError = Self(rawValue: 0xF1)

    /// Success, or "more frames follow".
    public var isSuccess: Bool { self == .ok || self == .additionalFrame }

    /// Whether the answer means "this needs a key" (the file or list is not free to read).
    public var needsKey: Bool { self == .authenticationError || self == .permissionDenied }

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
