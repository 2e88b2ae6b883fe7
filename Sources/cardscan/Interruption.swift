import Dispatch
import Foundation

/// Ctrl-C during a read: the read stops at its next command and ends as a removed card's does
/// (the partial report printed, `--record`'s transcript written with `! error: interrupted`
/// last), then cardscan exits 130. Ctrl-C while no read runs, or a second one, exits at once.
final class Interruption: @unchecked Sendable {
    static let shared = Interruption()

    private let lock = NSLock()
    private var reading = false
    private var requested = false
    private var source: DispatchSourceSignal?

    /// Takes over SIGINT from the default, which ends the process mid-write.
    func install() {
        lock.lock()
        defer { lock.unlock() }
        guard source == nil else { return }
        let s = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signal(SIGINT, SIG_IGN)
        s.setEventHandler { [weak self] in self?.interrupt() }
        s.resume()
        source = s
    }

    private func interrupt() {
        lock.lock()
        let stopNow = !reading || requested
        requested = true
        lock.unlock()
        if stopNow {
            eprint("")
            exit(130)
        }
        eprint("\nInterrupted: stopping the read at its next command (Ctrl-C again to quit at once)…")
    }

    /// Whether the user asked the read to stop.
    var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    /// Runs `read` as the read Ctrl-C stops; afterwards Ctrl-C exits at once again.
    func during<T>(_ read: () throws -> T) rethrows -> T {
        lock.lock()
        reading = true
        lock.unlock()
        defer {
            lock.lock()
            reading = false
            lock.unlock()
        }
        return try read()
    }
}
