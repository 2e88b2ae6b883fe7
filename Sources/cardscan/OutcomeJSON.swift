import APDU
import CardProfiles
import CardReading
import Foundation

/// Where and when `watch` read a card: printed with each report, so two readers busy at once
/// stay told apart.
struct ReadPlace {
    let reader: String
    let time: Date

    /// ISO 8601 in local time with its offset: `2026-11-27T08:30:15+01:00`.
    var timeText: String {
        let f = ISO8601DateFormatter()
        f.timeZone = .current
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: time)
    }

    /// The text report's line: `Virtual PCD 00 00 · 2026-11-27 08:30:15 +01:00` (the report's
    /// date-time style).
    var line: String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .current
        f.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        return "\(reader) · \(f.string(from: time))"
    }

    /// `reader` and `readAt`, after the report's own keys.
    func adding(to json: JSONValue) -> JSONValue {
        guard case .object(var pairs) = json else { return json }
        pairs += [("reader", .string(reader)), ("readAt", .string(timeText))]
        return .object(pairs)
    }
}

/// A failed read as data (`--json`, `--jsonl`): what the card is, what failed, the exit status
/// and what to do; printed on stdout where a report would be.
enum OutcomeJSON {
    /// The object for a read that gave no report: `error`, `message`, `hint`, `exit`, the card,
    /// and for a card no profile recognised, the profiles `tried`.
    static func failure(_ error: ReadError, card: PresentedCard, hint: String?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("error", .string(kind(error))), ("message", .string(error.message)),
        ]
        if let hint { pairs.append(("hint", .string(hint))) }
        pairs.append(("exit", .int(Int(ExitStatus(for: error).rawValue))))
        pairs.append(("card", cardJSON(card)))
        if case .unrecognised(let tried, _) = error { pairs.append(("tried", .array(tried.map { .string($0) }))) }
        return .object(pairs)
    }

    /// A partial report's `error`: the message and exit status, after the report's keys.
    static func adding(_ error: ReadError, to json: JSONValue) -> JSONValue {
        guard case .object(var pairs) = json else { return json }
        pairs.append(
            ("error", .object([("message", .string(error.message)), ("exit", .int(Int(ExitStatus(for: error).rawValue)))])))
        return .object(pairs)
    }

    /// `unrecognised`, `not-this-card`, `no-profiles`, `card-failed`, …: the kind of failure.
    static func kind(_ error: ReadError) -> String {
        switch error {
        case .notThisCard: return "not-this-card"
        case .unrecognised: return "unrecognised"
        case .noProfiles: return "no-profiles"
        case .stepFailed: return "step-failed"
        case .badAnswer: return "bad-answer"
        case .transport: return "card-failed"
        case .replay: return "replay-mismatch"
        case .exchange: return "exchange-failed"
        }
    }

    /// The card as its transport found it: technology, description, ATR, UID or IDm.
    static func cardJSON(_ card: PresentedCard) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("technology", .string(card.technologyName)), ("description", .string(card.description))]
        switch card {
        case .iso7816(let c):
            if let atr = c.atr { pairs.append(("atr", .string(atr.hexString))) }
            if let uid = c.uid { pairs.append(("uid", .string(uid.hexString))) }
            if let pupi = c.pupi { pairs.append(("pupi", .string(pupi.hexString))) }
        case .felica(let t):
            pairs.append(("idm", .string(t.idm.bytes.hexString)))
            pairs.append(("systemCode", .string(String(format: "%04X", t.systemCode.value))))
        case .type2Tag(let uid), .classic(let uid, _):
            if let uid { pairs.append(("uid", .string(uid.hexString))) }
        }
        return .object(pairs)
    }

    /// What to do with a card no profile recognised, by what it is: the commands that show what
    /// it holds, then where a profile goes.
    static func unrecognisedHint(_ card: PresentedCard) -> String {
        let look: String
        switch card {
        case .iso7816:
            look =
                "`cardscan atr` explains its ATR; `cardscan dump` (ISO 7816 files) or `cardscan desfire` (MIFARE DESFire) show what it holds"
        case .felica: look = "`cardscan felica` shows its systems, services and blocks"
        case .type2Tag: look = "`cardscan ultralight` shows its pages"
        case .classic:
            look =
                "a MIFARE Classic card opens only with its sector keys: `cardscan keys add FILE` imports them, `cardscan classic` shows its sectors"
        }
        return look + "; then write a profile for it (docs/writing-a-profile.md) and pass it with --profile FILE"
    }
}
