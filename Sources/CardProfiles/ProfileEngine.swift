import APDU
import FeliCaCommands

/// Runs profiles over a card session: detection (which profile fits) and reading (the report).
public final class ProfileEngine {
    public let session: CardSession
    var answers = Answers()
    /// The IDm the last FeliCa poll returned (commands carry it).
    var felicaIDm: [UInt8]?
    /// The profile variant the card turned out to be (see ``identifyVariant(_:)``).
    var variantName: String?

    enum Answer {
        case data([UInt8])
        case records([[UInt8]])
        case absent(StatusWord)
    }

    /// The answers read so far, by step name. A profile has a handful of steps with short
    /// names: a linear search compares small strings faster than a dictionary hashes them.
    struct Answers {
        private var names: [String] = []
        private var values: [Answer] = []

        subscript(name: String) -> Answer? {
            get {
                for i in names.indices where names[i] == name { return values[i] }
                return nil
            }
            set {
                if let i = names.firstIndex(of: name) {
                    if let newValue { values[i] = newValue } else { names.remove(at: i); values.remove(at: i) }
                } else if let newValue {
                    names.append(name); values.append(newValue)
                }
            }
        }
    }

    public init(session: CardSession) { self.session = session }

    // MARK: Detection

    /// The order profiles are tried in: ATR matches first, then `detect.order`, then the
    /// profile with more `require` checks (more specific), then id.
    public static func detectionOrder(_ profiles: [Profile], atr: [UInt8]?) -> [Profile] {
        func atrRank(_ p: Profile) -> Int {
            guard let atr else { return 1 }
            return p.detect.atr.contains { pattern in
                pattern.count == atr.count && zip(pattern, atr).allSatisfy { $0 == nil || $0! == $1 }
            } ? 0 : 1
        }
        return profiles.sorted {
            (atrRank($0), $0.detect.order, -$0.detect.require.count, $0.id) < (atrRank($1), $1.detect.order, -$1.detect.require.count, $1.id)
        }
    }

    /// The first profile (in ``detectionOrder(_:atr:)``) whose detection steps succeed and
    /// whose `require` checks hold. Transport failures propagate.
    public func detect(among profiles: [Profile]) throws(ReadError) -> Profile {
        let ordered = Self.detectionOrder(profiles.filter { $0.technology == session.technology }, atr: session.atr)
        for p in ordered {
            answers = Answers()
            if try recognises(p) == nil { return p }
        }
        throw .unrecognised(tried: ordered.map(\.id), atr: session.atr)
    }

    /// Runs the detection steps; nil when the card fits, else why not.
    func recognises(_ p: Profile) throws(ReadError) -> String? {
        for step in p.steps.prefix(p.detect.lastStep + 1) {
            if let sw = try run(step, in: p, detecting: true), !step.optional {
                if case .poll(let code) = step.action { return "the card has no system \(SystemCode(code)) (step '\(step.name)': Polling got no answer)" }
                return "step '\(step.name)' answered \(sw)"
            }
        }
        for q in p.detect.require {
            guard case .data(let bytes) = answers[q.answer] else { return "answer '\(q.answer)' is missing" }
            if q.equals.isEmpty { continue }
            guard bytes.count >= q.offset + q.equals.count else {
                return "answer '\(q.answer)' has \(bytes.count) bytes, too short for the check at line \(q.line)"
            }
            let got = Array(bytes[q.offset..<(q.offset + q.equals.count)])
            let masked = q.mask.map { m in zip(got, m).map { $0 & $1 } } ?? got
            if masked != q.equals {
                return "bytes \(q.offset)… of '\(q.answer)' are \(got.hexString), not \(q.equals.hexString) (line \(q.line))"
            }
        }
        return nil
    }

    // MARK: Variants

