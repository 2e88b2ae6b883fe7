import APDU
import Foundation
import PCSCTransport

/// The PC/SC lab for tests: the real pcscd with the vpcd driver, and cardsim as the card.
///
/// Lab tests take a file lock, so only one at a time uses the two virtual readers, whatever
/// target or suite it is in. When a lab component cannot start, ``LabError`` is thrown and
/// the test fails (never skips), in CI and outside it.
public enum Lab {
    public static let readers = ["Virtual PCD 00 00", "Virtual PCD 00 01"]
    public static let ports = [35963, 35964]

    /// The package root (from this file's path).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Where `cardscan` and `cardsim` were built (beside the test bundle).
    public static let binDir: String = {
        if let d = ProcessInfo.processInfo.environment["CARDSCAN_BIN"] { return d }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("cardsim").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return root + "/.build/debug"
    }()

    public static func fixture(_ relative: String) -> String { root + "/Tests/Fixtures/" + relative }

    public struct LabError: Error, CustomStringConvertible {
        public let description: String
        public init(_ d: String) { description = d }
    }

    nonisolated(unsafe) private static var lockFD: Int32 = -1
    nonisolated(unsafe) private static var clearedLeftoverCards = false

    /// Runs `body` holding the lab lock, with pcscd running.
    public static func exclusive<T>(_ body: () throws -> T) throws -> T {
        let fd = open("/tmp/cardscan-lab.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw LabError("cannot open /tmp/cardscan-lab.lock") }
        var locked = flock(fd, LOCK_EX)
        while locked != 0 && errno == EINTR { locked = flock(fd, LOCK_EX) }
        guard locked == 0 else {
            close(fd)
            throw LabError("cannot lock /tmp/cardscan-lab.lock: \(String(cString: strerror(errno)))")
        }
        defer {
            flock(fd, LOCK_UN)
            close(fd)
        }
        if !clearedLeftoverCards {
            // A virtual card left on a reader by `make demo` (scripts/lab.sh) is not a test's:
            // take it away once, so that tests start from empty readers. If that fails, say so
            // here, not as every later test's "a card is already on" the reader.
            let r = try shell([root + "/scripts/lab.sh", "stop-cards"])
            guard r.status == 0 else {
                throw LabError("scripts/lab.sh stop-cards could not take the lab's cards away (exit \(r.status)): \(lastWords(r.stderr))")
            }
            clearedLeftoverCards = true
        }
        try ensurePCSCD()
        return try body()
    }

    /// A home of the test run's own (`HOME`, `XDG_CONFIG_HOME`): a developer's
    /// `~/.config/cardscan/profiles` and trusted-profiles list never reach a test's child.
    public static let home: String = {
        let dir = NSTemporaryDirectory() + "cardscan-test-home-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir + "/.config", withIntermediateDirectories: true)
        return dir
    }()

    /// The environment a lab child starts with: this process's, without libnfc settings (a
    /// developer's `LIBNFC_DEVICE` must not give a test's child a device it did not ask for:
    /// a test passes its own in `extra`), without the user's
    /// `CARDSCAN_*` settings (a default reader, profile folders; the lab's own are kept), with
    /// the test run's own home, plus `extra`.
    public static func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { e in
            !e.key.hasPrefix("LIBNFC_") && !(e.key.hasPrefix("CARDSCAN_") && !e.key.hasPrefix("CARDSCAN_LAB"))
        }
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs a command, returning its exit status and output (killed after `timeout`).
    @discardableResult
    public static func shell(
        _ args: [String], environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let env = childEnvironment(["CARDSCAN_BIN": binDir, "NO_COLOR": "1"].merging(environment) { $1 })
        let tag = UUID().uuidString
        let outPath = NSTemporaryDirectory() + "lab-\(tag).out", errPath = NSTemporaryDirectory() + "lab-\(tag).err"
        let outFD = open(outPath, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644),
            errFD = open(errPath, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let child: Subprocess
        do { child = try Subprocess(args, environment: env, stdout: outFD, stderr: errFD) } catch {
            close(outFD)
            close(errFD)
            throw error
        }
        close(outFD)
        close(errFD)
        guard let status = child.wait(timeout: timeout) else {
            child.terminate()
            throw LabError("\(args.joined(separator: " ")) did not finish within \(timeout) s")
        }
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (status, out, err)
    }

    /// A script's reason for failing, on one line: the last lines of its standard error (what
    /// apt-get printed, when it installed something, comes before).
    static func lastWords(_ stderr: String) -> String {
        stderr.split(separator: "\n").suffix(4).joined(separator: " | ")
    }

    public static var pcscdRunning: Bool { (try? PCSCContext())?.isAlive ?? false }

    /// Starts pcscd with the vpcd readers unless one is running (scripts/lab.sh start).
    public static func ensurePCSCD() throws {
        if pcscdRunning, (try? PCSCContext().readerNames())?.contains(readers[0]) == true { return }
        let r = try shell([root + "/scripts/lab.sh", "start"])
        guard r.status == 0 else {
            throw LabError("the lab could not start pcscd (scripts/lab.sh start: exit \(r.status)): \(lastWords(r.stderr))")
        }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if (try? PCSCContext().readerNames())?.contains(readers[0]) == true { return }
            usleep(50_000)
        }
        throw LabError("pcscd is running but the vpcd readers did not appear")
    }

    /// Stops pcscd (the one the lab started) and waits until it is gone.
    public static func stopPCSCD() throws {
        _ = try shell([root + "/scripts/lab.sh", "stop"])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if !pcscdRunning { return }
            usleep(50_000)
        }
        throw LabError("pcscd is still running (was it started outside the lab?)")
    }

