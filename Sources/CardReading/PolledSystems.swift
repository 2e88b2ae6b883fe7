import APDU
import FeliCaCommands
import Foundation

/// The FeliCa systems a read found by Polling: a transcript's `systems` header, so a replay
/// finds them too (a card's second system answers with an IDm of its own).
final class PolledSystems {
    var found: [FeliCaTarget] = []

    /// `FE00=11010410AABBCCDD …`: each system other than the card's first, once.
    func header(for card: PresentedCard) -> String? {
        guard case .felica(let first) = card else { return nil }
        var words: [String] = []
        for t in found where t.systemCode != first.systemCode {
            let word =
                String(format: "%04X", t.systemCode.value)
                + (t.idm == first.idm ? "" : "=" + t.idm.bytes.hexString.replacingOccurrences(of: " ", with: ""))
            if !words.contains(word) { words.append(word) }
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
