import APDU
import CardReports
import DESFireCommands
import FeliCaCommands

/// Writes cardscan images in other tools' formats (docs/dump-formats.md), where the format can
/// hold the card. What a format cannot hold (an unknown byte in a raw image) is named in the
/// warnings.
public enum DumpExport {
    /// Why an image could not be written in a format.
    public struct Refusal: UserFacingError, Equatable {
        /// What is missing or cannot be said.
        public let reason: String
        /// What is missing or cannot be said.
        public var message: String { reason }
        /// Which formats hold which cards.
        public var hint: String? { "docs/dump-formats.md §1 says which formats hold which cards" }
    }

    /// The formats `cardscan export` writes.
    public enum Format: String, Sendable, CaseIterable {
        /// Metrodroid's JSON card file (every technology).
        case metrodroid
        /// Proxmark3's JSON (`mfc v2` for Classic, `mfu` for Ultralight).
        case proxmark3
        /// Flipper Zero's `.nfc` (Classic, Ultralight, DESFire).
        case flipper
        /// A raw image (`.mfd`: Classic; the pages of an Ultralight).
        case mfd
        /// MIFARE Classic Tool's `.mct` (Classic).
        case mct
    }

    /// `image` as the bytes of a `format` file, and what it could not keep.
    public static func bytes(_ image: CardImage, as format: Format) throws(Refusal) -> (bytes: [UInt8], warnings: [String]) {
        var warnings: [String] = []
        let warn = { (w: String) in warnings.append(w) }
        let out: [UInt8]
        switch (format, image) {
        case (.metrodroid, _): out = Array(try MetrodroidExport.json(image, warn: warn).serialized(pretty: true).utf8) + [0x0A]
        case (.proxmark3, .classic(let c)): out = Array(try Proxmark3Export.classic(c, warn: warn).serialized(pretty: true).utf8) + [0x0A]
        case (.proxmark3, .ultralight(let u)):
            out = Array(try Proxmark3Export.ultralight(u, warn: warn).serialized(pretty: true).utf8) + [0x0A]
        case (.flipper, .classic(let c)): out = Array(try FlipperExport.classic(c).utf8)
        case (.flipper, .ultralight(let u)): out = Array(try FlipperExport.ultralight(u).utf8)
        case (.flipper, .desfire(let d)): out = Array(try FlipperExport.desfire(d).utf8)
        case (.flipper, .felica(let f)): out = Array(try FlipperExport.felica(f, warn: warn).utf8)
        case (.mfd, .classic(let c)): out = try RawExport.classic(c, warn: warn)
        case (.mfd, .ultralight(let u)): out = try RawExport.ultralight(u, warn: warn)
        case (.mct, .classic(let c)): out = Array(try MCTExport.text(c).utf8)
        default: throw Refusal(reason: "a \(image.technology) card cannot be written as \(format.rawValue)")
        }
        return (out, warnings)
    }

    /// The contents of an image, its error as a refusal.
    static func checked<T>(_ body: () throws -> T) throws(Refusal) -> T {
        do { return try body() } catch {
            throw Refusal(reason: "the image is not valid: \((error as? UserFacingError)?.message ?? "\(error)")")
        }
    }

    /// Compact lowercase hex (Metrodroid), or uppercase (Proxmark3).
    static func hex(_ b: [UInt8], upper: Bool = false) -> JSONValue { .string(upper ? b.compactHex : b.compactHex.lowercased()) }
}
