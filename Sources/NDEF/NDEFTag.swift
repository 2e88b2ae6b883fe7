import APDU
import FeliCaCommands

/// An NFC Forum tag, whichever transport found it, as an exchange that speaks its commands:
/// Type 2 (READ/WRITE of pages), Type 3 (FeliCa frames to the NDEF system 12FC) or Type 4
/// (ISO 7816 APDUs to the NDEF application). Reads and writes go through ``NDEFTags``.
public enum NDEFTag {
    /// A Type 2 tag: the exchange takes the tag's READ (`30 pp`) and WRITE (`A2 pp d0…d3`).
    case type2(CardExchange)
    /// A Type 3 (FeliCa) tag: the exchange takes FeliCa frames, length byte first; `idm` is
    /// the card's IDm, which every command names.
    case type3(CardExchange, idm: IDm)
    /// A Type 4 tag: the exchange takes ISO 7816-4 APDUs (SELECT, READ and UPDATE BINARY).
    case type4(CardExchange)
    /// A MIFARE Classic card formatted for NDEF (NXP AN1304): the exchange takes the PN532's
    /// AUTHENTICATE and READ frames; `uid` is what AUTHENTICATE carries.
    case classic(CardExchange, uid: [UInt8], sectors: Int)

    /// `type2`, `type3`, `type4`: as the JSON output names it.
    public var name: String {
        switch self {
        case .type2: return "type2"
        case .type3: return "type3"
        case .type4: return "type4"
        case .classic: return "mifare-classic"
        }
    }

    /// The tag's NDEF status and message (nil when it holds none).
    public func read() throws -> (NDEFStatus, NDEFMessage?) {
        switch self {
        case .type2(let x): return try NDEFTags.readType2(x)
        case .type3(let x, let idm): return try NDEFTags.readType3(x, idm: idm.bytes)
        case .type4(let x): return try NDEFTags.readType4(x)
        case .classic(let x, let uid, let sectors): return try ClassicNDEF.read(x, uid: uid, sectors: sectors)
        }
    }

    /// Writes `message` (after checking the tag takes it), then reads it back and compares.
    public func write(_ message: NDEFMessage) throws {
        switch self {
        case .type2(let x): try NDEFTags.writeType2(x, message: message)
        case .type3(let x, let idm): try NDEFTags.writeType3(x, idm: idm.bytes, message: message)
        case .type4(let x): try NDEFTags.writeType4(x, message: message)
        case .classic(let x, let uid, let sectors): try ClassicNDEF.write(x, uid: uid, sectors: sectors, message: message)
        }
    }
}
