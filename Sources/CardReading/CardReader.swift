import APDU
import CardProfiles
import Foundation
import MIFARECommands
import NDEF
import NFCTransport

/// Reads a presented card: with a profile, or by detection among a registry's profiles; when
/// no transit profile recognises the card, its NDEF message (if it is an NFC Forum tag).
/// `cardscan` (scan, watch, replay, test) and other Swift programs read cards through it.
///
/// ```swift
/// let readers = try PCSCReaders()
/// if let card = try readers.waitForCard(timeout: .seconds(30)) {
///     let outcome = CardReader(registry: .standard()).read(card)
///     print(outcome.report?.name ?? outcome.error!.message)
/// }
/// ```
public struct CardReader {
    /// The profiles detection chooses among.
    public var registry: ProfileRegistry
    /// Read with this profile only (nil: detect among the registry's profiles).
    public var profile: Profile?
    /// Keep every exchange as a `Transcript` in the outcome (for `--record`).
    public var recordsTranscript = false
    /// Read the NDEF message of a card no transit profile recognises (only without `profile`).
    public var readsNDEFWhenUnrecognised = true
    /// Called after each round trip with the card (for traces).
    public var observer: ((WireExchange) -> Void)?
    /// Report the holder's personal data (name, birth date, ID number) instead of naming it in
    /// the report's `hidden`.
    public var showsPersonalData = false
    /// Report a payment card's whole PAN instead of its first 6 and last 4 digits (`--show-pan`).
    public var showsFullNumbers = false
    /// Keep cardholder data in the transcript (`CardholderDataRedaction`) instead of `..`.
    public var recordsRaw = false
    /// What the read answers a card that asks for terminal data (EMV's PDOL): country and
    /// currency settings, and a replay's recorded date, time and unpredictable number.
    public var terminal = TerminalSettings()
    /// Called with the profile once it is chosen (given, or found by detection), before its
    /// read steps run.
    public var onProfileChosen: ((Profile) -> Void)?
    /// After detection found one profile, look for the card's other applications with the
    /// profiles after it (``CardReport/otherApplications``); false stops at the first.
    public var readsEveryApplication = true
    /// Asked before each command: true ends the read there (the user pressed Ctrl-C), as a
    /// removed card ends it — a partial report, and `! error: interrupted` in the transcript.
    public var isCancelled: (@Sendable () -> Bool)?
    /// The MIFARE Classic keys the user has (`cardscan keys`): tried, with the well-known keys,
    /// on the sectors a Classic profile reads.
    public var classicKeys: [ClassicKeys] = []
    /// A replay: the keys are stand-ins, and a check on a key's hash holds for this profile
    /// only (the one the recording names; nil: none).
    public var keyHashesHoldFor: String??

    /// A reader over `registry`'s profiles, or with `profile` only.
    public init(registry: ProfileRegistry, profile: Profile? = nil) {
        self.registry = registry
        self.profile = profile
    }

