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
            #expect(r.stdout.contains("10 trip(s), 14 exchange(s)"))
            let detected = try Lab.cardscan(["scan", "--json", "-r", "00 00", "--timeout", "5"])
            #expect(detected.stdout.contains("\"profile\": \"shanghai-transit\""))
            #expect(detected.stdout.contains("\"exchanges\": 14"))
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

    @Test func apduSendsAScriptAndPrintsMeanings() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let script = NSTemporaryDirectory() + "script-\(UUID().uuidString).txt"
            try "# select the City Union app\n00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00\nreset\n805C000204\n00 84 00 00 08\n".write(
                toFile: script, atomically: true, encoding: .utf8)
            let r = try Lab.cardscan(["apdu", "--script", script, "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("> reset"))
            #expect(r.stdout.contains("> 80 5C 00 02 04\n< 80 00 16 4E 90 00 : success"))
            #expect(r.stdout.contains("< 6D 00 : instruction code not supported or invalid"))
        }
    }

    /// Two `cardscan apdu` scripts at once on one card, each selecting its own application
    /// and reading its record 200 times: every answer is its own application's record,
    /// because each script is one PC/SC transaction. (Without it the other script's SELECT
    /// came between a SELECT and its READ RECORD: `69 86`, or the other application's record.)
    @Test func twoAPDUScriptsAtOnceDoNotInterleave() throws {
        let image = NSTemporaryDirectory() + "two-apps-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: image) }
        try """
        {"technology": "iso7816", "atr": "3B 80 80 01 01", "files": [
          {"aid": "A0 00 00 00 01 01", "fid": "0101", "files": [{"fid": "1001", "records": ["AA 01"]}]},
          {"aid": "A0 00 00 00 01 02", "fid": "0102", "files": [{"fid": "1001", "records": ["BB 02"]}]}]}
        """.write(toFile: image, atomically: true, encoding: .utf8)
        try Lab.exclusive {
            let card = try Lab.Card(image)
            defer { card.stop() }
            var runs: [(Subprocess, String)] = []
            for app in ["01", "02"] {
                let base = NSTemporaryDirectory() + "apdu-\(app)-\(UUID().uuidString)"
                let once = "00 A4 04 0C 06 A0 00 00 00 01 \(app)\n00 A4 02 0C 02 10 01\n00 B2 01 04 00\n"
                try String(repeating: once, count: 200).write(toFile: base + ".txt", atomically: true, encoding: .utf8)
                let outFD = open(base + ".out", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
                defer { close(outFD) }
                let p = try Subprocess(
                    [Lab.binDir + "/cardscan", "apdu", "--script", base + ".txt", "--timeout", "10"], environment: Lab.childEnvironment(),
                    stdout: outFD, stderr: outFD)
                runs.append((p, base))
            }
            for (app, (p, base)) in zip(["AA 01", "BB 02"], runs) {
                let status = p.wait(timeout: 60)
                if status == nil { p.terminate() }
                let out = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
                #expect(status == 0, "\(out.suffix(400))")
                let answers = out.split(separator: "\n").filter { $0.hasPrefix("< ") && !$0.hasPrefix("< 90 00") }
                #expect(answers.count == 200, "\(answers.prefix(3))")
                #expect(answers.allSatisfy { $0.hasPrefix("< \(app) 90 00") }, "\(answers.first { !$0.hasPrefix("< \(app) 90 00") } ?? "")")
            }
        }
    }

    /// What a running `cardscan watch` wrote: stdout in `PATH.out`, stderr in `PATH.err`.
    struct WatchOutput {
        let path: String
        var text: String { (try? String(contentsOfFile: path + ".out", encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: path + ".err", encoding: .utf8)) ?? "" }
        func lines() -> [String] { text.split(separator: "\n").map(String.init) }
        /// Whether `ready` holds within 15 s, looking every `every`.
        func wait(every: useconds_t = 50_000, _ ready: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if ready() { return true }
                usleep(every)
            }
            return false
        }
        func waitForLines(_ n: Int) -> Bool { wait { lines().count >= n } }
    }

    /// `cardscan watch ARGS` in the background; returns the process and where its output goes.
    func startWatch(_ args: [String]) throws -> (Subprocess, WatchOutput) {
        let out = NSTemporaryDirectory() + "watch-\(UUID().uuidString)"
        let outFD = open(out + ".out", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644),
            errFD = open(out + ".err", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        defer {
            close(outFD)
            close(errFD)
        }
        let watch = try Subprocess(
            [Lab.binDir + "/cardscan", "watch"] + args, environment: Lab.childEnvironment(), stdout: outFD, stderr: errFD)
        return (watch, WatchOutput(path: out))
    }

    /// A card presented three times gives three JSON lines; pcscd restarting is survived.
    @Test func watchReadsEveryCardAndSurvivesAPcscdRestart() throws {
        try Lab.exclusive {
            let (watch, out) = try startWatch(["--jsonl"])
            defer { watch.terminate() }
            for i in 1...3 {
                let card = try Lab.Card(shanghai)
                #expect(out.waitForLines(i), "card \(i): \(out.lines().count) line(s)")
                card.stop()
            }
            #expect(
                out.lines().allSatisfy {
                    $0.hasPrefix("{\"profile\":\"shanghai-transit\"") && $0.hasSuffix("\"exchanges\":14,\"partial\":false}")
                })
            try Lab.stopPCSCD()
            try Lab.ensurePCSCD()
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            #expect(out.waitForLines(4), "after the restart: \(out.lines().count) line(s)")
            let err = out.stderr
            #expect(err.contains("pcscd stopped; waiting for it to come back"), "\(err)")
            #expect(err.contains("pcscd is back"))
        }
    }

    /// A card that stops answering in `watch --jsonl`: its partial line, the reason on stderr
    /// (the line's `partial` says only that it stopped), and the next card read in full.
    @Test func watchGoesOnAfterACardStopsAnswering() throws {
        try Lab.exclusive {
            let (watch, out) = try startWatch(["--jsonl", "--apdu-timeout", "0.5"])
            defer { watch.terminate() }
            let mute = try Lab.Card(shanghai, options: ["--mute-after", "3"])
            #expect(out.waitForLines(1), "the mute card: \(out.lines().count) line(s)")
            mute.stop()
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            #expect(out.waitForLines(2), "the next card: \(out.lines().count) line(s)")
            let all = out.lines()
            #expect(all.first?.hasSuffix("\"exchanges\":4,\"partial\":true}") == true, "\(all.first ?? "")")
            #expect(all.last?.hasSuffix("\"exchanges\":14,\"partial\":false}") == true, "\(all.last ?? "")")
            let err = out.stderr
            #expect(err.contains("error: timed out waiting for the card on Virtual PCD 00 00"), "\(err)")
        }
    }

    /// `watch` over 100 taps of the Opal DESFire card through pcscd: every read complete and
    /// equal (each read starts at the card level, so one left in an application cannot answer).
    @Test func watchReadsADESFireCardAHundredTimes() throws {
        try Lab.exclusive {
            let (watch, out) = try startWatch(["--jsonl"])
            defer { watch.terminate() }
            let start = Date()
            for i in 1...100 {
                let card = try Lab.Card(Lab.root + "/Tests/LabCards/opal-image.json")
                _ = out.wait(every: 20_000) { out.lines().count >= i }
                card.stop()
            }
            let all = out.lines()
            print("watch: \(all.count) DESFire reads in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
            #expect(all.count == 100)
            #expect(Set(all).count == 1, "reads differ: \(Set(all).prefix(2))")
            #expect(
                all.first?.contains("\"amount\":-250") == true && all.first?.contains("\"partial\":false") == true, "\(all.first ?? "")")
        }
    }

    /// `watch --csv`: one header, then each card's trips as rows, two profiles in one table.
    @Test func watchWritesCSVWithOneHeader() throws {
        try Lab.exclusive {
            let (watch, out) = try startWatch(["--csv"])
            defer { watch.terminate() }
            func text() -> String { out.text }
            func waitFor(_ rows: Int) -> Bool { out.wait { text().components(separatedBy: "\r\n").count - 1 >= rows } }
            let first = try Lab.Card(shanghai)
            #expect(waitFor(11), "\(text())")  // the header and ten trips
            first.stop()
            let second = try Lab.Card(Lab.root + "/Tests/LabCards/t-money-image.json")
            #expect(waitFor(15), "\(text())")
            second.stop()
            let lines = text().components(separatedBy: "\r\n").dropLast()
            #expect(lines.first == "profile,card,time,kind,amount,currency,terminal,sequence,details")
            #expect(lines.filter { $0.hasPrefix("profile,") }.count == 1)
            #expect(lines.contains("shanghai-transit,305419896,2024-03-05T08:30:15+08:00,purchase,-3.00,CNY,110111000001,12,"))
            #expect(lines.contains("t-money,1010030000987654,2024-11-05T08:30:12+09:00,purchase,-1400,KRW,,9,balanceAfter=12350"))
            #expect(lines.count == 15, "\(lines)")
        }
    }
}

