import Foundation

/// Child processes for the lab, started with posix_spawn and a clean signal mask.
///
/// Foundation's Process is not used: test threads (libdispatch workers) block signals, a
/// child inherits that mask, and then neither cardsim nor pcscd would ever see SIGTERM.
///
/// Once the child is reaped its exit status is kept, and the process is never signalled
/// again: its PID may already belong to another process (a lab script, pcscd).
public final class Subprocess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `argv` with `environment`; stdout and stderr go to the given descriptors.
    public init(_ argv: [String], environment: [String: String], stdout: Int32, stderr: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for a in cArgs { free(a) }
            for e in cEnv { free(e) }
        }
        var child: pid_t = 0
        let rv = posix_spawnp(&child, argv[0], &actions, &attr, cArgs, cEnv)
        guard rv == 0 else { throw Lab.LabError("cannot start \(argv[0]): \(String(cString: strerror(rv)))") }
        pid = child
    }

    public var isRunning: Bool { poll() == nil }

    /// The exit status if the child has ended (reaping it), nil while it runs.
    private func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid {
            exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        } else if r < 0 {
            exitStatus = -1
        }
        return exitStatus
    }

    /// Waits for the exit status (nil when `timeout` passes first).
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = poll() { return status }
            if Date() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// SIGTERM, then SIGKILL after `grace`; always reaps. A child already reaped is left alone.
    public func terminate(grace: TimeInterval = 3) {
        guard signal(SIGTERM) else { return }
        if wait(timeout: grace) == nil {
            _ = signal(SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    /// Sends `signal` unless the child was reaped (under the lock that reaping takes, so the
    /// PID cannot be freed in between); false when it was.
    private func signal(_ signal: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus != nil { return false }
        kill(pid, signal)
        return true
    }
}
