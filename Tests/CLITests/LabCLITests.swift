import Foundation
import LabSupport
import PCSCTransport
import Testing

/// `cardscan` against the real pcscd + vpcd, with cardsim as the card.
@Suite struct LabCLITests {
    let shanghai = Lab.fixture("shanghai-transit/full-read.apdu")

    @Test func scanReadsTheVirtualCard() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let r = try Lab.cardscan(["--profile", "shanghai-transit", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("  Balance  ¥57.10"))
            #expect(r.stdout.contains("10 transactions, 14 exchanges"))
            let detected = try Lab.cardscan(["scan", "--json", "-r", "00 00", "--timeout", "5"])
            #expect(detected.stdout.contains("\"profile\": \"shanghai-transit\""))
            #expect(detected.stdout.contains("\"exchanges\": 20"), "detection tries the profiles after it for other applications")
        }
    }

    @Test func readersListsBothAndTheATR() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai, slot: 1)
            defer { card.stop() }
            let r = try Lab.cardscan(["readers"])
            #expect(r.stdout.contains("0  Virtual PCD 00 00  empty"))
            #expect(r.stdout.contains("1  Virtual PCD 00 01  card   3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52"))
            let j = try Lab.cardscan(["readers", "--json"])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [[String: Any]])
            #expect(list.count == 2 && list[1]["present"] as? Bool == true && list[0]["atr"] is NSNull, "\(j.stdout)\(j.stderr)")
            let ambiguous = try Lab.cardscan(["--timeout", "1", "-r", "Virtual"])
            #expect(ambiguous.status == 64)
            #expect(ambiguous.stderr.contains("'Virtual' matches 2 readers"))
        }
    }

    @Test func recordThenReplayGivesTheSameReport() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.fixture("shanghai-transit/t0-overdrawn-few-trips.apdu"))
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "rec-\(UUID().uuidString).apdu"
            let live = try Lab.cardscan(["--json", "--record", file, "--trace", "--timeout", "5"])
            #expect(live.status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("> 00 C0 00 00 13"))  // the T=0 GET RESPONSE, traced
            #expect(live.stderr.contains("90 00  ("), "\(live.stderr.prefix(300))")
            let recorded = try String(contentsOfFile: file, encoding: .utf8)
            #expect(recorded.hasPrefix("# cardscan transcript 1\n# technology: iso7816\n# atr: 3B 02 14 50\n# reader: Virtual PCD 00 00\n"))
            #expect(recorded.contains("# detected: shanghai-transit"))
            let replayed = try Lab.cardscan(["replay", "--json", file])
            #expect(replayed.status == 0, "\(replayed.stderr)")
            #expect(replayed.stdout == live.stdout)
            // make-fixtures.py: an overdrawn purse (−2.50 yuan) and three trips.
            #expect(live.stdout.contains("\"amount\": -250") && live.stdout.contains("\"number\": \"305419896\""), "\(live.stdout)")
        }
    }

    @Test func cardRemovedMidReadIsExit74WithAPartialReport() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai, options: ["--remove-after", "5"])
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true"))
            #expect(r.stdout.contains("\"amount\": 5710"))
            #expect(r.stderr.contains("error: the card was removed on Virtual PCD 00 00"))
        }
    }

    /// A transcript that cannot be written after the card was read (a full disk) costs nothing
    /// read: the report is printed, then the error, exit 74.
    @Test func aTranscriptThatCannotBeWrittenKeepsTheReport() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let r = try Lab.cardscan(["--profile", "shanghai-transit", "--json", "--record", "/dev/full", "--timeout", "5"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"amount\": 5710") && r.stdout.contains("\"partial\": false"), "\(r.stdout)")
            #expect(r.stderr.contains("error: /dev/full: cannot write: No space left on device"), "\(r.stderr)")
            // And to a device that takes it, the transcript goes there (not a file put in its place).
            let out = try Lab.cardscan(["--profile", "shanghai-transit", "--record", "/dev/stderr", "--timeout", "5"])
            #expect(out.status == 0, "\(out.stderr)")
            #expect(out.stderr.hasPrefix("# cardscan transcript 1\n"), "\(out.stderr.prefix(200))")
        }
    }

    /// A card that stops answering keeps pcscd waiting on the reader after cardscan gave up
    /// (exit 74); the next cardscan does not wait for the reader forever (SCardConnect has no
    /// time-out of its own) but ends within --apdu-timeout, exit 69, saying why.
    @Test func aReaderStuckOnAMuteCardIsExit69NotAHang() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai, options: ["--mute-after", "3"])
            defer { card.stop() }
            let first = try Lab.cardscan(["--profile", "shanghai-transit", "--apdu-timeout", "0.5", "--timeout", "5"], timeout: 20)
            #expect(first.status == 74, "\(first.stderr)")
            #expect(first.stderr.contains("timed out waiting for the card on Virtual PCD 00 00"), "\(first.stderr)")
            for args in [
                ["--profile", "shanghai-transit", "--apdu-timeout", "0.5", "--timeout", "5"], ["apdu", "--timeout", "5", "00 B2 01 C4 00"],
            ] {
                let next = try Lab.cardscan(args, timeout: 20)
                #expect(next.status == 69, "\(args): \(next.stderr)")
                #expect(next.stderr.contains("pcscd did not give the reader on Virtual PCD 00 00 in time (SCardConnect)"), "\(next.stderr)")
                #expect(next.stderr.contains("restart pcscd"), "\(next.stderr)")
            }
        }
    }

    @Test func noCardBeforeTheTimeoutIsExit75() throws {
        try Lab.exclusive {
            let start = Date()
            let r = try Lab.cardscan(["--timeout", "1"])
            #expect(r.status == 75)
            #expect(r.stderr.contains("Hold a card on a reader…"))
            #expect(r.stderr.contains("error: no card was presented within 1 s"))
            #expect(Date().timeIntervalSince(start) < 5)
        }
    }

    @Test func unknownCardIsExit76() throws {
        try Lab.exclusive {
            let t = try Lab.writeTranscript(
                "# cardscan transcript 1\n# atr: 3B 02 14 50\n> 00 84 00 00 08\n< 01 02 03 04 05 06 07 08 90 00\n", name: "unknown")
            let card = try Lab.Card(t)
            defer { card.stop() }
            let r = try Lab.cardscan(["--timeout", "5"])
            #expect(r.status == 76)
            #expect(r.stderr.contains("no profile recognises this card (ATR 3B 02 14 50)"))
        }
    }

    @Test func badProfileIsExit65WithFileAndLine() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let bad = Lab.fixture("bad-profiles/09-field-beyond-answer.yaml")
            let r = try Lab.cardscan(["--profile", bad, "--timeout", "5"])
            #expect(r.status == 65)
            #expect(r.stderr.contains("\(bad):9:"), "\(r.stderr)")
        }
    }

    /// The lab opens nothing to the network: vpcd's ports listen only inside the lab's own
    /// network namespace (`ss -ltn` on the host lists neither 35963 nor 35964), the card is
    /// read all the same, and stopping the lab removes the namespace.
    @Test func theLabListensOnNoHostInterface() throws {
        let hostNetwork = ProcessInfo.processInfo.environment["CARDSCAN_LAB_NETWORK"] == "host"
        func vpcdListeners() throws -> [String] {
            let r = try Lab.shell(["ss", "-ltnH"])
            #expect(r.status == 0, "ss: \(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init).filter { $0.contains(":35963 ") || $0.contains(":35964 ") }
        }
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let read = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(read.status == 0 && read.stdout.contains("\"profile\": \"shanghai-transit\""), "\(read.stderr)")
            let listeners = try vpcdListeners()
            if hostNetwork {
                #expect(listeners.count == 2, "CARDSCAN_LAB_NETWORK=host: \(listeners)")
            } else {
                #expect(listeners.isEmpty, "vpcd listens on the host network: \(listeners)")
                #expect(FileManager.default.fileExists(atPath: Lab.networkNamespace))
                let inside = try Lab.shell(Lab.inLabNetwork(["ss", "-ltnH"]))
                #expect(inside.stdout.contains(":35963 ") && inside.stdout.contains(":35964 "), "\(inside.stdout)")
            }
        }
        try Lab.exclusive {
            try Lab.stopPCSCD()
            defer { try? Lab.ensurePCSCD() }
            #expect(try vpcdListeners().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: Lab.networkNamespace), "the lab's namespace outlived `scripts/lab.sh stop`")
        }
    }

    /// A pcscd killed with SIGKILL leaves its socket in /run/pcscd, and the next pcscd refuses
    /// to start beside it ("Another pcscd seems to be running"): the lab removes a socket
    /// nobody runs or listens on, and leaves one something listens on (systemd's pcscd.socket).
    @Test func aPcscdThatDiedLeavesNothingThatStopsTheNext() throws {
        let socketPath = "/run/pcscd/pcscd.comm"
        func pcscdRuns() -> Bool { (try? Lab.shell(["pidof", "pcscd"]))?.status == 0 }
        try Lab.exclusive {
            let dir = ProcessInfo.processInfo.environment["CARDSCAN_LAB_DIR"] ?? "/tmp/cardscan-lab"
            let pidText = try String(contentsOfFile: dir + "/pcscd.pid", encoding: .utf8)
            let pid = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
            // Only the lab's own pcscd (a stale pid file could name any process).
            let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            try #require(name == "pcscd\n", "the lab's pid file names \(pid), which is \(name)")
            defer { try? Lab.ensurePCSCD() }
            try #require(kill(pid, SIGKILL) == 0)
            let deadline = Date().addingTimeInterval(5)
            while pcscdRuns(), Date() < deadline { usleep(20_000) }
            try #require(!pcscdRuns(), "pcscd outlived SIGKILL")
            try #require(FileManager.default.fileExists(atPath: socketPath), "pcscd cleaned up after SIGKILL: nothing left to test")

            // Something listening there is not the lab's to remove.
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(listener >= 0)
            var listening = true
            defer { if listening { close(listener) } }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                socketPath.utf8CString.withUnsafeBytes { path.copyMemory(from: $0) }
            }
            unlink(socketPath)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0 && listen(listener, 1) == 0, "\(String(cString: strerror(errno)))")
            _ = try Lab.shell([Lab.root + "/scripts/lab.sh", "stop"])
            #expect(FileManager.default.fileExists(atPath: socketPath), "lab.sh stop removed a socket something listens on")

            // Nobody's socket now (the listener gone, its file left): the lab starts pcscd anyway.
            close(listener)
            listening = false
            #expect(FileManager.default.fileExists(atPath: socketPath))
            let start = try Lab.shell([Lab.root + "/scripts/lab.sh", "start"])
            #expect(start.status == 0, "\(start.stderr)")
            #expect(start.stderr.contains("removed the socket a pcscd that is no longer running left"), "\(start.stderr)")
            try Lab.ensurePCSCD()
            #expect(try PCSCContext().readerNames().contains(Lab.readers[0]))
        }
    }

    @Test func pcscdNotRunningIsExit69WithTheHint() throws {
        try Lab.exclusive {
            try Lab.stopPCSCD()
            defer { try? Lab.ensurePCSCD() }
            let r = try Lab.cardscan(["--timeout", "1"])
            #expect(r.status == 69)
            #expect(r.stderr.contains("error: pcscd is not running"))
            #expect(r.stderr.contains("hint: start it with"))
            let doctor = try Lab.cardscan(["doctor"])
            #expect(doctor.status == 69)
            #expect(doctor.stdout.contains("FAIL pcscd is not running"))
        }
    }
}