/// `cardscan --device` through the real libnfc and cardsim's emulated PN532.
@Suite struct NFCCLITests {
    @Test func suicaThroughALibnfcDeviceRecordsAndReplays() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"))
            defer { pn532.stop() }
            let file = NSTemporaryDirectory() + "suica-\(UUID().uuidString).apdu"
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--record", file],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            let expected = try String(contentsOfFile: Lab.fixture("suica/full-read.expected.json"), encoding: .utf8)
            #expect(r.stdout == expected, "\(r.stdout)")
            let recorded = try String(contentsOfFile: file, encoding: .utf8)
            #expect(recorded.hasPrefix("# cardscan transcript 1\n# technology: felica\n# idm: 01 2E 4C D0 1A 2B 3C 4D\n"))
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == expected)
            let readers = try Lab.cardscan(["readers", "--nfc"], environment: pn532.environment)
            #expect(readers.stdout.contains("libnfc  \(pn532.connectionString)"))
            // A configured device is listed without --nfc too (no scan needed to know it).
            let configured = try Lab.cardscan(["readers"], environment: ["LIBNFC_DEVICE": pn532.connectionString])
            #expect(configured.stdout.contains("libnfc  \(pn532.connectionString)"), "\(configured.stdout)")
            let doctor = try Lab.cardscan(["doctor"], environment: pn532.environment)
            #expect(doctor.stdout.contains("ok   libnfc device \(pn532.connectionString) opens: "), "\(doctor.stdout)")
            #expect(!doctor.stderr.contains("libnfc.buses"))  // libnfc's own log stays quiet
            // Without pcscd, a PN532 still reads: doctor warns instead of failing, and readers
            // lists the device (and says why there is no PC/SC reader).
            var noPCSCD = pn532.environment
            noPCSCD["PCSCLITE_CSOCK_NAME"] = "/nonexistent"
            let alone = try Lab.cardscan(["doctor"], environment: noPCSCD)
            #expect(alone.status == 0, "\(alone.stdout)")
            #expect(alone.stdout.contains("warn pcscd is not running") && alone.stdout.contains("the libnfc device below reads without"))
            let listed = try Lab.cardscan(
                ["readers"], environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent", "LIBNFC_DEVICE": pn532.connectionString])
            // Exit 69 all the same: a script reads it as "the PC/SC readers cannot be told".
            #expect(listed.status == 69 && listed.stdout.contains("libnfc  \(pn532.connectionString)"), "\(listed.stdout)")
            #expect(listed.stderr.contains("pcscd is not running"), "\(listed.stderr)")
        }
    }

    /// PASMO and Suica share every public service; the issuer's own services (asked with
    /// one Request Service) tell them apart. The card image has the real PASMO service list.
    @Test func pasmoIsToldFromSuicaByItsServices() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { pn532.stop() }
            let file = NSTemporaryDirectory() + "pasmo-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--record", file],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"name\": \"PASMO\"") && r.stdout.contains("\"amount\": 1234"), "\(r.stdout)")
            #expect(r.stdout.contains("\"amount\": -210") && r.stdout.contains("\"amount\": -150") && r.stdout.contains("\"exchanges\": 4"))
            // The recording ends with the Request Service and the card's key versions (0000: PASMO's 1CC8 and 1D08).
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            #expect(
                lines.suffix(2).first?.hasPrefix("> 41 02 01 01 04 10 AA BB CC DD 1B 08 18 C8 18 C8 1C 08 1D") == true, "\(lines.suffix(2))"
            )
            #expect(lines.last?.hasPrefix("< 41 03 01 01 04 10 AA BB CC DD 1B FF FF FF FF 00 00 00 00 FF FF") == true, "\(lines.suffix(2))")
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == r.stdout)
        }
    }

    @Test func surveyThroughLibnfc() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/octopus-szt-image.json")
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["felica", "--device", pn532.connectionString, "--blocks", "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            // Two systems, each with its own IDm (system number in the upper nibble).
            #expect(
                r.stdout.contains("System 8008  IDm 01 01 07 01 E1 12 34 56\n")
                    && r.stdout.contains("System 8005  IDm 11 01 07 01 E1 12 34 56\n"), "\(r.stdout)")
            #expect(r.stdout.contains("  Service 0118h  Type 18  1 block(s)\n    0000  00 00 01 90 00"), "\(r.stdout)")
        }
    }

    /// A card is there but not the kind asked for: exit 76 at once, not a timeout.
    @Test func theWrongKindOfCardThroughLibnfcIsExit76() throws {
        try Lab.exclusive {
            let pasmo = try Lab.PN532(Lab.root + "/Tests/LabCards/pasmo-image.json")
            let ndef = try Lab.cardscan(
                ["ndef", "read", "--device", pasmo.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            pasmo.stop()
            #expect(ndef.status == 76 && ndef.stderr.contains("the FeliCa card has no NDEF system (12FC)"), "\(ndef.stderr)")
            let shanghai = try Lab.PN532(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { shanghai.stop() }
            let survey = try Lab.cardscan(
                ["felica", "--device", shanghai.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(
                survey.status == 76 && survey.stderr.contains("is not a FeliCa card (ISO 14443-A, UID 04 11 22 33 44 55 66)"),
                "\(survey.stderr)")
        }
    }

    @Test func iso7816ProfileThroughAPN532() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--profile", "shanghai-transit", "--json", "--timeout", "5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"amount\": 5710") && r.stdout.contains("\"exchanges\": 14"))
        }
    }

    @Test func cardRemovedMidReadThroughLibnfcIsExit74WithAPartialReport() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"), options: ["--remove-after", "2"])
            defer { pn532.stop() }
            let r = try Lab.cardscan(
                ["--device", pn532.connectionString, "--json", "--timeout", "5", "--apdu-timeout", "0.5"],
                environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true") && r.stdout.contains("\"amount\": 1270"))  // the balance was read
            #expect(r.stderr.contains("error: the card left the field"))
        }
    }

    @Test func noSuchDeviceIsExit69WithTheHint() throws {
        let r = try Lab.cardscan(
            ["--device", "pn532_uart:/tmp/cardscan-nowhere", "--timeout", "1"], environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("no libnfc device could be opened"))
        #expect(r.stderr.contains("hint:") && r.stderr.contains("pcscd"))
    }
}

