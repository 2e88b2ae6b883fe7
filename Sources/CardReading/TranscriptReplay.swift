import APDU
import CardProfiles
import FeliCaCommands
import PCSCTransport

/// Runs a profile over a recorded transcript, as `cardscan replay` and `cardscan test` do:
/// the transcript becomes a ``CardConnection`` (a replay channel, and the card its headers
/// describe) read by ``CardReader`` like any presented card.
public enum TranscriptReplay {
    /// What a replay gave.
    public struct Outcome {
        /// The report and error, as for a card.
        public var result: ReadResult
        /// The profile used (given, from the transcript's header, or found by detection).
        public var profile: Profile?
        /// Strict replay: recorded exchanges the profile never sent (a regression too).
        public var unused: [Transcript.Entry]
    }

    /// A replay that ran but does not match its transcript.
    public enum Failure: UserFacingError {
        /// Recorded exchanges of `file` (at these lines) the profile never sent.
        case unusedExchanges(file: String, lines: [Int])
        /// The file, the first unused line, and how many exchanges were never sent.
        public var message: String {
            switch self {
            case .unusedExchanges(let f, let lines):
                return
                    "\(f):\(lines[0]): the profile stopped before \(lines.count) recorded exchange(s) (lines \(lines.map(String.init).joined(separator: ", ")))"
            }
        }
        /// Re-record, or replay leniently.
        public var hint: String? { "the profile now sends fewer commands than were recorded: re-record the card, or replay leniently" }
    }

    /// A FeliCa card's answer to Polling, from a transcript's `idm`, `pmm` and `system-code`
    /// headers: the card answers the wildcard, its own system code and those in `systems`
    /// (with the IDm `systems` gives for one, else the first system's).
    public static func feliCaPoller(from transcript: Transcript) -> FeliCaPoller {
        let target = feliCaTarget(transcript)
        let systems = transcript.otherSystemIDms
        return { requested in
            guard let target else { return nil }
            if requested == .wildcard || requested == target.systemCode { return target }
            guard let system = systems.first(where: { $0.code == requested.value }) else { return nil }
            let idm = system.idm.flatMap { try? IDm($0) } ?? target.idm
            return FeliCaTarget(idm: idm, pmm: target.pmm, systemCode: requested)
        }
    }

    static func feliCaTarget(_ transcript: Transcript) -> FeliCaTarget? {
        guard let idm = transcript.bytes(header: .idm).flatMap({ try? IDm($0) }),
            let pmm = transcript.bytes(header: .pmm).flatMap({ try? PMm($0) }),
            let code = transcript.systemCode
        else { return nil }
        return FeliCaTarget(idm: idm, pmm: pmm, systemCode: SystemCode(code))
    }

    /// The card a transcript recorded, answering from it. A FeliCa transcript needs its
    /// `idm`, `pmm` and `system-code` headers.
    public static func connection(
        _ transcript: Transcript, file: String, lenient: Bool = false
    ) throws(TranscriptError) -> (CardConnection, ReplayChannel) {
        let channel = ReplayChannel(transcript, mode: lenient ? .lenient : .strict, file: file)
        let reader = transcript[header: .reader] ?? "transcript"
        switch transcript.technology {
        case "felica":
            guard let target = feliCaTarget(transcript) else {
                throw TranscriptError(
                    file: file, line: 1, column: 1,
                    reason: "a felica transcript needs '# idm:', '# pmm:' (8 bytes each) and '# system-code:' (2 bytes) headers")
            }
            return (
                CardConnection(
                    card: .felica(target), channel: channel, reader: reader, atr: transcript.atr,
                    felicaPoller: feliCaPoller(from: transcript)), channel
            )
        case "type2":
            return (
                CardConnection(card: .type2Tag(uid: transcript.bytes(header: .uid)), channel: channel, reader: reader, atr: transcript.atr),
                channel
            )
        case "classic":
            // The size from a PC/SC reader's pseudo-ATR when there is one (through libnfc: a 1K).
            let sectors = transcript.atr.flatMap { PCSCClassicChannel.kind(atr: $0)?.sectors } ?? 16
            let card = PresentedCard.classic(uid: transcript.bytes(header: .uid), sectors: sectors)
            return (CardConnection(card: card, channel: channel, reader: reader, atr: transcript.atr), channel)
        default:
            let card = PresentedCard.ISO7816Card(
                atr: transcript.atr, transmissionProtocol: transcript[header: .protocol], uid: transcript.bytes(header: .uid))
            return (CardConnection(card: .iso7816(card), channel: channel, reader: reader, atr: transcript.atr), channel)
        }
    }

