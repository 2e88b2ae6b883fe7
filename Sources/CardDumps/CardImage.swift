import APDU
import DESFireCommands
import FeliCaCommands
import Foundation

/// One card as cardscan keeps it: an image of one technology (docs/lab.md, docs/felica.md,
/// docs/dump-formats.md §3), whatever tool the bytes came from.
public enum CardImage: Sendable {
    /// An ISO 7816 card's file system and fixed answers.
    case iso7816(ISO7816CardImage)
    /// A FeliCa card's systems, services and blocks.
    case felica(FeliCaCardImage)
    /// A MIFARE DESFire card's applications and files.
    case desfire(DESFireCardImage)
    /// A MIFARE Classic card's sectors and keys.
    case classic(ClassicCardImage)
    /// A MIFARE Ultralight or NTAG card's pages.
    case ultralight(UltralightCardImage)

    /// `iso7816`, `felica`, `desfire`, `classic` or `ultralight`.
    public var technology: String {
        switch self {
        case .iso7816: return "iso7816"
        case .felica: return "felica"
        case .desfire: return "desfire"
        case .classic: return "classic"
        case .ultralight: return "ultralight"
        }
    }

    /// The card's identifier in compact hex (UID, IDm), for a file name; empty when the image
    /// has none (an ISO 7816 image keeps no UID).
    public var identifier: String {
        let text: String
        switch self {
        case .iso7816: text = ""
        case .felica(let f): text = f.idm
        case .desfire(let d): text = d.uid
        case .classic(let c): text = c.uid
        case .ultralight(let u): text = u.uid
        }
        return ((try? Hex.parse(text)) ?? []).compactHex
    }

    /// Checks the image as cardsim would before serving it; the error names the place.
    public func validate() throws {
        switch self {
        case .iso7816(let i): _ = try i.contents()
        case .felica(let f): _ = try f.contents()
        case .desfire(let d): _ = try d.contents()
        case .classic(let c): _ = try c.contents()
        case .ultralight(let u): _ = try u.contents()
        }
    }

    /// The image as pretty-printed JSON, keys sorted, ending in a newline (as `cardscan dump
    /// --image` writes its images).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch self {
        case .iso7816(let i): data = try? encoder.encode(i)
        case .felica(let f): data = try? encoder.encode(f)
        case .desfire(let d): data = try? encoder.encode(d)
        case .classic(let c): data = try? encoder.encode(c)
        case .ultralight(let u): data = try? encoder.encode(u)
        }
        return String(decoding: data ?? Data(), as: UTF8.self) + "\n"
    }

    /// The cardscan image in `text` (JSON with a `technology`), or nil when it is none.
    public static func decode(_ text: [UInt8]) throws -> CardImage? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any],
            let technology = object["technology"] as? String
        else { return nil }
        let d = JSONDecoder(), data = Data(text)
        switch technology {
        case "iso7816": return .iso7816(try d.decode(ISO7816CardImage.self, from: data))
        case "felica": return .felica(try d.decode(FeliCaCardImage.self, from: data))
        case "desfire": return .desfire(try d.decode(DESFireCardImage.self, from: data))
        case "classic": return .classic(try d.decode(ClassicCardImage.self, from: data))
        case "ultralight": return .ultralight(try d.decode(UltralightCardImage.self, from: data))
        default: return nil
        }
    }
}

/// A dump that could not be imported: the file, the place in it (a JSON path such as
/// `mifareDesfire.applications.1193046.files.1.settings`, or `line 12`), and what is wrong.
public struct DumpError: UserFacingError, Equatable {
    /// The file, as given.
    public var file: String
    /// Where in the file, when it can be said.
    public var place: String?
    /// What is wrong.
    public var reason: String
    /// A problem at `place` of `file`.
    public init(file: String, place: String? = nil, reason: String) {
        self.file = file
        self.place = place
        self.reason = reason
    }
    /// `FILE: PLACE: REASON`.
    public var message: String { "\(file): " + (place.map { "\($0): " } ?? "") + reason }
    /// Where the formats are described.
    public var hint: String? { "docs/dump-formats.md describes the formats cardscan imports" }
}