/// NDEF tags through the real libnfc and the emulated PN532.
@Suite struct NDEFCLITests {
    func read(_ card: String, json: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            return try Lab.cardscan(
                ["ndef", "read", "--device", pn532.connectionString, "--timeout", "5"] + (json ? ["--json"] : []),
                environment: ["LIBNFC_AUTO_SCAN": "false"])
        }
    }

    @Test func type3() throws {
        let r = try read("type3-ndef.apdu")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Type 3 tag, read-write, capacity 208 bytes\n  URI: https://example.com/t3\n")
    }

    @Test func type4() throws {
        let r = try read("type4-ndef.apdu", json: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("\"tag\": \"type4\"") && r.stdout.contains("\"text\": \"Hello from T4\"")
                && r.stdout.contains("\"language\": \"en\""))
    }

    @Test func type2() throws {
        let r = try read("type2-ndef.apdu")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Type 2 tag, read-write, capacity 141 bytes\n  URI: https://nfc.example/t2\n")
    }

    /// libnfc's own nfc-read-forum-tag3 reads the NDEF message cardsim serves.
    @Test func nfcReadForumTag3ReadsTheSameMessage() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/type3-ndef.apdu")
            defer { pn532.stop() }
            let output = NSTemporaryDirectory() + "t3-\(UUID().uuidString).ndef"
            let r = try Lab.shell(["nfc-read-forum-tag3", "-o", output], environment: pn532.environment, timeout: 20)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("NDEF message length: 19 bytes") && r.stdout.contains("Checksum: ok"))
            let bytes = try #require(FileManager.default.contents(atPath: output))
            #expect([UInt8](bytes) == [0xD1, 0x01, 0x0F, 0x55, 0x04] + Array("example.com/t3".utf8))
        }
    }
}