    /// The lab's network namespace (scripts/lab.sh): the pcscd there listens for vpcd's cards
    /// on its own loopback only, so cardsim must join it to be seen.
    public static let networkNamespace = "/run/netns/cardscan-lab"

    /// `command` run inside the lab's network namespace when there is one (nsenter execs it:
    /// the process is the command's own, so terminating it stops the command).
    public static func inLabNetwork(_ command: [String]) -> [String] {
        FileManager.default.fileExists(atPath: networkNamespace) ? ["/usr/bin/nsenter", "--net=" + networkNamespace] + command : command
    }

    /// A cardsim process serving a transcript on one virtual reader.
    public final class Card {
        public let process: Subprocess
        public let reader: String
        public let log: String

        /// Starts cardsim and waits (SCardGetStatusChange, not a sleep) until pcscd sees the card.
        public init(_ transcript: String, slot: Int = 0, options: [String] = [], waitForPresence: Bool = true) throws {
            reader = Lab.readers[slot]
            log = "/tmp/cardscan-lab-cardsim-\(slot).log"
            // The previous test's card may still be leaving (pcscd polls vpcd): wait for that
            // first, and complain only about a card that stays.
            let context = try PCSCContext()
            if try context.state(of: reader).isPresent, try !context.waitForRemoval(from: reader, timeout: .seconds(5)) {
                throw LabError(
                    "a card is on \(reader) and has not left in 5 s (a cardsim left running?): stop it with `scripts/lab.sh stop` or `pkill -f 'cardsim vpcd'`"
                )
            }
            let fd = open(log, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            defer { close(fd) }
            process = try Subprocess(
                Lab.inLabNetwork([Lab.binDir + "/cardsim", "vpcd", transcript, "--port", String(Lab.ports[slot])] + options),
                environment: childEnvironment(), stdout: fd, stderr: fd)
            if waitForPresence {
                let ctx = try PCSCContext()
                guard try ctx.waitForCard(on: [reader], timeout: .seconds(10)) != nil else {
                    stop()
                    throw LabError(
                        "cardsim's card did not appear on \(reader): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
                }
            }
        }

        /// SIGTERM, then waits for the process and for pcscd to see the card gone.
        private var stopped = false

        public func stop() {
            if stopped { return }
            stopped = true
            process.terminate()
            if let ctx = try? PCSCContext() { _ = try? ctx.waitForRemoval(from: reader, timeout: .seconds(5)) }
        }

        deinit { if !stopped { process.terminate() } }
    }

    /// Runs the built `cardscan` with `args`.
    public static func cardscan(
        _ args: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        try shell([binDir + "/cardscan"] + args, environment: environment, timeout: timeout)
    }

    /// Copies an executable with a close-on-exec descriptor: a test spawning a process at the
    /// same moment must not inherit it (exec of the copy would then fail with ETXTBSY).
    public static func copyExecutable(_ from: String, to: String) throws {
        guard let data = FileManager.default.contents(atPath: from) else { throw LabError("cannot read \(from)") }
        let fd = open(to, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw LabError("cannot create \(to)") }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw LabError("short write to \(to)") }
    }

    /// Writes a temporary transcript and returns its path.
    public static func writeTranscript(_ text: String, name: String = UUID().uuidString) throws -> String {
        let path = NSTemporaryDirectory() + "cardscan-\(name).apdu"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
