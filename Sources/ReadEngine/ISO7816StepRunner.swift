import APDU
import CardReports
import ProfileLanguage

/// Runs ISO 7816 steps: command APDUs (SELECT, READ BINARY, …), SELECTs with fallbacks and
/// READ RECORD loops, through the session's selection-aware cache (ISO/IEC 7816-4 §11.2,
/// §11.3).
///
/// Two card quirks are handled here so that a card without them costs no extra exchange:
/// a class the card refuses (`6E 00`) is replaced by the profile's next one, and kept; a READ
/// RECORD whose Le-00 answer is empty is asked again with the step's `retry-length`, and from
/// then on asked that way.
final class ISO7816StepRunner: StepRunner {
    let session: CardSession
    /// The class the card last accepted, tried first next time.
    private var acceptedClass: UInt8?
    /// The card answered a READ RECORD with Le 00 by nothing: ask with the explicit length.
    private var emptyOnLeZero = false
    /// The last SELECT failed: a step that reads "the current file" would read the wrong one
    /// (Lisboa's ID file after a card refused `SELECT 0003`), so it is not sent.
    private var selectionFailed = false

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .iso7816(let action) = step.action else { preconditionFailure("not an ISO 7816 step") }
        do {
            if selectionFailed, action.readsCurrentFile { return .refused(.notSelected) }
            switch action {
            case .command(let c, let retry):
                let (r, sent) = try read(c, retryLength: retry, profile)
                if c.ins == 0xA4 { selectionFailed = !r.statusWord.isSuccess }
                if r.statusWord.isSuccess, let more = step.continuation {
                    return try continued(c, first: r.data, more, profile)
                }
                if r.statusWord.isSuccess { return .answered(.data(r.data)) }
                var result = StepResult.refused(.status(r.statusWord))
                result.command = { sent.description }
                return result
            case .select(let candidates):
                var last: (ResponseAPDU, CommandAPDU)?
                for c in candidates {
                    let (r, sent) = try send(c, profile)
                    if r.statusWord.isSuccess {
                        selectionFailed = false
                        return .answered(.data(r.data))
                    }
                    last = (r, sent)
                }
                selectionFailed = true
                let (answer, sent) = last!
                var result = StepResult.refused(.status(answer.statusWord))
                result.command = { sent.description }
                return result
            case .readRecords(let reads):
                return try readRecords(reads, end: step.end, profile)
            case .recordRanges(let ranges):
                return try readRanges(ranges, profile)
            case .dependent:
                preconditionFailure("the engine resolves a dependent step before it runs")
            }
        } catch {
            throw ReadError(error)
        }
    }

    /// A `continue` step: `c` again with its data byte set to the records so far, appended,
    /// until `times` more, an error status or an empty answer (what was read is kept; a card
    /// taken away meanwhile keeps it too, as a partial answer).
    private func continued(_ c: CommandAPDU, first: [UInt8], _ more: (unit: Int, times: Int), _ profile: Profile) throws -> StepResult {
        var data = first
        for _ in 0..<more.times {
            let count = data.count / more.unit
            guard !data.isEmpty, count <= 0xFF else { break }
            var next = c
            next.data = [UInt8(count)]
            let r: ResponseAPDU
            do { (r, _) = try read(next, retryLength: nil, profile) } catch let e as CardTransportError {
                var result = StepResult.answered(.data(data))
                result.interrupted = .transport(e)
                return result
            }
            guard r.statusWord.isSuccess, !r.data.isEmpty else { break }
            data += r.data
        }
        return .answered(.data(data))
    }

    /// Sends `c` in the profile's classes: the last accepted first, the next on `6E 00`.
    /// Only class-00 commands are re-classed (a proprietary command keeps its class).
    private func send(_ c: CommandAPDU, _ profile: Profile) throws -> (ResponseAPDU, CommandAPDU) {
        guard c.cla == 0x00, profile.classes != [0x00] else { return (try session.send(c), c) }
        var order = profile.classes
        if let a = acceptedClass, let i = order.firstIndex(of: a) { order.insert(order.remove(at: i), at: 0) }
        var sent = c
        for (k, cla) in order.enumerated() {
            sent.cla = cla
            let r = try session.send(sent)
            if r.statusWord == .classNotSupported, k + 1 < order.count { continue }
            if r.statusWord != .classNotSupported { acceptedClass = cla }
            return (r, sent)
        }
        preconditionFailure("a profile has at least one class")
    }

    /// `send`, and for a READ RECORD with Le 00 and a `retryLength`: asked again with that Le
    /// when the answer is empty (and asked that way at once once the card has shown it needs it).
    private func read(_ c: CommandAPDU, retryLength: Int?, _ profile: Profile) throws -> (ResponseAPDU, CommandAPDU) {
        guard let retryLength, c.ins == 0xB2, c.le == 256 else { return try send(c, profile) }
        var explicit = c
        explicit.le = retryLength
        if emptyOnLeZero { return try send(explicit, profile) }
        let first = try send(c, profile)
        guard first.0.statusWord.isSuccess, first.0.data.isEmpty else { return first }
        emptyOnLeZero = true
        return try send(explicit, profile)
    }

    /// The records of each range, in order. The first refusal ends the step with what was
    /// read: a card that lists its records (EMV's AFL) is not asked for others, and a phone
    /// wallet that counts refusals (an error budget) is not provoked further.
    private func readRanges(_ ranges: [ISO7816Step.RecordRange], _ profile: Profile) throws -> StepResult {
        var records: [[UInt8]] = []
        for range in ranges {
            for n in range.first...range.last {
                let r: ResponseAPDU
                let sent: CommandAPDU
                do { (r, sent) = try send(.readRecord(n, sfi: range.sfi, length: 256), profile) } catch  where !records.isEmpty {
                    var result = StepResult.answered(.records(records))
                    result.interrupted = ReadError(error)
                    return result
                }
                guard r.statusWord.isSuccess else {
                    var result = StepResult.refused(.status(r.statusWord), keeping: .records(records))
                    result.command = { sent.description }
                    return result
                }
                records.append(r.data)
            }
        }
        return .answered(.records(records))
    }

    /// READ RECORD from `first` until `last`, an `end` status word, an error status (the
    /// records read so far are kept with the refusal), or a record whose `sequence` is 1.
    private func readRecords(_ reads: ISO7816Step.RecordReads, end: [StatusWord], _ profile: Profile) throws -> StepResult {
        var records: [[UInt8]] = []
        if reads.tryAllFirst, let length = reads.length {
            let (r, _) = try send(.readRecord(reads.first, sfi: reads.sfi, allFromNumber: true, length: 256), profile)
            if r.statusWord.isSuccess, !r.data.isEmpty, r.data.count % length == 0 {
                records = stride(from: 0, to: r.data.count, by: length).map { Array(r.data[$0..<($0 + length)]) }
                if let last = reads.last { records = Array(records.prefix(Int(last) - Int(reads.first) + 1)) }
                return .answered(.records(records))
            }
        }
        var n = Int(reads.first)
        while n <= Int(reads.last ?? 254) {
            let c = CommandAPDU.readRecord(UInt8(n), sfi: reads.sfi, length: reads.length ?? 256)
            let r: ResponseAPDU
            let sent: CommandAPDU
            do { (r, sent) = try read(c, retryLength: reads.retryLength, profile) } catch  where !records.isEmpty {
                var result = StepResult.answered(.records(records))
                result.interrupted = ReadError(error)
                return result
            }
            if end.contains(r.statusWord) { break }
            guard r.statusWord.isSuccess else {
                var result = StepResult.refused(.status(r.statusWord), keeping: .records(records))
                result.command = { sent.description }
                return result
            }
            records.append(r.data)
            n += 1
            if let q = reads.transactionNumber, r.data.count >= q.offset + q.length,
                r.data[q.offset..<(q.offset + q.length)].reduce(0, { $0 << 8 | Int($1) }) == 1
            {
                break  // the card's first transaction: there is no older record to ask for
            }
        }
        return .answered(.records(records))
    }
}
