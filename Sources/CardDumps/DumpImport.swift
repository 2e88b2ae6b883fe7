import APDU
import CardReports
import Foundation

/// The formats `cardscan import` reads (docs/dump-formats.md).
public enum DumpFormat: String, Sendable, CaseIterable {
    /// cardscan's own card image.
    case cardscan
    /// Metrodroid's JSON card file.
    case metrodroid
    /// A ZIP of Metrodroid card files (its bulk export).
    case metrodroidZip = "metrodroid-zip"
    /// Proxmark3's JSON dump (`mfc v2`, `mfu`; MIFARE Classic Tool writes this shape too).
    case proxmark3
    /// Flipper Zero's `.nfc` file.
    case flipper
    /// MIFARE Classic Tool's `.mct` dump.
    case mct
    /// A raw Classic image (`.mfd`, `.bin`).
    case mfd
    /// Farebot's and early Metrodroid's XML card files (one card, or `<cards>`).
    case legacyXML = "legacy-xml"
    /// Farebot's JSON export (Gson era and Farebot 2026): one card, or `{"cards": […]}`.
    case farebot

    /// The format of `bytes`, told from how they start (docs/dump-formats.md §2); nil when
    /// none fits.
    public static func detect(_ bytes: [UInt8]) -> DumpFormat? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .metrodroidZip }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if text.hasPrefix("Filetype: Flipper NFC device") { return .flipper }
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if ["<?xml", "<card", "<!--"].contains(where: { trimmed.hasPrefix($0) }),
            String(validating: bytes.prefix(4096), as: UTF8.self) != nil
        {
            return .legacyXML
        }
        if trimmed.hasPrefix("{") {
            if text.contains("\"technology\"") { return .cardscan }
            if text.contains("\"cardType\"") { return .farebot }
            if text.contains("\"FileType\"") { return .proxmark3 }
            if text.contains("\"tagId\"") { return .metrodroid }
            return nil
        }
        if trimmed.hasPrefix("+Sector:") { return .mct }
        if [320, 1024, 2048, 4096].contains(bytes.count), String(validating: bytes, as: UTF8.self) == nil { return .mfd }
        return nil
    }
}

/// Turns other tools' card dumps into cardscan card images (docs/dump-formats.md). Pure: bytes
/// in, images out. A malformed dump is an error naming the file and the place (a JSON path or a
/// line), and gives no image at all.
public enum DumpImport {
    /// Inputs larger than this are refused (64 MiB, as for the other inputs).
    public static let maximumSize = 64 << 20

    /// The cards in `bytes` (the file `file`), in `format` or the one detected.
    public static func images(
        _ bytes: [UInt8], file: String, format: DumpFormat? = nil, options: ImportOptions = ImportOptions()
    ) throws(DumpError)
        -> ImportResult
    {
        guard bytes.count <= maximumSize else { throw DumpError(file: file, reason: "\(bytes.count) bytes: more than 64 MiB") }
        guard let format = format ?? DumpFormat.detect(bytes) else {
            throw DumpError(
                file: file,
                reason:
                    "not a dump cardscan knows (Metrodroid JSON or ZIP, Farebot JSON or XML, Proxmark3 JSON, Flipper .nfc, MCT, a raw .mfd, or a cardscan image)"
            )
        }
        var result = ImportResult()
        let warn = { (w: String) in result.warnings.append(w) }
        switch format {
        case .cardscan:
            let image: CardImage?
            do { image = try CardImage.decode(bytes) } catch { throw DumpError(file: file, reason: "\(error)") }
            guard let image else { throw DumpError(file: file, reason: "not a cardscan card image") }
            result.images = [image]
        case .metrodroid:
            result.images = [try MetrodroidImport.card(try json(bytes, file: file), options: options, warn: warn)]
        case .metrodroidZip:
            result = try archive(bytes, file: file, options: options)
        case .proxmark3:
            result.images = [try Proxmark3Import.card(try json(bytes, file: file), warn: warn)]
        case .flipper:
            result.images = [try FlipperImport.card(try text(bytes, file: file), file: file, options: options, warn: warn)]
        case .mct:
            result.images = [.classic(try MCTImport.card(try text(bytes, file: file), file: file, options: options, warn: warn))]
        case .mfd:
            result.images = [.classic(try RawImport.classic(bytes, file: file, options: options, warn: warn))]
        case .legacyXML:
            result.images = try LegacyXMLImport.cards(bytes, file: file, options: options, warn: warn)
        case .farebot:
            result.images = try FarebotImport.cards(try json(bytes, file: file), options: options, warn: warn)
        }
        for image in result.images {
            do { try image.validate() } catch { throw DumpError(file: file, reason: "the image it gives is not valid: \(error)") }
        }
        return result
    }

    /// Every card of a ZIP archive (Metrodroid's bulk export: one JSON file a card and a
    /// README): each `.json` or `.xml` file imported as the file it is and each `.mfc` as a raw
    /// Classic image, named `ZIP/ENTRY`; anything else skipped with a warning. An archive
    /// inside is not opened.
    static func archive(_ bytes: [UInt8], file: String, options: ImportOptions) throws(DumpError) -> ImportResult {
        let zip = try ZipArchive(bytes, file: file, ceiling: maximumSize)
        var result = ImportResult()
        for entry in zip.entries where !entry.isFolder {
            let lower = entry.name.lowercased()
            guard [".json", ".xml", ".mfc"].contains(where: lower.hasSuffix), !entry.name.hasPrefix("__MACOSX/") else {
                result.warnings.append("\(entry.name): not a card file (.json, .xml or .mfc), skipped")
                continue
            }
            let name = "\(file)/\(entry.name)"
            let data = try zip.data(entry)
            if DumpFormat.detect(data) == .metrodroidZip { throw DumpError(file: name, reason: "an archive inside the archive") }
            let inner = try images(data, file: name, format: lower.hasSuffix(".mfc") ? .mfd : nil, options: options)
            result.images += inner.images
            result.warnings += inner.warnings.map { "\(entry.name): \($0)" }
        }
        guard !result.images.isEmpty else {
            throw DumpError(file: file, reason: "a ZIP archive with no card file (.json, .xml or .mfc) in it")
        }
        return result
    }

    static func text(_ bytes: [UInt8], file: String) throws(DumpError) -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else { throw DumpError(file: file, reason: "not UTF-8 text") }
        return s
    }

    static func json(_ bytes: [UInt8], file: String) throws(DumpError) -> JSONNode {
        do { return JSONNode(try JSONValue(parsingInOrder: try text(bytes, file: file)), file: file) } catch let e as DumpError {
            throw e
        } catch { throw DumpError(file: file, reason: (error as? UserFacingError)?.message ?? "\(error)") }
    }
}
