import APDU
import CardReports
import FeliCaCommands
import MIFARECommands
import ProfileLanguage

/// A conversation with one presented card, shared by detection and reading so that no
/// command is sent twice: answers are remembered per selection context, and a SELECT that
/// was already answered is only sent again when the card's current selection differs.
///
/// The selection context is the list of successful SELECTs since the card was presented:
/// a SELECT by AID or by path starts a new context, a SELECT by FID extends it.
///
/// One limit: a card cannot be brought back to "nothing selected" without a reset, so a
/// profile that reads before any SELECT (Beijing's SFI 4) must be tried before profiles that
/// select something; its `detect.priority` says so.
public final class CardSession {
    /// The exchange the session sends commands and frames through; it counts the round trips.
    public let exchange: CardExchange
    /// The card's ATR, when the transport knows it.
    public let atr: [UInt8]?

    private struct Key: Hashable {
        let context: Int
        let command: [UInt8]
        func hash(into h: inout Hasher) {
            h.combine(context)
            command.withUnsafeBytes { h.combine(bytes: $0) }
        }
    }
    private var cache: [Key: ResponseAPDU] = [:]
    private var logical: [[UInt8]] = [] {  // where the profile thinks the card is
        didSet {
            logicalID =
                contextIDs[logical]
                ?? {
                    contextIDs[logical] = contextIDs.count
                    return contextIDs.count - 1
                }()
        }
    }
    private var actual: [[UInt8]] = []  // where the card really is
    /// Each selection context seen gets a small number, so cache keys hash cheaply.
    private var contextIDs: [[[UInt8]]: Int] = [[]: 0]
    private var logicalID = 0

    /// The card's technology: profiles of another technology are not tried on it.
    public var technology: Profile.Technology = .iso7816
    /// A MIFARE Classic card's UID (what AUTHENTICATE carries) and the keys the user has for it.
    public var classicCard: (uid: [UInt8], keys: [ClassicKeys], reselect: (() throws -> Void)?)?
    /// The keys that opened each Classic step's sector, by the step's answer name: for checks
    /// on a key's salted hash (`key-md5`).
    public var classicOpeningKeys: [String: [[UInt8]]] = [:]
    /// A replay's keys are stand-ins (the recording wrote them `..`): a check on a key's hash
    /// cannot be made, and holds for the profile the recording names (its `detected` or
    /// `profile` header) only. Nil on a live card.
    public var keyHashesHoldFor: String??
    /// For FeliCa: Polling for a system code, nil when the card has no such system.
    /// Transports set it (libnfc polls; a PC/SC reader sends a pseudo-APDU; a replay answers
    /// from the transcript's headers).
    public var felicaPoller: FeliCaPoller?
    private var polls: [SystemCode: FeliCaTarget?] = [:]
    private var frames: [[UInt8]: [UInt8]] = [:]

    /// A session with the card `exchange` talks to, nothing selected yet; ``technology``
    /// starts as ISO 7816.
    public init(exchange: CardExchange, atr: [UInt8]? = nil) {
        self.exchange = exchange
        self.atr = atr
        cache.reserveCapacity(16)
    }

    /// FeliCa Polling through the transport, once per system code.
    public func poll(systemCode: SystemCode) throws -> FeliCaTarget? {
        if let known = polls[systemCode] { return known }
        let answer = try felicaPoller?(systemCode) ?? nil
        polls[systemCode] = answer
        return answer
    }

    /// A raw frame (FeliCa) through the exchange layer, answered once per distinct frame.
    public func transmitFrame(_ frame: [UInt8]) throws -> [UInt8] {
        if let hit = frames[frame] { return hit }
        let answer = try exchange.transmit(frame)
        frames[frame] = answer
        return answer
    }

    /// Round trips made to the card so far.
    public var exchanges: Int { exchange.roundTrips }

    /// Sends `command`, or gives the answer it already got in the current selection context (an
    /// absolute SELECT's in any). When the card's selection is not the context's, the context's
    /// SELECTs are sent again first. DESFire's ADDITIONAL FRAME (`90 AF`) is always sent, and a
    /// `91 AF` answer is never remembered.
    public func send(_ command: CommandAPDU) throws -> ResponseAPDU {
        // DESFire's ADDITIONAL FRAME continues whatever answer came last: never from the cache.
        if command.cla == 0x90, command.ins == 0xAF { return try exchange.send(command) }
        let bytes = try command.encoded()
        // DESFire's SelectApplication (wrapped, INS 5A) selects like a SELECT by DF name.
        let desfireSelect = command.cla == 0x90 && command.ins == 0x5A
        // An absolute SELECT (by DF name, by path, the MF) answers the same in any context.
        let absolute = desfireSelect || (command.ins == 0xA4 && Self.context(after: bytes, p1: command.p1, from: [[0xFF]]) == [bytes])
        let key = Key(context: absolute ? 0 : logicalID, command: bytes)
        if let hit = cache[key] {
            if command.ins == 0xA4, hit.statusWord.isSuccess { logical = Self.context(after: bytes, p1: command.p1, from: logical) }
            if desfireSelect, hit.statusWord == StatusWord(0x91, 0x00) { logical = [bytes] }
            return hit
        }
        if actual != logical {
            // Bring the card to the context the profile expects by replaying its SELECTs.
            if !logical.isEmpty || !actual.isEmpty {
                for select in logical {
                    let r = try exchange.send(try CommandAPDU(bytes: select))
                    guard r.statusWord.isSuccess else { break }
                }
            }
            actual = logical
        }
        let response = try exchange.send(command)
        // The first part of a chained DESFire answer (91 AF) cannot be given again without
        // the card's state that goes with it: not remembered.
        if response.statusWord != StatusWord(0x91, 0xAF) { cache[key] = response }
        if command.ins == 0xA4, response.statusWord.isSuccess {
            logical = Self.context(after: bytes, p1: command.p1, from: logical)
            actual = logical
        }
        if desfireSelect, response.statusWord == StatusWord(0x91, 0x00) {
            logical = [bytes]
            actual = logical
        }
        return response
    }

    static func context(after select: [UInt8], p1: UInt8, from current: [[UInt8]]) -> [[UInt8]] {
        switch p1 {
        case 0x00 where select.count >= 7 && select[5] == 0x3F && select[6] == 0x00:
            return [select]  // the MF: absolute
        case 0x00, 0x01, 0x02: return current + [select]  // by FID / child DF / EF: relative
        default: return [select]  // by DF name, by path: absolute
        }
    }
}
