import Foundation
import LabSupport
import PCSCTransport
import Testing

/// `cardscan apdu` and `cardscan watch` against the real pcscd + vpcd, with cardsim as the card.
extension LabCLITests {
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
            // Each line says where and when: the reader, and the moment of the read.
            #expect(
                out.lines().allSatisfy {
                    $0.hasPrefix("{\"profile\":\"shanghai-transit\"")
                        && $0.contains("\"partial\":false,\"reader\":\"Virtual PCD 00 00\",\"readAt\":\"")
                }, "\(out.lines())")
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
            #expect(all.first?.contains("\"exchanges\":4,\"partial\":true,\"reader\":") == true, "\(all.first ?? "")")
            #expect(all.first?.contains("\"error\":{\"message\":\"timed out waiting for the card") == true, "\(all.first ?? "")")
            #expect(all.last?.contains("\"exchanges\":20,\"partial\":false,\"reader\":") == true, "\(all.last ?? "")")
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
            // Equal but for when each was read.
            let reports = all.map { $0.replacingOccurrences(of: #","readAt":"[^"]*""#, with: "", options: .regularExpression) }
            #expect(Set(reports).count == 1, "reads differ: \(Set(reports).prefix(2))")
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

    /// Two readers busy at once: each `watch` report says which reader it came from, in the
    /// JSON lines and in the text.
    @Test func watchSaysWhereAndWhen() throws {
        try Lab.exclusive {
            let (watch, out) = try startWatch(["--jsonl"])
            defer { watch.terminate() }
            let first = try Lab.Card(shanghai, slot: 0)
            defer { first.stop() }
            let second = try Lab.Card(Lab.root + "/Tests/LabCards/t-money-image.json", slot: 1)
            defer { second.stop() }
            #expect(out.waitForLines(2), "\(out.text)")
            var readers: [String: String] = [:]
            for line in out.lines() {
                let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                readers[json?["profile"] as? String ?? "?"] = json?["reader"] as? String
                let at = json?["readAt"] as? String ?? ""
                #expect(at.count >= 20 && at.hasPrefix("20") && at.contains("T"), "\(line)")
            }
            #expect(readers == ["shanghai-transit": "Virtual PCD 00 00", "t-money": "Virtual PCD 00 01"], "\(readers)")
        }
        try Lab.exclusive {
            let (watch, out) = try startWatch([])
            defer { watch.terminate() }
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            #expect(out.wait { out.text.contains("exchanges with the card") }, "\(out.text)")
            let lines = out.lines()
            // `Virtual PCD 00 00 · 2026-11-27 08:30:15 +01:00`, then the report.
            let place = try #require(lines.first { $0.hasPrefix("Virtual PCD 00 00 · ") })
            #expect(place.count == "Virtual PCD 00 00 · 2026-11-27 08:30:15 +01:00".count, "\(place)")
            #expect(lines.firstIndex(of: place).map { lines[$0 + 1] } == "Shanghai Public Transportation Card  (shanghai-transit)")
        }
    }
}
