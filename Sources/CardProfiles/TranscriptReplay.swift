import APDU

/// Runs a profile over a recorded transcript, as `cardscan replay` and `cardscan test` do.
public enum TranscriptReplay {
    public struct Outcome {
        public var result: ReadResult
        public var profile: Profile?
        /// Strict replay: recorded exchanges the profile never sent (a regression too).
        public var unused: [Transcript.Entry]
    }

    public enum Failure: UserFacingError {
        case unusedExchanges(file: String, lines: [Int])
        public var message: String {
            switch self {
            case .unusedExchanges(let f, let lines):
                return "\(f):\(lines[0]): the profile stopped before \(lines.count) recorded exchange(s) (lines \(lines.map(String.init).joined(separator: ", ")))"
            }
        }
        public var hint: String? { "the profile now sends fewer commands than were recorded: re-record, or replay with --lenient" }
    }

    /// A FeliCa card's answer to Polling, from a transcript's `idm`, `pmm` and `system-code`
    /// headers: the card answers the wildcard and its own system code.
    public static func feliCaPoller(from transcript: Transcript) -> (UInt16) -> [UInt8]? {
        let idm = transcript[header: "idm"].flatMap { try? Hex.parse($0) } ?? []
        let pmm = transcript[header: "pmm"].flatMap { try? Hex.parse($0) } ?? []
        let sc = transcript[header: "system-code"].flatMap { try? Hex.parse($0) } ?? []
        let systems = (transcript[header: "systems"] ?? "").split(separator: " ").compactMap { UInt16($0, radix: 16) }
        return { requested in
            guard idm.count == 8, pmm.count == 8, sc.count == 2 else { return nil }
            let own = UInt16(sc[0]) << 8 | UInt16(sc[1])
            guard requested == 0xFFFF || requested == own || systems.contains(requested) else { return nil }
            return idm + pmm + [UInt8(requested == 0xFFFF ? own >> 8 : requested >> 8), UInt8(requested == 0xFFFF ? own & 0xFF : requested & 0xFF)]
        }
    }

    /// Which profile to use: `explicit` (an id or file) wins, then the transcript's
    /// `profile` header, then detection among `registry`'s profiles.
    public static func run(_ transcript: Transcript, file: String, registry: ProfileRegistry,
                           explicit: String? = nil, lenient: Bool = false,
                           observer: ((WireExchange) -> Void)? = nil) throws -> Outcome {
        let channel = ReplayChannel(transcript, mode: lenient ? .lenient : .strict, file: file)
        let exchange = CardExchange(channel: channel)
        exchange.observer = observer
        let session = CardSession(exchange: exchange, atr: transcript.atr)
        if transcript.technology == "felica" {
            session.technology = .felica
            session.felicaPoller = feliCaPoller(from: transcript)
        }
        let engine = ProfileEngine(session: session)
        let profile: Profile
        if let explicit { profile = try registry.resolve(explicit) }
        else if let id = transcript[header: "profile"] {
            do { profile = try registry.resolve(id) } catch ProfileRegistry.LookupError.noSuchProfile {
                throw ProfileRegistry.LookupError.transcriptProfileUnknown(id, transcript: file)
            }
        }
        else {
            do { profile = try engine.detect(among: registry.profiles) } catch {
                return Outcome(result: ReadResult(report: nil, error: error), profile: nil, unused: [])
            }
        }
        let result = engine.read(profile)
        let unused = lenient || result.error != nil ? [] : Array(transcript.entries.suffix(channel.remaining))
        return Outcome(result: result, profile: profile, unused: unused)
    }
}