    /// Which profile to use: `explicit` (an id or file) wins, then the transcript's
    /// `profile` header, then detection among `registry`'s profiles.
    public static func run(
        _ transcript: Transcript, file: String, registry: ProfileRegistry,
        explicit: String? = nil, lenient: Bool = false, showsPersonalData: Bool = false,
        observer: ((WireExchange) -> Void)? = nil, showsFullNumbers: Bool = false, tracesRaw: Bool = false
    ) throws -> Outcome {
        let (connection, channel) = try connection(transcript, file: file, lenient: lenient)
        var reader = CardReader(registry: registry)
        reader.readsNDEFWhenUnrecognised = false
        reader.observer = observer
        reader.showsPersonalData = showsPersonalData
        reader.showsFullNumbers = showsFullNumbers
        reader.recordsRaw = tracesRaw
        if transcript.technology == "classic" {
            reader.classicKeys = [ReplayKeys.standIns(transcript, uid: transcript.bytes(header: .uid))]
            reader.keyHashesHoldFor = .some(transcript[header: .detected] ?? transcript[header: .profile])
        }
        if let text = transcript[header: .terminal] {
            do throws(TerminalHeader.Problem) { reader.terminal.fixed = try TerminalHeader.values(text[...]) } catch {
                // The parser refuses a wrong `terminal` header at its line; this is for a
                // transcript built in code, whose headers follow the magic line as written.
                let line = (transcript.headers.firstIndex { $0.key == Transcript.HeaderKey.terminal.rawValue } ?? 0) + 2
                throw TranscriptError(file: file, line: line, column: 1, reason: error.reason)
            }
        }
        if let explicit, ProfileRegistry.namesFile(explicit), transcript[header: .detected] != nil {
            // Recorded by detection: the profile file takes part in it (replacing the profile of
            // its id), so the replay sends what the recording's detection sent.
            reader.registry = registry.adding(try ProfileRegistry.loadFile(explicit), file: explicit)
        } else if let explicit {
            reader.profile = try registry.resolve(explicit)
        } else if let id = transcript[header: .profile] {
            do { reader.profile = try registry.resolve(id) } catch ProfileRegistry.LookupError.noSuchProfile {
                throw ProfileRegistry.LookupError.transcriptProfileUnknown(id, transcript: file)
            }
        }
        var outcome = reader.read(connection)
        // `--profile` of another card's recording: its first command has no answer in the file.
        // A live card would answer "no such application": not this card, not a partial read.
        if let explicit = reader.profile?.id, explicit != (transcript[header: .profile] ?? transcript[header: .detected]),
            case .replay(let mismatch, let place?)? = outcome.error, outcome.exchanges <= 1
        {
            let first = mismatch.message.split(separator: "\n").first.map(String.init) ?? mismatch.message
            outcome.result = ReadResult(
                report: nil,
                error: .notThisCard(profile: explicit, reason: "the recording holds no answer to its step '\(place.step)' (\(first))"))
        }
        let unused = lenient || outcome.error != nil ? [] : Array(transcript.entries.suffix(channel.remaining))
        return Outcome(result: outcome.result, profile: outcome.profile, unused: unused)
    }
}
