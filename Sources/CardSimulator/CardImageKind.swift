import APDU
import DESFireCommands
import Foundation
import MIFARECommands

/// A card image cardsim serves by answering APDUs (an ISO 7816 file system, a DESFire card).
protocol ImageCardResponder: AnyObject {
    func respond(_ bytes: [UInt8]) -> [UInt8]
    func reset()
}

extension ISO7816ImageCard: ImageCardResponder {}
extension DESFireImageCard: ImageCardResponder {}

/// Which kind of JSON card image a file holds, by its `technology` (a FeliCa image may leave
/// it out: images written before ISO 7816 images existed).
enum CardImageKind {
    case felica, iso7816, desfire, ultralight, classic

    private struct Peek: Decodable { var technology: String? }

    /// nil: not a JSON image (a transcript).
    static func of(_ data: Data) -> CardImageKind? {
        guard data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else { return nil }
        let technology = (try? JSONDecoder().decode(Peek.self, from: data))?.technology
        switch technology {
        case "iso7816": return .iso7816
        case "desfire": return .desfire
        case "ultralight": return .ultralight
        case "classic": return .classic
        default: return .felica
        }
    }

    /// The DESFire image in `data`, checked; refused naming `file` and what is wrong.
    static func desfire(_ data: Data, file: String) throws -> DESFireImageCard {
        let image: DESFireCardImage
        do { image = try JSONDecoder().decode(DESFireCardImage.self, from: data) } catch {
            throw DESFireCardImage.Invalid(reason: "\(file): not a JSON object in the DESFire card image format (\(describe(error)))")
        }
        do { return DESFireImageCard(try image.contents()) } catch { throw DESFireCardImage.Invalid(reason: "\(file): \(error.reason)") }
    }

    /// The Ultralight image in `data`, checked; refused naming `file` and what is wrong.
    static func ultralight(_ data: Data, file: String) throws -> UltralightImageCard {
        let image: UltralightCardImage
        do { image = try JSONDecoder().decode(UltralightCardImage.self, from: data) } catch {
            throw CardFileError.invalid("\(file): not a JSON object in the Ultralight card image format (\(describe(error)))")
        }
        do { return UltralightImageCard(try image.contents()) } catch { throw CardFileError.invalid("\(file): \(error.reason)") }
    }

    /// The Classic image in `data`, checked; refused naming `file` and what is wrong.
    static func classic(_ data: Data, file: String) throws -> ClassicImageCard {
        let image: ClassicCardImage
        do { image = try JSONDecoder().decode(ClassicCardImage.self, from: data) } catch {
            throw CardFileError.invalid("\(file): not a JSON object in the Classic card image format (\(describe(error)))")
        }
        do { return ClassicImageCard(try image.contents()) } catch { throw CardFileError.invalid("\(file): \(error.reason)") }
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
