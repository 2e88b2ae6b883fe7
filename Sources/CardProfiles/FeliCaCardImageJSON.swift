import FeliCaCommands
import Foundation

extension FeliCaCardImage {
    /// The image as pretty-printed JSON text with sorted keys (stable, diff-friendly).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}