    /// Reads `connection`'s card. Never throws: a failure is the outcome's `error`, with
    /// what was read before it in a partial report. Over PC/SC the whole read is one
    /// transaction (``CardConnection/withExclusiveAccess(_:)``).
    public func read(_ connection: CardConnection) -> CardReadOutcome {
        let base: CardChannel = isCancelled.map { CancellableChannel(wrapping: connection.channel, isCancelled: $0) } ?? connection.channel
        let recorder = recordsTranscript ? RecordingChannel(wrapping: base, redactSecrets: !recordsRaw) : nil
        let exchange = CardExchange(channel: recorder ?? base)
        // Personal values are found in the answers once the read is over: the trace waits for
        // it (PersonalDataHiding), unless the user asked for raw bytes.
        let hidesPersonal = !recordsRaw && (recordsTranscript || observer != nil)
        var traced: [WireExchange] = []
        if let observer { exchange.observer = hidesPersonal ? { traced.append($0) } : observer }
        let replay = connection.channel as? ReplayChannel
        let checksRedaction = replay?.hidesAnswerBytes == true
        let scope: FieldBytes.Scope = checksRedaction ? .all : hidesPersonal ? .personal : .none
        var outcome = CardReadOutcome(card: connection.card)
        let polled = PolledSystems()
        do {
            try connection.withExclusiveAccess {
                readProfile(connection, exchange, scope, &outcome, polled)
                if readsNDEFWhenUnrecognised, profile == nil, case .unrecognised? = outcome.error {
                    if let tag = try? connection.ndefTag(through: exchange), let (status, message) = try? tag.read() {
                        outcome.ndef = NDEFContent(tag: tag.name, status: status, message: message)
                    }
                }
            }
        } catch {
            // The transaction could not begin or end (the card left, pcscd stopped).
            if outcome.error == nil { outcome.result.error = ReadError(error) }
        }
        outcome.exchanges = exchange.roundTrips
        // FeliCa frames, Type 2 and Classic READ answers carry no status word.
        let statusWordLength = [.felica, .ultralight, .classic].contains(connection.card.technology) ? 0 : 2
        if let replay, checksRedaction, var report = outcome.result.report {
            PersonalDataHiding.markRedacted(
                &report, profile: outcome.profile, replayed: replay.answered, statusWordLength: statusWordLength)
            outcome.result.report = report
        }
        let report = outcome.result.report ?? CardReport(profile: "", name: "", currency: "")
        if let observer, hidesPersonal {
            var hidden = PersonalDataHiding.masks(of: report, in: traced.map(\.response), statusWordLength: statusWordLength)
            if let replay {  // what the recording hid, shown as it is in the file
                for (i, e) in replay.answered.enumerated() {
                    hidden[i, default: [:]].merge(e.hiddenMasks) { $0 | $1 }
                }
            }
            for (i, var e) in traced.enumerated() {
                e.hidden = hidden[i] ?? [:]
                observer(e)
            }
        }
        if let recorder, hidesPersonal {
            recorder.hide(PersonalDataHiding.masks(of: report, in: recorder.answers, statusWordLength: statusWordLength))
        }
        if let recorder {
            var headers = connection.transcriptHeaders
            if let systems = polled.header(for: connection.card), !headers.contains(where: { $0.key == "systems" }) {
                headers.append(.init(.systems, systems))
            }
            if let now = CivilDate.isoMomentUTC(unixSeconds: Int(Date().timeIntervalSince1970.rounded(.down))) {
                headers.append(.init(.recorded, now))
            }
            if let profile {
                headers.append(.init(.profile, profile.id))
            } else if let p = outcome.profile, outcome.report != nil {
                headers.append(.init(.detected, p.id))
            }
            if let t = outcome.terminalHeader { headers.append(.init(.terminal, t)) }
            outcome.transcript = recorder.transcript(headers: headers)
        }
        return outcome
    }

    private func readProfile(
        _ connection: CardConnection, _ exchange: CardExchange, _ scope: FieldBytes.Scope, _ outcome: inout CardReadOutcome,
        _ polled: PolledSystems
    ) {
        guard let technology = connection.card.technology else {
            // A Type 2 tag: no transit profile reads one; its NDEF message is what it holds.
            let error: ReadError =
                profile.map { .notThisCard(profile: $0.id, reason: "the card is a \(connection.card)") }
                ?? .unrecognised(tried: [], atr: connection.atr)
            outcome.result = ReadResult(report: nil, error: error)
            return
        }
        let session = CardSession(exchange: exchange, atr: connection.atr)
        session.technology = technology
        session.felicaPoller = connection.felicaPoller.map { poll in
            { code in
                let target = try poll(code)
                if let target, code != .wildcard { polled.found.append(target) }
                return target
            }
        }
        if case .classic(let uid?, _) = connection.card {
            // Through libnfc a card that refused a key is halted: it is polled again.
            let reselect: (() throws -> Void)? = (connection.channel as? ISO14443Channel).map { c in
                {
                    if try c.device.pollISO14443A() == nil {
                        throw NFCError(code: .noTarget, function: "nfc_initiator_list_passive_targets")
                    }
                }
            }
            session.classicCard = (uid, classicKeys, reselect)
            session.keyHashesHoldFor = keyHashesHoldFor
        }
        let engine = ProfileEngine(session: session)
        engine.showsPersonalData = showsPersonalData
        engine.showsFullNumbers = showsFullNumbers
        engine.collectsFieldBytes = scope
        engine.terminal = terminal
        defer { outcome.terminalHeader = engine.terminal.header }
        let chosen: Profile
        if let profile {
            chosen = profile
        } else {
            let candidates = registry.profiles
            if candidates.isEmpty {
                outcome.result = ReadResult(report: nil, error: .noProfiles(searched: registry.searchedPlaces))
                return
            }
            do { chosen = try engine.detect(among: candidates) } catch {
                outcome.result = ReadResult(report: nil, error: error)
                return
            }
        }
        outcome.profile = chosen
        onProfileChosen?(chosen)
        outcome.result = engine.read(chosen)
        if profile == nil, readsEveryApplication, outcome.result.error == nil, var report = outcome.result.report {
            (report.otherApplications, report.exchanges) = otherApplications(after: chosen, engine)
            outcome.result.report = report
        }
    }

