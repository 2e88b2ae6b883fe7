import APDU
import ArgumentParser
import CardReading
import Foundation
import PCSCTransport

struct ATRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atr",
        abstract: "Break an ATR down (ISO 7816-3) and identify the card.",
        discussion: """
            Identification uses pcsc-tools' /usr/share/pcsc/smartcard_list.txt when it
            is installed (apt-get install pcsc-tools); cardscan works without it.
            Without HEX, the ATR of the card on the reader (-r) is used.

            Example: cardscan atr 3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52
            """)

    @Argument(help: ArgumentHelp("The ATR in hex (spaces and colons allowed).", valueName: "HEX")) var hex: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp("Reader index, name or unique substring.", valueName: "READER")) var reader: String?

    func run() throws {
        try guarded {
            let bytes: [UInt8]
            if hex.isEmpty { bytes = try currentATR() } else { bytes = try Hex.parse(hex.joined(separator: " ")) }
            let atr = try ATR(bytes: bytes)
            out("ATR: " + bytes.hexString)
            let width = atr.breakdown.map(\.0.count).max() ?? 0
            for (k, v) in atr.breakdown { out("  " + k.padding(width) + "  " + v) }
            if let pseudo = PseudoATR(bytes) {
                let ss = [pseudo.standard].hexString, nn = [UInt8(pseudo.cardName >> 8), UInt8(pseudo.cardName & 0xFF)].hexString
                out("PC/SC part 3 contactless card: standard \(ss), card name \(nn)" + (pseudo.cardDescription.map { ": \($0)" } ?? ""))
                if pseudo.isFeliCa { out("  read it with `cardscan` (transit profiles) or `cardscan felica` (its services)") }
                if pseudo.isType2 { out("  read it with `cardscan ndef read`") }
            }
            if let contactless = ContactlessATR(bytes) { out("PC/SC part 3 contactless card: \(contactless.cardDescription)") }
            let names = SmartcardList.identify(bytes)
            if let names {
                if names.isEmpty { out("Not in smartcard_list.txt.") }
                for n in names { out("Identified: " + n) }
            } else {
                out("(install pcsc-tools to identify the card from \(SmartcardList.path))")
            }
        }
    }
}

extension ATRCommand {
    /// The ATR of the card on the chosen (or only) reader.
    func currentATR() throws -> [UInt8] {
        let readers = try PCSCReaders(choice: reader)
        guard let state = try readers.waitForOneCard(timeout: .zero) else {
            throw PCSCError(code: .noSmartcard, function: "SCardGetStatusChange", reader: try readers.chosenReader())
        }
        return state.atr
    }
}

/// pcsc-tools' list of known ATRs, read at run time (never copied into cardscan).
enum SmartcardList {
    static let path = ProcessInfo.processInfo.environment["CARDSCAN_SMARTCARD_LIST"] ?? "/usr/share/pcsc/smartcard_list.txt"

    /// Descriptions of every entry matching `atr`; nil when the list is not installed.
    /// Entries are regular expressions over `3B 8B 80 …` with `..` for any byte.
    static func identify(_ atr: [UInt8]) -> [String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let target = atr.hexString
        var out: [String] = []
        var matching = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("\t") {
                if matching { out.append(line.trimmingCharacters(in: .whitespaces)) }
                continue
            }
            matching = false
            if line.isEmpty || line.hasPrefix("#") { continue }
            let pattern = "^" + line.trimmingCharacters(in: .whitespaces) + "$"
            if let re = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                re.firstMatch(in: target, range: NSRange(target.startIndex..., in: target)) != nil
            {
                matching = true
            }
        }
        return out
    }
}
