import Foundation

extension Lab {
    /// `cardsim pn532` serving a card on a pseudo-terminal, for the real libnfc.
    public final class PN532 {
        public let process: Subprocess
        public let path: String
        public var connectionString: String { "pn532_uart:" + path }
        private var stopped = false

        /// What cardsim wrote (with `-v` in `options`: every exchange, and every poll).
        public var log: String { (try? String(contentsOfFile: path + ".log", encoding: .utf8)) ?? "" }

        /// How many times a reader has polled the card so far (needs `-v`).
        public var polls: Int { log.components(separatedBy: "InListPassiveTarget").count - 1 }

        public init(_ cardFile: String, options: [String] = []) throws {
            path = "/tmp/cardscan-pn532-\(UUID().uuidString.prefix(8))"
            let log = path + ".log"
            let fd = open(log, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            defer { close(fd) }
            process = try Subprocess(
                [Lab.binDir + "/cardsim", "pn532", "--pty", path, cardFile] + options,
                environment: Lab.childEnvironment(), stdout: fd, stderr: fd)
            let deadline = Date().addingTimeInterval(5)
            while !FileManager.default.fileExists(atPath: path) {
                guard Date() < deadline, process.isRunning else {
                    let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""  // before stop() removes it
                    stop()
                    throw LabError("cardsim pn532 did not create \(path): \(said)")
                }
                usleep(10_000)
            }
        }

        /// Environment for libnfc's own tools: only this device, no USB or serial scanning.
        public var environment: [String: String] {
            ["LIBNFC_AUTO_SCAN": "false", "LIBNFC_DEVICE": connectionString, "LIBNFC_INTRUSIVE_SCAN": "false"]
        }

        public func stop() {
            if stopped { return }
            stopped = true
            process.terminate()
            unlink(path)
            unlink(path + ".log")
        }

        deinit { stop() }
    }
}