    /// The reports of the profiles after `chosen` in detection order that recognise the card
    /// too. A profile whose first step is one a recognising profile began with reads the same
    /// application another way (Shanghai's card is a City Union card), and one whose `detect.atr`
    /// names other cards reads another kind of card: neither is asked. The
    /// search ends quietly when the card cannot be asked any more (it left, the replay ended):
    /// the command that got no answer is not counted in the exchanges returned (the read's).
    private func otherApplications(after chosen: Profile, _ engine: ProfileEngine) -> ([CardReport], exchanges: Int) {
        let order = ProfileEngine.detectionOrder(registry.profiles, atr: engine.session.atr)
        guard let at = order.firstIndex(where: { $0.id == chosen.id }) else { return ([], engine.session.exchanges) }
        var opened: Set<String> = [Self.firstStep(chosen)]
        var found: [CardReport] = []
        // A profile that names its card's ATRs, none of them this card's, reads another kind of
        // card (Calypso's, a Korean purse's): not an application beside the one found.
        let atr = engine.session.atr
        let candidates = order[(at + 1)...].filter { p in p.detect.atr.isEmpty || atr.map(p.matchesATR) ?? true }
        for p in candidates where !opened.contains(Self.firstStep(p)) {
            let before = engine.session.exchanges
            switch engine.readIfPresent(p) {
            case .absent: continue
            case .unreachable: return (found, before)
            case .read(let result):
                guard var r = result.report else { return (found, before) }
                r.exchanges = engine.session.exchanges - before
                found.append(r)
                opened.insert(Self.firstStep(p))
                if result.error != nil { return (found, engine.session.exchanges) }
            }
        }
        return (found, engine.session.exchanges)
    }

    /// What a profile asks the card first: the application it reads.
    static func firstStep(_ p: Profile) -> String { p.steps.first.map { String(describing: $0.action) } ?? "" }
}

/// What a read of one presented card gave.
public struct CardReadOutcome {
    /// What was presented.
    public var card: PresentedCard
    /// The profile used (given, or found by detection).
    public var profile: Profile?
    /// The report (complete, or partial when there is an error) and the error.
    public var result = ReadResult(report: nil, error: nil)
    /// No transit profile recognised the card, but it is an NFC Forum tag: its NDEF content.
    public var ndef: NDEFContent?
    /// Every exchange, when ``CardReader/recordsTranscript`` was set.
    public var transcript: Transcript?
    /// Round trips made with the card (NDEF fallback included).
    public var exchanges = 0
    /// The terminal values that change between reads (date, time, unpredictable number) the
    /// read gave the card, as the transcript's `terminal` header records them.
    public var terminalHeader: String?

    /// An outcome with nothing read yet.
    public init(card: PresentedCard) { self.card = card }

    /// The report, as `cardscan --json` prints it; nil when nothing was read.
    public var report: CardReport? { result.report }
    /// Why the read did not complete (the report, if any, is then partial).
    public var error: ReadError? { result.error }
}

/// An NFC Forum tag's NDEF status and message.
public struct NDEFContent {
    /// `type2`, `type3` or `type4`.
    public var tag: String
    /// Read-only or read-write, and the capacity.
    public var status: NDEFStatus
    /// Nil when the tag holds no message.
    public var message: NDEFMessage?

    /// A tag's content as read.
    public init(tag: String, status: NDEFStatus, message: NDEFMessage?) {
        self.tag = tag
        self.status = status
        self.message = message
    }
}
