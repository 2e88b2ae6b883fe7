import APDU
import DESFireCommands
import FeliCaCommands
import Foundation

/// `--trace`: each exchange on stderr (a card's read: when the read ends, its personal values
/// written `..`, unless `--record-raw`): `> 00 A4 …` / `< … 90 00  (0.9 ms) success`,
/// or for FeliCa frames `< 1D 07 …  (3.1 ms) Read Without Encryption, 1 block(s)`.
struct Tracer {
    /// An exchange over `channel`, each round trip traced on stderr when `trace` is set.
    static func exchange(
        _ channel: CardChannel, felica: Bool = false, type2: Bool = false, classic: Bool = false, trace: Bool
    ) -> CardExchange {
        let x = CardExchange(channel: channel)
        if trace { x.observer = Tracer(felica: felica, type2: type2, classic: classic).observe }
        return x
    }

    let style = Style(.standardError)
    var felica = false
    /// A Type 2 tag's answers: page data, no status word.
    var type2 = false
    /// A MIFARE Classic card's answers: a block, or nothing (authenticated).
    var classic = false
    /// Show cardholder data (`--record-raw`); else it is written `..` as in transcripts.
    var raw = false

    func observe(_ e: WireExchange) {
        eprint(style.dim("> ") + WireRedaction.format(e.command, secret: e.secret))
        let ms = formatMilliseconds(e.duration)
        if let r = e.response {
            var meaning = ""
            if felica {
                meaning = FeliCaResponse.summary(r)
            } else if type2 {
                meaning = r.count == 16 ? "4 pages" : "\(r.count) byte(s)"
            } else if classic {
                meaning = r.isEmpty ? "authenticated" : r.count == 16 ? "1 block" : "\(r.count) byte(s)"
            } else if r.count >= 2 {
                // 91 xx: a DESFire status (docs/cards/desfire.md), not an ISO 7816 one.
                meaning =
                    r[r.count - 2] == 0x91
                    ? "DESFire: " + DESFireStatus(rawValue: r[r.count - 1]).meaning : StatusWord(r[r.count - 2], r[r.count - 1]).meaning
            }
            let cardholder =
                raw || felica || type2 || classic || r.count <= 2 ? [] : CardholderDataRedaction.positions(in: Array(r.dropLast(2)))
            var hidden = e.hidden
            for p in cardholder { hidden[p] = 0xFF }
            let text = hidden.isEmpty ? r.hexString : WireRedaction.format(r, masks: hidden)
            eprint(style.dim("< ") + text + style.dim("  (\(ms)) \(meaning)"))
        } else if let f = e.failure {
            eprint(style.red("! " + f.transcriptText) + style.dim("  (\(ms))"))
        }
    }
}
