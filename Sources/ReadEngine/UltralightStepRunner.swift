import APDU
import CardReports
import MIFARECommands
import ProfileLanguage

/// Runs MIFARE Ultralight steps: `read-pages` with READ (`30 page`, four pages a command)
/// through the session, so a page group detection read is not read again.
final class UltralightStepRunner: StepRunner {
    let session: CardSession

    init(session: CardSession) { self.session = session }

    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult {
        guard case .ultralight(.readPages(let first, let count)) = step.action else { preconditionFailure("not an Ultralight step") }
        var bytes: [UInt8] = []
        for (start, skip, take) in UltralightPages.plan(first...(first + count - 1)) {
            let group: [UInt8]
            do { group = try UltralightPages.readGroup(page: start, transmit: session.transmitFrame) } catch let e as UltralightError {
                // A refused page ends the step; the pages read before it are kept.
                var result = StepResult.refused(
                    { if case .refused(let p, _) = e { return .pageRefused(p) } else { return .invalidAnswer(e.message) } }(),
                    keeping: bytes.isEmpty ? nil : .data(bytes))
                result.command = { "READ of page \(start)" }
                return result
            } catch let e as CardTransportError where !bytes.isEmpty {
                var result = StepResult.answered(.data(bytes))
                result.interrupted = .transport(e)
                return result
            } catch { throw ReadError(error) }
            bytes += group[(skip * 4)..<((skip + take) * 4)]
        }
        return .answered(.data(bytes))
    }
}
