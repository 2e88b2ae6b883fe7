import APDU
import CardReports
import FeliCaCommands
import Foundation
import ProfileLanguage

/// Card images as pretty-printed JSON text with sorted keys (stable, diff-friendly), the way
/// `cardscan felica --image` and `cardscan dump --image` write them.
private func imageJSON(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self) + "\n"
}

extension FeliCaCardImage {
    /// The image as `cardscan felica --image` writes it: pretty-printed JSON, keys sorted, ending
    /// in a newline.
    public func json() -> String { imageJSON(self) }
}

extension ISO7816CardImage {
    /// The image as `cardscan dump --image` writes it: pretty-printed JSON, keys sorted, ending
    /// in a newline.
    public func json() -> String { imageJSON(self) }
}
