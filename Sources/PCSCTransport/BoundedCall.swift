import Dispatch
import Foundation

/// Runs a pcsc-lite call that may block forever on `queue` (a serial queue) and waits at most
/// `timeout` for it. pcsc-lite has no time-out of its own for SCardConnect,
/// SCardBeginTransaction, SCardReconnect or SCardTransmit: a card that stopped answering, or a reader that
/// another program holds, keeps them waiting — and pcscd keeps the reader busy for every later
/// client too.
///
/// Returns the call's result, or nil when `timeout` passed first. In that case the call goes on
/// on `queue`, and `afterTimeout` runs there once it has returned, with what it returned (to undo
/// it: end a transaction that began after all).
///
/// On success the block has been released before this returns (a `sync` on the serial queue):
/// the last reference to a card or context is then never let go on the worker thread, where
/// its SCardDisconnect could run while the process exits and libpcsclite's destructor frees its
/// handles (a SIGSEGV after the last answer was printed, seen once in 300 runs).
func boundedCall<T: Sendable>(
    on queue: DispatchQueue, timeout: Duration, _ call: @escaping @Sendable () -> T,
    afterTimeout: (@Sendable (T) -> Void)? = nil
) -> T? {
    let slot = Slot<T>()
    let done = DispatchSemaphore(value: 0)
    queue.async {
        slot.value = call()
        done.signal()
    }
    let ms = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    if done.wait(timeout: .now() + .milliseconds(ms)) == .timedOut {
        PCSCCallsLeftRunning.started()
        queue.async {
            afterTimeout?(slot.value!)
            PCSCCallsLeftRunning.ended()
        }
        return nil
    }
    queue.sync {}
    return slot.value
}

/// Where a call on the worker leaves its result. Written on the queue, read after the
/// semaphore (or, after a time-out, only by later blocks on the same serial queue).
private final class Slot<T>: @unchecked Sendable {
    var value: T?
}

/// pcsc-lite calls that timed out and still run on a worker thread. While one does, the
/// process must not leave through `exit`: libpcsclite's destructor frees the client's list of
/// contexts without a lock, and a waiting SCardBeginTransaction, SCardReconnect or SCardStatus
/// looks in that list again every 100 ms. A program leaves with ``leaveProcess(_:)`` instead.
public enum PCSCCallsLeftRunning {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running = 0

    /// How many timed-out calls have not returned yet.
    public static var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    static func started() {
        lock.lock()
        running += 1
        lock.unlock()
    }

    static func ended() {
        lock.lock()
        running -= 1
        lock.unlock()
    }

    /// Ends the process with `status`: through `exit` normally, through `_exit` (after
    /// flushing C's buffers; no destructors) while a timed-out call still runs.
    public static func leaveProcess(_ status: Int32) -> Never {
        if count == 0 { exit(status) }
        fflush(nil)
        _exit(status)
    }
}
