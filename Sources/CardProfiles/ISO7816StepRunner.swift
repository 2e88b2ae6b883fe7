import APDU

/// Runs ISO 7816 steps: command APDUs (SELECT, READ BINARY, …) and READ RECORD loops, through
/// the session's selection-aware cache (ISO/IEC 7816-4 §11.2, §11.3).
final class ISO7816StepRunner: StepRunner {
    let session: CardSession

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .iso7816(let action) = step.action else { preconditionFailure("not an ISO 7816 step") }
        do {
            switch action {
            case .command(let c):
                let r = try session.send(c)
                if r.statusWord.isSuccess { return .answered(.data(r.data)) }
                var result = StepResult.refused(.status(r.statusWord))
                result.command = c.description
                return result
            case .readRecords(let sfi, let first, let last, let length, let tryAll):
                return try readRecords(sfi: sfi, first: first, last: last, length: length, tryAll: tryAll, end: step.end)
            }
        } catch {
            throw ReadError(error)
        }
    }

    /// READ RECORD from `first` until `last`, an `end` status word, or an error status (the
    /// records read so far are kept with the refusal).
    private func readRecords(sfi: UInt8?, first: UInt8, last: UInt8?, length: Int?, tryAll: Bool, end: [StatusWord]) throws -> StepResult {
        var records: [[UInt8]] = []
        if tryAll, let length {
            let r = try session.send(.readRecord(first, sfi: sfi, allFromNumber: true, length: 256))
            if r.statusWord.isSuccess, !r.data.isEmpty, r.data.count % length == 0 {
                records = stride(from: 0, to: r.data.count, by: length).map { Array(r.data[$0..<($0 + length)]) }
                if let last { records = Array(records.prefix(Int(last) - Int(first) + 1)) }
                return .answered(.records(records))
            }
        }
        var n = Int(first)
        while n <= Int(last ?? 254) {
            let c = CommandAPDU.readRecord(UInt8(n), sfi: sfi, length: length ?? 256)
            let r: ResponseAPDU
            do { r = try session.send(c) } catch  where !records.isEmpty {
                var result = StepResult.answered(.records(records))
                result.interrupted = ReadError(error)
                return result
            }
            if end.contains(r.statusWord) { break }
            guard r.statusWord.isSuccess else {
                var result = StepResult.refused(.status(r.statusWord), keeping: .records(records))
                result.command = c.description
                return result
            }
            records.append(r.data)
            n += 1
        }
        return .answered(.records(records))
    }
}
