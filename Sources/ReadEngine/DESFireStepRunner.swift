import APDU
import CardReports
import DESFireCommands
import ProfileLanguage

/// Runs DESFire steps: native commands wrapped in ISO 7816-4 APDUs (docs/cards/desfire.md),
/// through the session (so an application selection is a selection context like any SELECT,
/// and nothing is sent twice), `91 AF` chains followed with ADDITIONAL FRAME.
///
/// The first DESFire step of a read selects the card level (`00 00 00`) first: an application
/// a previous read left selected must not answer instead (Metrodroid's PC/SC note: "doesn't
/// work the second time around").
final class DESFireStepRunner: StepRunner {
    let session: CardSession
    private var started = false
    private var application: DESFireAID = .picc
    /// The card's application list, asked for (GetApplicationIDs) after the first application
    /// a select did not find: later selects of an application not on it are answered from it,
    /// so detection costs one command instead of one per DESFire profile. `.some(nil)`: the
    /// list needs a key (hidden applications are then found by selecting them).
    private var listed: Set<DESFireAID>??
    /// The card answered the card-level SelectApplication with an ISO 7816 status (`6E 00`,
    /// `6D 00`): it does not speak DESFire, so later DESFire steps get the same answer without a command
    /// (detection on an EMV or Calypso card costs one probe, not one per DESFire profile).
    private var notDESFire: StatusWord?

    init(session: CardSession) { self.session = session }

    /// A card that answers a wrapped command with an ISO 7816 status (6E 00, 6D 00): it does not
    /// speak DESFire, which is "not this card", not a broken answer.
    private struct NotDESFire: Error { let statusWord: StatusWord }

    /// The whole answer, or the status that ended it, through the session's memory of answers.
    private func transceive(_ command: DESFireCommand) throws -> (data: [UInt8], status: DESFireStatus) {
        do { return try DESFireSession(send: session.send).answer(command) } catch DESFireError.notDESFire(let sw, _) {
            throw NotDESFire(statusWord: sw)
        }
    }

    private func refused(_ status: DESFireStatus, _ command: DESFireCommand, keeping: Answer? = nil) -> StepResult {
        var result = StepResult.refused(.status(StatusWord(0x91, status.rawValue)), keeping: keeping)
        result.command = { command.description }
        return result
    }

    /// GetApplicationIDs at the card level (selected again first if an application is);
    /// nil when the list needs a key or does not parse.
    private func applicationList() throws -> Set<DESFireAID>? {
        if application != .picc {
            guard try transceive(.selectApplication(.picc)).status == .ok else { return nil }
            application = .picc
        }
        let (data, status) = try transceive(.getApplicationIDs)
        guard status == .ok, let list = try? DESFireAID.list(data) else { return nil }
        return Set(list)
    }

    private static func notDESFireResult(_ sw: StatusWord) -> StepResult {
        var result = StepResult.refused(.status(sw))
        result.command = { "a DESFire command (wrapped, to be answered 91 xx)" }
        return result
    }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .desfire(let action) = step.action else { preconditionFailure("not a DESFire step") }
        if let sw = notDESFire { return Self.notDESFireResult(sw) }
        do {
            if !started {
                started = true
                do { _ = try transceive(.selectApplication(.picc)) } catch let e as NotDESFire {
                    notDESFire = e.statusWord  // the card level itself: not a DESFire card
                    throw e
                }
            }
            switch action {
            case .select(let aids):
                var last: (DESFireStatus, DESFireCommand)?
                for aid in aids {
                    let c = DESFireCommand.selectApplication(aid)
                    if case .some(.some(let list)) = listed, !list.contains(aid) {
                        last = (.applicationNotFound, c)  // what the card would answer
                        continue
                    }
                    let (_, status) = try transceive(c)
                    if status == .ok {
                        application = aid
                        return .answered(.data(aid.bytes))
                    }
                    last = (status, c)
                    if status == .applicationNotFound, listed == nil { listed = .some(try applicationList()) }
                }
                let (status, command) = last!
                var result = refused(status, command)
                if case .some(.some) = listed { result.command = { "\(command) (the card's application list has none of \(aids))" } }
                return result
            case .readEach(let files, let mode):
                var contents: [[UInt8]] = []
                var last: StepResult?
                for f in files {
                    let one = try read(file: f, mode: mode, offset: 0, length: 0, step: step)
                    if one.refusal == nil, case .data(let d) = one.answer { contents.append(d) } else { last = one }
                }
                if contents.isEmpty, let last { return last }
                return .answered(.records(contents))
            case .read(let file, let mode, let offset, let length):
                return try read(file: file, mode: mode, offset: offset, length: length, step: step)
            }
        } catch let e as NotDESFire {
            return Self.notDESFireResult(e.statusWord)
        } catch let e as DESFireError {
            throw .badAnswer(profile: profile.id, step: step.name, line: step.line, reason: e.message)
        } catch {
            throw ReadError(error)
        }
    }

    /// One file read the way `mode` says (or its settings say, for `auto`).
    private func read(file: DESFireFileNumber, mode: DESFireStep.ReadMode, offset: Int, length: Int, step: Step) throws -> StepResult {
        var mode = mode
        var recordSize: Int?
        if mode == .settings || mode == .auto {
            // Asked again for the same file, the session answers from its memory: no command.
            let c = DESFireCommand.getFileSettings(file)
            let (data, status) = try transceive(c)
            guard status == .ok else { return refused(status, c) }
            let settings = try DESFireFileSettings(data)
            if mode == .settings { return .answered(.data(data)) }
            switch settings.sizes {
            case .data: mode = .data
            case .value: mode = .value
            case .records(let size, _, _):
                mode = .records
                recordSize = size
            }
        }
        let c: DESFireCommand
        switch mode {
        case .value: c = .getValue(file)
        case .records: c = try .readRecords(file, offset: offset, count: length)
        default: c = try .readData(file, offset: offset, length: length)
        }
        let (data, status) = try transceive(c)
        guard status == .ok else { return refused(status, c) }
        if mode == .records {
            // Records come back to back: split them by the file's record size.
            guard let size = recordSize ?? step.records?.size, size > 0, data.count % size == 0 else {
                return .answered(.records(data.isEmpty ? [] : [data]))
            }
            return .answered(.records(stride(from: 0, to: data.count, by: size).map { Array(data[$0..<($0 + size)]) }))
        }
        return .answered(.data(data))
    }
}