/// `ndef write` through the real libnfc: written, read back, refused when it must be.
@Suite struct NDEFWriteCLITests {
    func session(_ card: String, _ body: (Lab.PN532) throws -> Void) throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            try body(pn532)
        }
    }
    func cardscan(_ pn532: Lab.PN532, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.cardscan(
            ["ndef"] + args + ["--device", pn532.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
    }

    @Test(arguments: ["type3-ndef.apdu", "type2-ndef.apdu", "type4-ndef.apdu"])
    func writeThenRead(_ card: String) throws {
        try session(card) { pn532 in
            let w = try cardscan(pn532, ["write", "--uri", "https://cardscan.example/written"])
            #expect(w.status == 0, "\(w.stderr)")
            #expect(w.stdout.contains("read back and verified"))
            let r = try cardscan(pn532, ["read"])
            #expect(r.stdout.contains("  URI: https://cardscan.example/written"), "\(r.stdout)")
        }
    }

    @Test func readOnlyTagIsRefused() throws {
        try session("type3-ndef-readonly.apdu") { pn532 in
            let w = try cardscan(pn532, ["write", "--text", "no"])
            #expect(w.status == 65)
            #expect(w.stderr.contains("the Type 3 tag is read-only: nothing was written"))
            #expect(try cardscan(pn532, ["read"]).stdout.contains("  URI: https://example.com/t3"))  // unchanged
        }
    }

    @Test func tooLargeIsRefused() throws {
        try session("type2-ndef.apdu") { pn532 in
            let w = try cardscan(pn532, ["write", "--text", String(repeating: "x", count: 200)])
            #expect(w.status == 65)
            #expect(w.stderr.contains("the message is 207 bytes but the tag holds 141: nothing was written"))
            #expect(try cardscan(pn532, ["read"]).stdout.contains("  URI: https://nfc.example/t2"))  // unchanged
        }
    }
}

@Suite struct NFCFallbackAndWatchTests {
    /// A scan through libnfc that finds no transit profile reports the tag's NDEF records.
    @Test(arguments: [
        ("type3-ndef.apdu", "Type 3 tag", "URI: https://example.com/t3"), ("type2-ndef.apdu", "Type 2 tag", "URI: https://nfc.example/t2"),
    ])
    func ndefFallback(_ card: String, _ tag: String, _ record: String) throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/" + card)
            defer { pn532.stop() }
            let r = try Lab.cardscan(["--device", pn532.connectionString, "--timeout", "5"], environment: ["LIBNFC_AUTO_SCAN": "false"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix(tag) && r.stdout.contains(record), "\(r.stdout)")
        }
    }

    @Test func watchThroughALibnfcDevice() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("suica/full-read.apdu"), options: ["-v"])
            defer { pn532.stop() }
            let out = NSTemporaryDirectory() + "nfcwatch-\(UUID().uuidString)"
            let outFD = open(out, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            let watch = try Subprocess(
                [Lab.binDir + "/cardscan", "watch", "--device", pn532.connectionString, "--jsonl"],
                environment: Lab.childEnvironment(["LIBNFC_AUTO_SCAN": "false"]), stdout: outFD, stderr: outFD)
            close(outFD)
            defer { watch.terminate() }
            let deadline = Date().addingTimeInterval(10)
            var lines: [String] = []
            while Date() < deadline {
                lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if !lines.isEmpty { break }
                usleep(50_000)
            }
            #expect(lines.first?.hasPrefix("{\"profile\":\"suica\"") == true, "\(lines)")
            // The card stays: watch polls it again and again (seen in cardsim's log, not waited
            // for by the clock) and reports it no second time.
            let pollsAtReport = pn532.polls
            while Date() < deadline.addingTimeInterval(5), pn532.polls < pollsAtReport + 3 { usleep(20_000) }
            #expect(pn532.polls >= pollsAtReport + 3, "watch stopped polling: \(pn532.log.suffix(500))")
            #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").count == 1)
        }
    }
}

