/// A MIFARE DESFire native command code (NXP MF3ICD40 / EV1 data sheets; the ISO 7816-4
/// wrapping carries it as the INS byte of `90 INS 00 00 [Lc data] 00`).
///
/// Only the commands that read without a key are constructible by ``DESFireCommand``; the
/// others are named here so a refusal can say what it refused (``isReadOnly``).
public struct DESFireInstruction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// GetVersion (60): hardware, software and production data.
    public static let getVersion = Self(rawValue: 0x60)
    /// GetApplicationIDs (6A): the application IDs on the card.
    public static let getApplicationIDs = Self(rawValue: 0x6A)
    /// SelectApplication (5A): selects an application, or the card level.
    public static let selectApplication = Self(rawValue: 0x5A)
    /// GetFileIDs (6F): the file numbers of the selected application.
    public static let getFileIDs = Self(rawValue: 0x6F)
    /// GetFileSettings (F5): one file's settings.
    public static let getFileSettings = Self(rawValue: 0xF5)
    /// ReadData (BD): bytes of a standard or backup data file.
    public static let readData = Self(rawValue: 0xBD)
    /// ReadRecords (BB): records of a linear or cyclic record file.
    public static let readRecords = Self(rawValue: 0xBB)
    /// GetValue (6C): a value file's value.
    public static let getValue = Self(rawValue: 0x6C)
    /// GetFreeMemory (6E): the free memory (EV1).
    public static let getFreeMemory = Self(rawValue: 0x6E)
    /// GetKeySettings (45): the key settings and maximum number of keys of the card or selected application.
    public static let getKeySettings = Self(rawValue: 0x45)
    /// GetKeyVersion (64): the version of one key.
    public static let getKeyVersion = Self(rawValue: 0x64)
    /// GetDFNames (6D): the ISO DF names of the applications (EV1).
    public static let getDFNames = Self(rawValue: 0x6D)
    /// ADDITIONAL FRAME: the next part of an answer that ended `91 AF`.
    public static let additionalFrame = Self(rawValue: 0xAF)

    /// Commands that only read, by code, with their data-sheet names.
    public static let reads: [UInt8: String] = [
        0x60: "GetVersion", 0x6A: "GetApplicationIDs", 0x5A: "SelectApplication", 0x6F: "GetFileIDs",
        0xF5: "GetFileSettings", 0xBD: "ReadData", 0xBB: "ReadRecords", 0x6C: "GetValue", 0x6E: "GetFreeMemory",
        0x45: "GetKeySettings", 0x64: "GetKeyVersion", 0x6D: "GetDFNames", 0xAF: "AdditionalFrame",
    ]

    /// Commands that write, authenticate or change keys and settings: never sent from a profile.
    public static let changing: [UInt8: String] = [
        0x0C: "Credit", 0xDC: "Debit", 0x1C: "LimitedCredit", 0x3D: "WriteData", 0x3B: "WriteRecord",
        0xEB: "ClearRecordFile", 0xC7: "CommitTransaction", 0xA7: "AbortTransaction", 0x0A: "Authenticate",
        0x1A: "AuthenticateISO", 0xAA: "AuthenticateAES", 0xC4: "ChangeKey", 0x54: "ChangeKeySettings",
        0x5F: "ChangeFileSettings", 0xCA: "CreateApplication", 0xDA: "DeleteApplication", 0xCD: "CreateStdDataFile",
        0xCB: "CreateBackupDataFile", 0xCC: "CreateValueFile", 0xC1: "CreateLinearRecordFile",
        0xC0: "CreateCyclicRecordFile", 0xDF: "DeleteFile", 0xFC: "FormatPICC", 0x5C: "SetConfiguration",
    ]

    /// Whether the command only reads: its code is in ``reads`` (ADDITIONAL FRAME included).
    /// Unknown codes are not.
    public var isReadOnly: Bool { Self.reads[rawValue] != nil }

    public var description: String {
        let name = Self.reads[rawValue] ?? Self.changing[rawValue] ?? "command"
        return "\(name) (\(String(rawValue, radix: 16, uppercase: true)))"
    }
}
