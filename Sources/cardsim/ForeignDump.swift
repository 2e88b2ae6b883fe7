import CardDumps
import CardSimulator
import Foundation

/// The dumps users have, served as they are: a MIFARE Classic Tool `.mct`, a raw `.mfd`
/// (nfc-mfclassic's; its keys from its sector trailers), a Proxmark3 JSON dump, a Flipper
/// `.nfc` or a Metrodroid or Farebot file is turned into the cardscan card image `cardscan
/// import` would write, in memory, and served as that image.
enum ForeignDump {
    /// `data` as a cardscan card image when it is another tool's dump of one card; `data`
    /// itself when it is a cardscan image or a transcript.
    static func asImage(_ data: Data, file: String) throws -> Data {
        let bytes = [UInt8](data)
        guard let format = DumpFormat.detect(bytes), format != .cardscan else { return data }
        let result = try DumpImport.images(bytes, file: file, format: format)
        guard result.images.count == 1, let image = result.images.first else {
            throw DumpError(file: file, reason: "it holds \(result.images.count) cards: `cardscan import` writes each as an image to serve")
        }
        for w in result.warnings { writeToStandardError("cardsim: \(file): \(w)\n") }
        return Data(image.json.utf8)
    }
}