/// FeliCa cards on a PC/SC contactless reader: cardsim vpcd plays an ACS reader (pseudo-ATR,
/// frames in FF 00 00 00 pseudo-APDUs) in front of a FeliCa card, through the real pcscd.
@Suite struct FeliCaOverPCSCTests {
    @Test func pasmoOnAnACR1252StyleReaderRecordsAndReplays() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "pasmo-pcsc-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.cardscan(["--json", "--timeout", "5", "--record", file])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(
                r.stdout.contains("\"name\": \"PASMO\"") && r.stdout.contains("\"amount\": 1234") && r.stdout.contains("\"exchanges\": 4"),
                "\(r.stdout)")
            let recorded = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                recorded.hasPrefix(
                    "# cardscan transcript 1\n# technology: felica\n# idm: 01 01 04 10 AA BB CC DD\n# pmm: 10 0B 4B 42 84 85 D0 FF\n# system-code: 00 03\n# atr: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42\n"
                ), "\(recorded)")
            #expect(recorded.contains("\n> 10 06 01 01 04 10 AA BB CC DD 01 8B 00 01 80 00\n"))  // frames, not pseudo-APDUs
            #expect(try Lab.cardscan(["replay", "--json", file]).stdout == r.stdout)
            let readers = try Lab.cardscan(["readers"])
            #expect(
                readers.stdout.contains("card   3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42  (FeliCa)"), "\(readers.stdout)"
            )
        }
    }

    /// The same Suica transcript through an ACR122U-style reader gives the fixture's report.
    @Test func suicaOnAnACR122StyleReader() throws {
        try Lab.exclusive {
            let file = NSTemporaryDirectory() + "acr122-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let expected = try String(contentsOfFile: Lab.fixture("suica/full-read.expected.json"), encoding: .utf8)
            do {
                let card = try Lab.Card(Lab.fixture("suica/full-read.apdu"), options: ["--acr122"])
                defer { card.stop() }
                let r = try Lab.cardscan(["--json", "--timeout", "5", "--trace", "--record", file])
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stdout == expected)
                #expect(
                    r.stderr.contains("< 1D 07 01 2E 4C D0 1A 2B 3C 4D 00 00 01")
                        && r.stderr.contains("Read Without Encryption, 1 block(s)"))
            }
            // The recording keeps the ACR122U's ATR, and cardsim plays that reader again for it.
            #expect(
                try String(contentsOfFile: file, encoding: .utf8).contains(
                    "# atr: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A\n"))
            let again = try Lab.Card(file)
            defer { again.stop() }
            #expect(try Lab.cardscan(["readers"]).stdout.contains("03 F0 11 00 00 00 00 8A  (FeliCa)"))
            #expect(try Lab.cardscan(["--json", "--timeout", "5"]).stdout == expected)
        }
    }

    /// Octopus is the second system of this dual card: the profile's Polling for 8008 goes
    /// through the reader too.
    @Test func octopusIsPolledThroughTheReader() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/octopus-szt-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"profile\": \"octopus\"") && r.stdout.contains("\"amount\": 6500"), "\(r.stdout)")
            // Its second system, Shenzhen Tong (raw 0190 → (400 − 350) × 10 fen).
            let szt = try Lab.cardscan(["--json", "--timeout", "5", "--profile", "shenzhen-tong-felica"])
            #expect(
                szt.status == 0 && szt.stdout.contains("\"amount\": 500,") && szt.stdout.contains("\"idm\": \"1101070"),
                "\(szt.stdout)\(szt.stderr)")
        }
    }

    /// `cardscan felica`: the real PASMO service list comes back in order, with the blocks
    /// of the services readable without a key.
    @Test func surveyListsTheTreeAndReadsOpenServices() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["felica", "--blocks", "--json", "--timeout", "5"])
            #expect(r.status == 0, "\(r.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let systems = try #require(root["systems"] as? [[String: Any]])
            #expect(systems.compactMap { $0["code"] as? String } == ["0003", "FE00"])
            let nodes = try #require(systems[0]["nodes"] as? [[String: Any]])
            let services = nodes.compactMap { $0["service"] as? String }
            #expect(services.count == 50 && services.prefix(4) == ["0048", "004A", "0088", "008B"] && services.last == "23CB")
            #expect(nodes.filter { $0["area"] != nil }.count == 9)
            let info = try #require(nodes.first { $0["service"] as? String == "008B" })
            #expect(info["depth"] as? Int == 2 && info["attribute"] as? String == "Random RO w/o key")
            #expect(info["blocks"] as? [String] == ["00 00 00 00 00 00 00 00 00 00 00 D2 04 00 00 12"])
            #expect((nodes.first { $0["service"] as? String == "090F" }?["blocks"] as? [String])?.count == 20)
            #expect(nodes.first { $0["service"] as? String == "1CC8" }?["blocks"] == nil)  // needs a key: not read
            let text = try Lab.cardscan(["felica", "--timeout", "5"])
            #expect(text.stdout.contains("\n    Area 0040h-07FFh\n      Service 0048h  Random RW with key\n"), "\(text.stdout)")
            #expect(text.stdout.hasSuffix("50 service(s) in 2 system(s), 62 exchange(s) with the card\n"), "\(text.stdout)")
        }
    }

    /// `cardscan felica --image` copies a card into a cardsim image: the copy lists what the
    /// original holds, and a profile reads the copy as it reads the card.
    @Test func surveyImageIsAVirtualCopyOfTheCard() throws {
        try Lab.exclusive {
            let source = Lab.root + "/Tests/LabCards/pasmo-image.json"
            let copy = NSTemporaryDirectory() + "copy-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let original: String
            do {
                let card = try Lab.Card(source)
                defer { card.stop() }
                let r = try Lab.cardscan(["felica", "--image", copy, "--timeout", "5"])
                #expect(r.status == 0 && r.stderr.contains("Wrote \(copy)"), "\(r.stderr)")
                original = try Lab.cardscan(["--json", "--timeout", "5"]).stdout
            }
            func systems(_ path: String) throws -> [[String: [String: AnyHashable]]] {
                let root = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
                #expect(root["idm"] as? String == "01 01 04 10 AA BB CC DD" && root["pmm"] as? String == "10 0B 4B 42 84 85 D0 FF")
                return (root["systems"] as? [[String: Any]] ?? []).map { s in
                    [
                        "code": ["": s["code"] as? String ?? ""], "areas": ["": Set(s["areas"] as? [String] ?? [])],
                        "services": (s["services"] as? [String: [String]] ?? [:]).mapValues { $0 as AnyHashable },
                    ]
                }
            }
            #expect(try systems(copy) == (try systems(source)))
            #expect(
                try systems(copy)[0]["services"]?.count == 50
                    && systems(copy)[0]["areas"]?[""]
                        == AnyHashable(
                            Set([
                                "0000 FFFE", "0040 07FF", "0800 0FBF", "0FC0 27FF", "1000 17BF", "17C0 27FF", "1800 1CBF", "1CC0 22FF",
                                "2300 27FF",
                            ]))
            )
            let card = try Lab.Card(copy)
            defer { card.stop() }
            let fromCopy = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(fromCopy.status == 0 && fromCopy.stdout == original && original.contains("\"name\": \"PASMO\""), "\(fromCopy.stdout)")
        }
    }

    /// `cardscan apdu` passes the reader's GET DATA and FeliCa reads in pseudo-APDUs, and
    /// refuses a FeliCa write without --allow-write.
    @Test func rawPseudoAPDUsReadButDoNotWrite() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { card.stop() }
            let r = try Lab.cardscan(["apdu", "FFCA000000", "FF00000006060000030100"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("< 01 01 04 10 AA BB CC DD 90 00 : success"), "\(r.stdout)")
            #expect(r.stdout.contains("< 14 01 01 01 04 10 AA BB CC DD 10 0B 4B 42 84 85 D0 FF 00 03 90 00 : success"), "\(r.stdout)")
            let write = try Lab.cardscan(["apdu", "FF000000200801010410AABBCCDD0109000180004141414141414141414141414141414141"])
            #expect(write.status == 64 && write.stderr.contains("pass --allow-write"), "\(write.stderr)")
        }
    }

    @Test func surveyOfACardThatIsNotFeliCaIsExit76() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { card.stop() }
            let r = try Lab.cardscan(["felica", "--timeout", "5"])
            #expect(r.status == 76)
            #expect(r.stderr.contains("is not a FeliCa card (ATR 3B 8B 80 01"), "\(r.stderr)")
        }
    }

    @Test func removedMidReadIsPartialWithExit74() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json", options: ["--remove-after", "3"])
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5", "--profile", "suica"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true") && r.stdout.contains("\"amount\": 1234"), "\(r.stdout)")
        }
    }
}

