import APDU
import CPCSCLite
import Foundation

/// Insert and remove events from every reader (or one), for watch modes. It survives a
/// reader being unplugged and pcscd restarting: it re-establishes its context, tells the
/// caller (``Event/serviceLost`` / ``Event/serviceRestored``) and carries on.
///
/// Built on SCardGetStatusChange with PC/SC's plug-and-play pseudo-reader, so a wait costs
/// nothing while nothing happens. ``cancel()`` (from any thread) ends a wait.
public final class CardMonitor: @unchecked Sendable {
    /// What ``next(timeout:)`` reports.
    public enum Event: Sendable, Equatable {
        /// A card arrived (or was already there when the monitor started).
        case cardPresented(ReaderState)
        /// The card on `reader` is gone: taken away, turned mute, its reader unplugged, or
        /// pcscd lost.
        case cardRemoved(reader: String)
        /// The set of readers changed (plugged in or out).
        case readersChanged([String])
        /// pcscd went away; the monitor keeps trying to reconnect.
        case serviceLost
        /// pcscd is back after ``serviceLost``; the cards on its readers are then presented anew.
        case serviceRestored
    }

    /// Only this reader (nil: every reader).
    public let reader: String?
    private var context: PCSCContext?
    private var known: [String: UInt] = [:]
    private var present: Set<String> = []
    private var readers: [String]? = nil
    private var pending: [Event] = []
    private var lost = false
    private let lock = NSLock()
    private var cancelled = false

    /// A monitor of `reader` only, or of every reader when nil; it connects to pcscd on the
    /// first ``next(timeout:)``.
    public init(reader: String? = nil) {
        self.reader = reader
    }

    /// Ends a wait in ``next(timeout:)``; it then returns nil.
    public func cancel() {
        lock.withLock {
            cancelled = true
            context?.cancel()
        }
    }

    /// The next event, or nil when `timeout` passes (or after ``cancel()``).
    public func next(timeout: Duration?) -> Event? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if lock.withLock({ cancelled }) { return nil }
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            if let remaining, remaining == .zero, context != nil { return nil }
            poll(timeout: remaining.map { min($0, .seconds(1)) } ?? .seconds(1))
            if pending.isEmpty, let deadline, ContinuousClock.now >= deadline { return nil }
        }
    }

    private func poll(timeout: Duration) {
        do {
            if context == nil {
                let ctx = try PCSCContext()
                lock.withLock { context = ctx }
                known = [:]
                if lost {
                    lost = false
                    pending.append(.serviceRestored)
                }
            }
            let ctx = context!
            let names = try ctx.readerNames().filter { reader == nil || $0 == reader }
            if names != readers {
                if readers != nil { pending.append(.readersChanged(names)) }
                for gone in present.subtracting(names) {
                    present.remove(gone)
                    pending.append(.cardRemoved(reader: gone))
                }
                readers = names
                if !pending.isEmpty { return }
            }
            let watched = names.map { ($0, known[$0] ?? 0) } + [(ReaderState.plugAndPlay, UInt(names.count) << 16)]
            let firstLook = names.contains { known[$0] == nil }
            guard let states = try ctx.statusChange(watched, timeout: firstLook ? .zero : timeout) else { return }
            for s in states where s.name != ReaderState.plugAndPlay {
                known[s.name] = s.eventState & ~UInt(SCARD_STATE_CHANGED)
                let isPresent = s.isPresent && !s.isMute
                if isPresent && !present.contains(s.name) {
                    present.insert(s.name)
                    pending.append(.cardPresented(s))
                }
                if !isPresent && present.contains(s.name) {
                    present.remove(s.name)
                    pending.append(.cardRemoved(reader: s.name))
                }
            }
        } catch {
            switch error.code {
            case .cancelled: return
            case .noService, .serviceStopped, .commError, .invalidHandle, .unknown:
                lock.withLock { context = nil }
                if !lost {
                    lost = true
                    pending.append(.serviceLost)
                    for r in present { pending.append(.cardRemoved(reader: r)) }
                    present = []
                    readers = nil
                }
                usleep(200_000)
            default:
                readers = nil
                usleep(100_000)
            }
        }
    }
}
