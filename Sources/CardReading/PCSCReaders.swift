import APDU
import Foundation
import PCSCTransport

/// The PC/SC readers cardscan may use: all of them, or the one a choice names (an index, an
/// exact name or a unique substring; `CARDSCAN_READER` gives the default).
public final class PCSCReaders {
    /// The pcscd context the readers are seen through.
    public let context: PCSCContext
    /// The reader asked for, as the user wrote it; nil for any reader.
    public let choice: String?

    /// What ``waitForOneCard(timeout:notify:)`` reports while it waits.
    public enum WaitNotice: Sendable, Equatable {
        /// Nothing is presented yet (said once): on `reader` (nil: any), for `timeout`.
        case waiting(reader: String?, timeout: Duration?)
        /// Several cards are present: one must be taken away, or a reader chosen (said once).
        case severalCards(readers: [String])
    }

    /// Connects to pcscd (a `PCSCError` with a hint on starting it when it is not running).
    public init(choice: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        context = try PCSCContext()
        self.choice = choice ?? environment["CARDSCAN_READER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The chosen reader's name, or nil for "any reader".
    public func chosenReader() throws -> String? {
        let names = try context.readerNames()
        if names.isEmpty { throw PCSCError(code: .noReadersAvailable, function: "SCardListReaders") }
        guard let choice else { return nil }
        return try ReaderSelection.select(choice, from: names)
    }

    /// Waits for exactly one card (on the chosen reader, or any): when several are present,
    /// asks for one, as Core NFC does. Nil when `timeout` passes (nil: no limit).
    public func waitForOneCard(timeout: Duration?, notify: ((WaitNotice) -> Void)? = nil) throws -> ReaderState? {
        let chosen = try chosenReader()
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var announced = false
        var askedForOne = false
        while true {
            let present = try context.readers().filter { $0.isPresent && !$0.isMute && (chosen == nil || $0.name == chosen) }
            if present.count == 1 { return present[0] }
            if present.count > 1 {
                if !askedForOne {
                    notify?(.severalCards(readers: present.map(\.name)))
                    askedForOne = true
                }
            } else if !announced {
                notify?(.waiting(reader: chosen, timeout: timeout))
                announced = true
            }
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            if let remaining, remaining == .zero { return nil }
            let slice = min(remaining ?? .seconds(1), .milliseconds(present.count > 1 ? 300 : 1000))
            _ = try context.waitForCard(on: chosen.map { [$0] }, timeout: slice)
        }
    }

    /// Waits for one card, connects, and tells what it is (``PCSCDetector``). Nil on timeout.
    public func waitForCard(
        timeout: Duration?, transmitTimeout: Duration? = .seconds(5),
        notify: ((WaitNotice) -> Void)? = nil
    ) throws -> CardConnection? {
        guard let state = try waitForOneCard(timeout: timeout, notify: notify) else { return nil }
        return try PCSCDetector.connect(context, reader: state.name, transmitTimeout: transmitTimeout)
    }
}