    /// Which variant the card is: asks the polled system which of the variants' services
    /// exist (Request Service, 32 nodes a command) and returns the name of the one variant
    /// with a service present; nil when none or several match, or the card does not answer
    /// Request Service properly (the report then keeps the profile's name). A transport
    /// failure (card removed) propagates.
    func identifyVariant(_ p: Profile) throws(ReadError) -> String? {
        guard let idmBytes = felicaIDm, let idm = try? IDm(idmBytes) else { return nil }
        var nodes: [UInt16] = []
        for v in p.variants { for s in v.services where !nodes.contains(s) { nodes.append(s) } }
        var present: Set<UInt16> = []
        for start in stride(from: 0, to: nodes.count, by: 32) {
            let chunk = Array(nodes[start..<min(start + 32, nodes.count)])
            do {
                let frame = try FeliCaCommand.requestService(idm, nodes: chunk.map(ServiceCode.init))
                let versions = try FeliCaResponse.requestService(try session.transmitFrame(frame), idm: idm)
                guard versions.count == chunk.count else { return nil }
                for (code, version) in zip(chunk, versions) where version != 0xFFFF { present.insert(code) }
            } catch is FeliCaError {
                return nil
            } catch {
                throw Self.readError(error)
            }
        }
        let matching = p.variants.filter { $0.services.contains(where: present.contains) }
        return matching.count == 1 ? matching[0].name : nil
    }

    // MARK: Reading

    /// Reads the card with `profile`: detection steps first (a mismatch is `notThisCard`),
    /// then every step, then the report. A failure keeps what was read (`partial`).
    public func read(_ p: Profile) -> ReadResult {
        answers = Answers()
        variantName = nil
        if p.technology != session.technology {
            // An ISO 7816 profile on a FeliCa card (or the reverse) would send commands the card
            // cannot understand: not this card, before anything is sent.
            return ReadResult(report: nil, error: .notThisCard(profile: p.id, reason: "the card speaks \(Self.words(session.technology)) and the profile reads \(Self.words(p.technology)) cards"))
        }
        do {
            if let why = try recognises(p) { return ReadResult(report: nil, error: .notThisCard(profile: p.id, reason: why)) }
        } catch {
            if case .notThisCard = error { return ReadResult(report: nil, error: error) }
            return ReadResult(report: partialReport(p), error: error)
        }
        var failure: ReadError? = nil
        for step in p.steps.dropFirst(p.detect.lastStep + 1) {
            do { _ = try run(step, in: p, detecting: false) } catch { failure = error; break }
        }
        if failure == nil, !p.variants.isEmpty {
            do { variantName = try identifyVariant(p) } catch { failure = error }
        }
        do {
            var report = try buildReport(p)
            report.partial = failure != nil
            report.exchanges = session.exchanges
            return ReadResult(report: report, error: failure)
        } catch {
            return ReadResult(report: failure == nil ? nil : partialReport(p), error: failure ?? error)
        }
    }

    private func partialReport(_ p: Profile) -> CardReport {
        var r = (try? buildReport(p, lenient: true)) ?? CardReport(profile: p.id, name: p.name, currency: p.currency)
        r.partial = true
        r.exchanges = session.exchanges
        return r
    }

