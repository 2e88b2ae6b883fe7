import APDU
import Foundation

/// Which kind of JSON card image a file holds, by its `technology` (a FeliCa image may leave
/// it out: images written before ISO 7816 images existed).
enum CardImageKind {
    case felica, iso7816

    private struct Peek: Decodable { var technology: String? }

    /// nil: not a JSON image (a transcript).
    static func of(_ data: Data) -> CardImageKind? {
        guard data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else { return nil }
        let technology = (try? JSONDecoder().decode(Peek.self, from: data))?.technology
        return technology == "iso7816" ? .iso7816 : .felica
    }

    /// The ISO 7816 image in `data`, checked; refused naming `file` and what is wrong.
    static func iso7816(_ data: Data, file: String) throws -> ISO7816ImageCard {
        let image: ISO7816CardImage
        do { image = try JSONDecoder().decode(ISO7816CardImage.self, from: data) } catch {
            throw ISO7816CardImage.Invalid(reason: "\(file): not a JSON object in the ISO 7816 card image format (\(describe(error)))")
        }
        do { return ISO7816ImageCard(try image.contents()) } catch { throw ISO7816CardImage.Invalid(reason: "\(file): \(error.reason)") }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let c):
            return "no '\(key.stringValue)'" + (c.codingPath.isEmpty ? "" : " in \(path(c.codingPath))")
        case DecodingError.typeMismatch(_, let c), DecodingError.dataCorrupted(let c), DecodingError.valueNotFound(_, let c):
            return (path(c.codingPath) + " " + c.debugDescription).trimmingCharacters(in: .whitespaces)
        default: return "\(error)"
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