/// The same NDEF tags through pcscd: cardsim plays a contactless reader (FeliCa pseudo-APDUs
/// for Type 3, FF B0 / FF D6 storage-card commands for Type 2, plain APDUs for Type 4).
@Suite struct NDEFOverPCSCTests {
    static let cards: [(file: String, read: String)] = [
        ("type3-ndef.apdu", "Type 3 tag, read-write, capacity 208 bytes\n  URI: https://example.com/t3\n"),
        ("type2-ndef.apdu", "Type 2 tag, read-write, capacity 141 bytes\n  URI: https://nfc.example/t2\n"),
        ("type4-ndef.apdu", "Type 4 tag, read-write, capacity 48 bytes\n  Text (en): Hello from T4\n"),
    ]

    @Test(arguments: cards)
    func readWriteReadAndScanFallback(_ card: (file: String, read: String)) throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/" + card.file)
            defer { sim.stop() }
            let first = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(first.status == 0 && first.stdout == card.read, "\(first.stdout)\(first.stderr)")
            let file = NSTemporaryDirectory() + "ndef-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let scanned = try Lab.cardscan(["--timeout", "5", "--record", file])  // no transit profile: its NDEF records
            #expect(scanned.status == 0 && scanned.stdout == card.read, "\(scanned.stdout)\(scanned.stderr)")
            #expect(scanned.stderr.contains("note: the card is an NFC Forum tag, not a transit card: \(file) holds its NDEF read"))
            if card.file == "type2-ndef.apdu" {
                let asked = try Lab.cardscan(["--timeout", "5", "--profile", "suica"])
                #expect(
                    asked.status == 76 && asked.stderr.contains("not read by profile 'suica': the card is a MIFARE Ultralight/NTAG"),
                    "\(asked.stderr)")
            }
            let w = try Lab.cardscan(["ndef", "write", "--uri", "https://cardscan.example/pcsc", "--timeout", "5"])
            #expect(w.status == 0 && w.stdout.contains("read back and verified"), "\(w.stderr)")
            let again = try Lab.cardscan(["ndef", "read", "--json", "--timeout", "5"])
            #expect(again.stdout.contains("\"uri\": \"https://cardscan.example/pcsc\""), "\(again.stdout)")
        }
    }

    @Test func readOnlyType3IsRefusedOverPCSC() throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/type3-ndef-readonly.apdu")
            defer { sim.stop() }
            let w = try Lab.cardscan(["ndef", "write", "--text", "no", "--timeout", "5"])
            #expect(w.status == 65 && w.stderr.contains("the Type 3 tag is read-only: nothing was written"), "\(w.stderr)")
        }
    }

    /// A Type 3 tag refusing the read of its data blocks (status flags 01 A8): a card failure,
    /// exit 74 with the card's reason. It was exit 70, "a bug in cardscan" (the FeliCa error
    /// had no exit status of its own outside a profile's read).
    @Test func aType3TagRefusingItsDataBlocksIsACardFailure() throws {
        let lines = try String(contentsOfFile: Lab.root + "/Tests/LabCards/type3-ndef.apdu", encoding: .utf8).split(separator: "\n")
        let refused =
            lines.prefix { !$0.hasPrefix("> 12 06") } + [
                "> 12 06 02 FE 00 00 00 00 00 00 01 0B 00 02 80 01 80 02", "< 0C 07 02 FE 00 00 00 00 00 00 01 A8",
            ]
        let file = NSTemporaryDirectory() + "type3-refusing-\(UUID().uuidString).apdu"
        try refused.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Lab.exclusive {
            let sim = try Lab.Card(file)
            defer { sim.stop() }
            let r = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains("01 A8") && r.stderr.contains("hint: the card refused"), "\(r.stderr)")
        }
    }

    @Test func aFeliCaTransitCardHasNoNDEF() throws {
        try Lab.exclusive {
            let sim = try Lab.Card(Lab.root + "/Tests/LabCards/pasmo-image.json")
            defer { sim.stop() }
            let r = try Lab.cardscan(["ndef", "read", "--timeout", "5"])
            #expect(
                r.status == 76 && r.stderr.contains("no NDEF system (12FC)")
                    && r.stderr.contains("hint: a transit card is read with `cardscan`"), "\(r.stderr)")
        }
    }
}