    /// Sends one step. Returns the status word when it ended in error and `detecting`, or
    /// the step is optional; throws otherwise.
    @discardableResult
    func run(_ step: Step, in p: Profile, detecting: Bool) throws(ReadError) -> StatusWord? {
        if let u = step.useIfPresent, case .data(let outer)? = answers[u.answer],
           let node = try? BERTLV.parse(outer), let hit = node.first(path: u.tlvPath) {
            answers[step.name] = .data(hit.value)
            return nil
        }
        do {
            switch step.action {
            case .command(let c):
                let r = try session.send(c)
                if r.statusWord.isSuccess { answers[step.name] = .data(r.data); return nil }
                answers[step.name] = .absent(r.statusWord)
                if detecting || step.optional { return r.statusWord }
                throw ReadError.unexpectedStatus(profile: p.id, step: step.name, line: step.line,
                                                 command: c.description, status: r.statusWord)
            case .readRecords(let sfi, let first, let last, let length, let tryAll):
                var records: [[UInt8]] = []
                defer { answers[step.name] = .records(records) }
                if tryAll, let length {
                    let r = try session.send(.readRecord(first, sfi: sfi, allFromNumber: true, length: 256))
                    if r.statusWord.isSuccess, !r.data.isEmpty, r.data.count % length == 0 {
                        records = stride(from: 0, to: r.data.count, by: length).map { Array(r.data[$0..<($0 + length)]) }
                        if let last { records = Array(records.prefix(Int(last) - Int(first) + 1)) }
                        return nil
                    }
                }
                var n = Int(first)
                while n <= Int(last ?? 254) {
                    let c = CommandAPDU.readRecord(UInt8(n), sfi: sfi, length: length ?? 256)
                    let r = try session.send(c)
                    if step.end.contains(r.statusWord) { break }
                    guard r.statusWord.isSuccess else {
                        if detecting || step.optional { return records.isEmpty ? r.statusWord : nil }
                        throw ReadError.unexpectedStatus(profile: p.id, step: step.name, line: step.line,
                                                         command: c.description, status: r.statusWord)
                    }
                    records.append(r.data)
                    n += 1
                }
                return nil
            case .poll(let systemCode):
                guard let target = try session.poll(systemCode: systemCode), target.count == 18 else {
                    answers[step.name] = .absent(StatusWord(0x6A82))
                    if detecting || step.optional { return StatusWord(0x6A82) }
                    throw ReadError.felica(profile: p.id, step: step.name, line: step.line, reason: "no system \(SystemCode(systemCode)) on the card")
                }
                answers[step.name] = .data(target)
                felicaIDm = Array(target.prefix(8))
                return nil
            case .readBlocks(let service, let first, let count, let perCommand, let records):
                guard let idmBytes = felicaIDm, let idm = try? IDm(idmBytes) else {
                    throw ReadError.felica(profile: p.id, step: step.name, line: step.line, reason: "read-blocks needs a poll step before it")
                }
                var blocks: [[UInt8]] = []
                defer { answers[step.name] = records ? .records(blocks) : .data(blocks.flatMap { $0 }) }
                for chunk in try FeliCaCommand.readPlan(first: first, count: count, perCommand: perCommand) {
                    let frame = try FeliCaCommand.readWithoutEncryption(idm, services: [ServiceCode(service)], blocks: chunk)
                    do {
                        blocks += try FeliCaResponse.readWithoutEncryption(try session.transmitFrame(frame), idm: idm, expectedBlocks: chunk.count)
                    } catch let e as FeliCaError {
                        // Past the last block of a cyclic service the card answers A8 (illegal block number): the end.
                        if case .status(let f) = e, f.flag2 == 0xA8, !blocks.isEmpty { return nil }
                        if detecting || step.optional { return StatusWord(0x6A82) }
                        throw ReadError.felica(profile: p.id, step: step.name, line: step.line, reason: e.description)
                    }
                }
                return nil
            }
        } catch let e as FeliCaError {
            throw .felica(profile: p.id, step: step.name, line: step.line, reason: e.description)
        } catch {
            throw Self.readError(error)
        }
    }

    static func words(_ t: Profile.Technology) -> String { t == .felica ? "FeliCa" : "ISO 7816" }

    /// What an exchange failure means for a read: the card or reader failed, a replay
    /// diverged, or the exchange layer refused an answer.
    static func readError(_ error: Error) -> ReadError {
        switch error {
        case let e as ReadError: return e
        case let e as CardTransportError: return .transport(e)
        case let e as ReplayChannel.Mismatch: return .replay(e)
        case let e as UserFacingError: return .exchange(e)
        default: return .exchange(ReplayedTransportFailure(failure: .other("\(error)"), line: 0))
        }
    }
}
