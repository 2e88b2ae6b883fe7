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
            let (atr, mended) = try Self.decode(bytes)
            out("ATR: " + bytes.hexString)
            if let mended { eprint(Style(.standardError).yellow("warning:") + " " + mended) }
            var rows = atr.breakdown
            if mended != nil, let i = rows.firstIndex(where: { $0.0 == "TCK" }), let needed = atr.bytes.last {
                // The TCK row shows what the card sent, not the mended byte.
                if atr.bytes.count > bytes.count {
                    rows[i].1 = "--  (missing: the XOR of T0…Tk is \([needed].hexString))"
                } else if atr.bytes.count == bytes.count, let actual = bytes.last, actual != needed {
                    rows[i].1 = "\([actual].hexString)  (wrong: the XOR of T0…Tk is \([needed].hexString))"
                }
            }
            let width = rows.map(\.0.count).max() ?? 0
            for (k, v) in rows { out("  " + k.padding(width) + "  " + v) }
            if let pseudo = PseudoATR(atr.bytes) {
                let ss = [pseudo.standard].hexString, nn = [UInt8(pseudo.cardName >> 8), UInt8(pseudo.cardName & 0xFF)].hexString
                out("PC/SC part 3 contactless card: standard \(ss), card name \(nn)" + (pseudo.cardDescription.map { ": \($0)" } ?? ""))
                if pseudo.isFeliCa { out("  read it with `cardscan` (transit profiles) or `cardscan felica` (its services)") }
                if pseudo.isType2 { out("  read it with `cardscan ndef read`") }
            }
            if let contactless = ContactlessATR(atr.bytes) { out("PC/SC part 3 contactless card: \(contactless.cardDescription)") }
            var names = SmartcardList.identify(bytes)
            if mended != nil, names?.isEmpty == true, let asMended = SmartcardList.identify(atr.bytes), !asMended.isEmpty {
                out("Not in smartcard_list.txt as given; as mended:")
                names = asMended
            }
            if let names {
                if names.isEmpty { out("Not in smartcard_list.txt.") }
                // An entry's further lines (other names, a link) under its first, as pcsc_scan shows them.
                for entry in names {
                    for (i, line) in entry.enumerated() { out((i == 0 ? "Identified: " : "            ") + line) }
                }
            } else {
                out("(install pcsc-tools to identify the card from \(SmartcardList.path))")
            }
        }
    }
}

extension ATRCommand {
    /// The ATR, or, when only its end is wrong (a TCK that does not verify, a TCK missing,
    /// bytes after it), the ATR as it was meant and what was mended: the rest is still worth
    /// showing, as pcsc-tools' ATR_analysis does. Anything else wrong is the command's error.
    static func decode(_ bytes: [UInt8]) throws(ATR.ParseError) -> (ATR, mended: String?) {
        do {
            return (try ATR(bytes: bytes), nil)
        } catch {
            let mended: [UInt8]
            switch error {
            case .tckMismatch(let expected, _): mended = bytes.dropLast() + [expected]
            case .truncated(expecting: "TCK"): mended = bytes + [bytes.dropFirst().reduce(0, ^)]
            case .trailingBytes(let n): mended = Array(bytes.dropLast(n))
            default: throw error
            }
            guard let atr = try? ATR(bytes: mended) else { throw error }
            return (atr, error.message + "; shown as if the ATR were " + mended.hexString)
        }
    }

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

    /// The description lines of every entry matching `atr` (one list per entry); nil when the
    /// list is not installed.
    /// Entries are regular expressions over `3B 8B 80 …` with `..` for any byte.
    static func identify(_ atr: [UInt8]) -> [[String]]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let target = atr.hexString
        var out: [[String]] = []
        var matching = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("\t") {
                if matching { out[out.count - 1].append(line.trimmingCharacters(in: .whitespaces)) }
                continue
            }
            matching = false
            if line.isEmpty || line.hasPrefix("#") { continue }
            let pattern = "^" + line.trimmingCharacters(in: .whitespaces) + "$"
            if let re = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                re.firstMatch(in: target, range: NSRange(target.startIndex..., in: target)) != nil
            {
                matching = true
                out.append([])
            }
        }
        return out
    }
}
