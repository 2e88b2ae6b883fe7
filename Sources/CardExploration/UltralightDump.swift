import APDU
import Foundation
import MIFARECommands

/// What a MIFARE Ultralight or NTAG tag lets be read without a password (`cardscan
/// ultralight`), as a card image cardsim can serve (docs/cards/ultralight.md).
///
/// Sends only reading commands: GET_VERSION (which names the chip; a chip without it stays
/// silent), READ of every page four at a time until the tag's last page or its first refusal
/// (a protected area, or the end of a chip that gave no version), and on EV1 and NTAG21x chips
/// READ_SIG and READ_CNT. A refused command leaves an ISO 14443-3 tag halted: `reselect` wakes
/// it again (through libnfc; a PC/SC reader never sends what it cannot carry).
public struct UltralightDump {
    /// The card image: UID, model, version, counters, signature and pages (`..` unread).
    public var image: UltralightCardImage
    /// What could not be read, and why.
    public var notes: [String] = []
    /// Round trips made through the exchange by the end of the dump (any made before it included).
    public var exchanges = 0
    /// The card went away (or failed) before the dump finished.
    public var partial = false

    /// Dumps the tag over `exchange` (a channel taking the tag's own commands); `uid` as the
    /// anticollision gave it, else read from pages 0 and 1. The error, when there is one, comes
    /// with what was read.
    public static func run(
        exchange: CardExchange, uid: [UInt8]?, atqa: [UInt8] = [0x00, 0x44], sak: UInt8 = 0, reselect: (() throws -> Void)? = nil
    ) -> (UltralightDump, Error?) {
        var version: [UInt8]? = nil
        var pages: [[UInt8?]] = []
        var notes: [String] = []
        var counters: [Int]? = nil
        var signature: [UInt8]? = nil
        var failure: Error? = nil
        /// After a command the tag refused or did not answer: wake it again through `reselect`
        /// (libnfc cannot tell a silent tag from one that left: if it cannot be woken, it left);
        /// without one, a reader's refusal (`other`) is only a refusal.
        func wake(after error: Error) throws {
            guard let reselect else {
                if let e = error as? CardTransportError, case .other = e.failure { return }
                throw error
            }
            do { try reselect() } catch { throw error }
        }
        /// A command the tag may not know: its answer, or nil when it refused or stayed silent.
        func ask(_ command: [UInt8], _ length: Int) throws -> [UInt8]? {
            do {
                let answer = try exchange.transmit(command)
                return answer.count >= length ? Array(answer.prefix(length)) : nil
            } catch {
                try wake(after: error)
                return nil
            }
        }
        do {
            version = try ask(UltralightCommand.getVersion, 8)
            let model = version.map(UltralightCardImage.Model.init(version:))
            let count = model?.pageCount
            var page = 0
            while page < (count ?? 256) {
                let group: [UInt8]
                do { group = try UltralightPages.readGroup(page: page, pageCount: count, transmit: exchange.transmit) } catch {
                    // A refusal (through libnfc it looks like a lost card until the tag answers a poll again).
                    if !(error is UltralightError) { try wake(after: error) } else { try? reselect?() }
                    if let count {
                        notes.append("pages \(page)–\(count - 1): refused (a protected area: no password is tried)")
                        pages += [[UInt8?]](repeating: [nil, nil, nil, nil], count: count - page)
                    } else {
                        notes.append("page \(page): refused, so the tag ends there or a protected area starts (no password is tried)")
                    }
                    break
                }
                for i in 0..<4 where page + i < (count ?? 256) { pages.append(group[(i * 4)..<(i * 4 + 4)].map { Optional($0) }) }
                page += 4
            }
            if let v = version, v.count == 8, [0x03, 0x04].contains(v[2]) {
                signature = try ask(UltralightCommand.readSignature, 32)
                if v[2] == 0x03 {
                    var values: [Int] = []
                    for n in 0..<3 {
                        guard let c = try ask(UltralightCommand.readCounter(UInt8(n)), 3) else { break }
                        values.append(Int(c[0]) | Int(c[1]) << 8 | Int(c[2]) << 16)
                    }
                    if values.count == 3 { counters = values }
                }
            }
        } catch { failure = error }
        var model = version.map(UltralightCardImage.Model.init(version:)) ?? .unknown
        if version == nil, pages.count == 16 { model = .ultralight }  // MF0ICU1: 16 pages and no GET_VERSION
        if version == nil {
            notes.append("no GET_VERSION answer: an Ultralight, Ultralight C or NTAG203 (or a reader that does not pass it)")
        }
        let known = pages.count >= 2 ? pages[0].prefix(3).compactMap { $0 } + pages[1].compactMap { $0 } : []
        let image = UltralightCardImage(
            uid: uid ?? (known.count == 7 ? known : []), atqa: atqa, sak: sak, model: model, version: version, signature: signature,
            counters: counters, pages: pages)
        let dump = UltralightDump(image: image, notes: notes, exchanges: exchange.roundTrips, partial: failure != nil)
        return (dump, failure)
    }

    /// The image as JSON, keys sorted (what `--image` writes).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(image)) ?? Data(), as: UTF8.self) + "\n"
    }
}
