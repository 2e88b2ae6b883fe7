import APDU
import CardProfiles
import FeliCaCommands

/// What is on a reader, typed: the technology it speaks and how it identified itself. A
/// detector (``PCSCDetector``, ``NFCDetector``, a transcript) produces it with a
/// ``CardConnection``; profiles of another technology are never tried on it.
public enum PresentedCard: Sendable, Equatable, CustomStringConvertible {
    /// An ISO 7816 card: contact, or contactless ISO 14443-4 (ISO 7816-4 APDUs).
    case iso7816(ISO7816Card)
    /// A FeliCa card (JIS X 6319-4), as Polling found it.
    case felica(FeliCaTarget)
    /// An NFC Forum Type 2 tag (MIFARE Ultralight, NTAG): pages, no APDUs.
    case type2Tag(uid: [UInt8]?)
    /// A MIFARE Classic card: sectors opened with keys (`sectors`: 5, 16, 32 or 40).
    case classic(uid: [UInt8]?, sectors: Int)

    /// How an ISO 7816 card identified itself.
    public struct ISO7816Card: Sendable, Equatable {
        /// The ATR (ISO/IEC 7816-3 §8), or a contactless reader's pseudo-ATR; through libnfc,
        /// the one a PC/SC reader makes from the ATS or ATQB (PC/SC part 3, `ContactlessATR`).
        public var atr: [UInt8]?
        /// `T=0` or `T=1` when a PC/SC reader negotiated one.
        public var transmissionProtocol: String?
        /// The ISO 14443-A UID, when the transport knows it.
        public var uid: [UInt8]?
        /// The ISO 14443-B PUPI, for a type B card found through libnfc.
        public var pupi: [UInt8]?

        /// What a transport knows of the card: ATR and protocol over PC/SC, UID through libnfc.
        public init(atr: [UInt8]? = nil, transmissionProtocol: String? = nil, uid: [UInt8]? = nil, pupi: [UInt8]? = nil) {
            self.atr = atr
            self.transmissionProtocol = transmissionProtocol
            self.uid = uid
            self.pupi = pupi
        }
    }

    /// The profile technology that reads it (a Type 2 tag: `ultralight` profiles).
    public var technology: Profile.Technology? {
        switch self {
        case .iso7816: return .iso7816
        case .felica: return .felica
        case .type2Tag: return .ultralight
        case .classic: return .classic
        }
    }

    /// `transcript` header value: `iso7816`, `felica`, `type2`.
    public var technologyName: String {
        switch self {
        case .iso7816: return "iso7816"
        case .felica: return "felica"
        case .type2Tag: return "type2"
        case .classic: return "classic"
        }
    }

    /// `FeliCa card, IDm 012E4CD01A2B3C4D, system 0003`, as verbose output names it.
    public var description: String {
        switch self {
        case .iso7816(let c):
            return "ISO 7816 card" + (c.atr.map { ", ATR \($0.hexString)" } ?? "")
                + (c.uid.map { ", ISO 14443-A, UID \($0.hexString)" } ?? "")
                + (c.pupi.map { ", ISO 14443-B, PUPI \($0.hexString)" } ?? "")
                + (c.transmissionProtocol.map { ", protocol \($0)" } ?? "")
        case .felica(let t): return "FeliCa card, \(t)"
        case .type2Tag(let uid): return "MIFARE Ultralight/NTAG (NFC Forum Type 2 tag)" + (uid.map { ", UID \($0.hexString)" } ?? "")
        case .classic(let uid, let sectors):
            let name = [5: "Mini", 16: "Classic 1K", 32: "Classic 2K", 40: "Classic 4K"][sectors] ?? "Classic"
            return "MIFARE \(name)" + (uid.map { ", UID \($0.hexString)" } ?? "")
        }
    }
}
