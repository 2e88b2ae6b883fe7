import APDU

/// A DESFire native command that reads without a key, and its ISO 7816-4 wrapping
/// `90 INS 00 00 [Lc data] 00` (NXP AN12752 / the MF3ICD40 data sheet's "ISO 7816-4 APDU
/// wrapping of native commands"). Commands that write, authenticate or change keys cannot
/// be made here.
public struct DESFireCommand: Hashable, Sendable, CustomStringConvertible {
    /// The native command code, sent as INS.
    public let instruction: DESFireInstruction
    /// The command's parameters, sent as the APDU's data (none: no Lc).
    public let data: [UInt8]

    init(_ instruction: DESFireInstruction, _ data: [UInt8] = []) {
        self.instruction = instruction
        self.data = data
    }

    /// GetVersion (60): hardware, software and production data, 28 bytes in 3 frames.
    public static let getVersion = DESFireCommand(.getVersion)
    /// GetApplicationIDs (6A): the card's application IDs, 3 bytes each.
    public static let getApplicationIDs = DESFireCommand(.getApplicationIDs)
    /// GetFileIDs (6F): the selected application's file numbers, one byte each.
    public static let getFileIDs = DESFireCommand(.getFileIDs)
    /// GetFreeMemory (6E): the free memory in bytes, 3 bytes little-endian (EV1).
    public static let getFreeMemory = DESFireCommand(.getFreeMemory)
    /// ADDITIONAL FRAME (AF): asks for the next part of an answer that ended `91 AF`.
    public static let additionalFrame = DESFireCommand(.additionalFrame)

    /// SelectApplication (5A): makes `aid` current (``DESFireAID/picc`` for the card level).
    public static func selectApplication(_ aid: DESFireAID) -> DESFireCommand { DESFireCommand(.selectApplication, aid.bytes) }
    /// GetFileSettings (F5): the settings of `file` in the selected application (``DESFireFileSettings``).
    public static func getFileSettings(_ file: DESFireFileNumber) -> DESFireCommand { DESFireCommand(.getFileSettings, [file.value]) }
    /// GetValue (6C): the value of value file `file`, 4 bytes signed little-endian.
    public static func getValue(_ file: DESFireFileNumber) -> DESFireCommand { DESFireCommand(.getValue, [file.value]) }

    /// ReadData: `length` bytes from `offset` (both 3 bytes little-endian; length 0 = to the end).
    public static func readData(_ file: DESFireFileNumber, offset: Int = 0, length: Int = 0) throws(DESFireError) -> DESFireCommand {
        DESFireCommand(.readData, [file.value] + (try le3(offset, "offset")) + (try le3(length, "length")))
    }

    /// ReadRecords: `count` records from record `offset` (0 = the newest; count 0 = all).
    public static func readRecords(_ file: DESFireFileNumber, offset: Int = 0, count: Int = 0) throws(DESFireError) -> DESFireCommand {
        DESFireCommand(.readRecords, [file.value] + (try le3(offset, "offset")) + (try le3(count, "count")))
    }

    static func le3(_ v: Int, _ what: String) throws(DESFireError) -> [UInt8] {
        guard (0...0xFF_FFFF).contains(v) else { throw .malformed(what: what, reason: "\(v) does not fit 3 bytes") }
        return [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16)]
    }

    /// The wrapped APDU: CLA 90, P1 P2 00 00, Lc and data when there is data, Le 00.
    public var apdu: CommandAPDU { CommandAPDU(cla: 0x90, ins: instruction.rawValue, p1: 0, p2: 0, data: data, le: 256) }

    /// The native command in a wrapped APDU, if `apdu` is one (CLA 90, P1 P2 00 00, Le 00).
    public init?(wrapped apdu: CommandAPDU) {
        guard apdu.cla == 0x90, apdu.p1 == 0, apdu.p2 == 0, apdu.le == 256 else { return nil }
        self.init(DESFireInstruction(rawValue: apdu.ins), apdu.data)
    }

    public var description: String { data.isEmpty ? instruction.description : "\(instruction) \(data.hexString)" }
}
