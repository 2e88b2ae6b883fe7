import APDU
import ArgumentParser
import Foundation
import PCSCTransport

/// `-r` / `CARDSCAN_READER`, and the steps every card command shares: connect to pcscd,
/// pick the reader, wait for one card.
struct ReaderAccess {
    let choice: String?

    init(choice: String?) {
        self.choice = choice ?? ProcessInfo.processInfo.environment["CARDSCAN_READER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func context() throws -> PCSCContext { try PCSCContext() }

    /// The chosen reader's name, or nil for "any reader".
    func reader(in context: PCSCContext) throws -> String? {
        let names = try context.readerNames()
        if names.isEmpty { throw PCSCError(code: .noReadersAvailable, function: "SCardListReaders") }
        guard let choice else { return nil }
        return try ReaderSelection.select(choice, from: names)
    }

    /// Waits for exactly one card (on the chosen reader, or any). Says so on stderr while
    /// waiting; asks for one card only when several are present, as Core NFC does.
    func waitForOneCard(_ context: PCSCContext, timeout: Duration?, quiet: Bool = false) throws -> ReaderState? {
        let chosen = try reader(in: context)
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var announced = false
        var askedForOne = false
        while true {
            let present = try context.readers().filter { $0.isPresent && !$0.isMute && (chosen == nil || $0.name == chosen) }
            if present.count == 1 { return present[0] }
            if present.count > 1 {
                if !askedForOne && !quiet {
                    eprint("More than one card is present (\(present.map(\.name).joined(separator: ", "))): leave only one, or pick a reader with -r.")
                    askedForOne = true
                }
            } else if !announced && !quiet {
                let secs = timeout.map { " (\($0.components.seconds) s; Ctrl-C to stop)" } ?? " (Ctrl-C to stop)"
                eprint("Hold a card on \(chosen ?? "a reader")…" + secs)
                announced = true
            }
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            if let remaining, remaining == .zero { return nil }
            let slice = min(remaining ?? .seconds(1), .milliseconds(present.count > 1 ? 300 : 1000))
            _ = try context.waitForCard(on: chosen.map { [$0] }, timeout: slice)
        }
    }

    /// The ATR of the card on the chosen (or only) reader.
    func currentATR() throws -> [UInt8] {
        let ctx = try context()
        guard let state = try waitForOneCard(ctx, timeout: .seconds(0), quiet: true) else {
            throw PCSCError(code: .noSmartcard, function: "SCardGetStatusChange", reader: try reader(in: ctx))
        }
        return state.atr
    }
}
