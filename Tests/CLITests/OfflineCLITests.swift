import CardProfiles
import Foundation
import LabSupport
import Testing

/// `cardscan` as a user runs it, for the subcommands that need no reader.
@Suite struct OfflineCLITests {
    func cardscan(_ args: String..., env: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.cardscan(args, environment: env)
    }
    let shanghai = Lab.fixture("shanghai-transit/full-read.apdu")

    /// A maintainer's copy of the Shanghai fixture (`a.apdu`) whose expected report says a
    /// balance of 5711 where the card holds 5710; returns its folder.
    func changedShanghaiCopy() throws -> String {
        let dir = NSTemporaryDirectory() + "cardscan-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: shanghai, toPath: dir + "/a.apdu")
        let expected = try String(contentsOfFile: Lab.fixture("shanghai-transit/full-read.expected.json"), encoding: .utf8)
        try expected.replacingOccurrences(of: "\"amount\": 5710", with: "\"amount\": 5711").write(
            toFile: dir + "/a.expected.json", atomically: true, encoding: .utf8)
        return dir
    }

    /// Output that cannot be written (a full disk) is an error with exit 74, never a trap, for
    /// every way cardscan prints; a --record path that cannot be written is refused before a
    /// reader is even looked for (no pcscd is needed to see it).
    @Test func outputThatCannotBeWrittenIsExit74() throws {
        for command in [
            "replay \(shanghai) --json", "replay \(shanghai)", "profiles list", "test \(Lab.fixture("octopus"))", "--help", "--version",
        ] {
            let r = try Lab.shell(["/bin/sh", "-c", "exec \"$CARDSCAN_BIN/cardscan\" \(command) > /dev/full"])
            #expect(r.status == 74, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("error: cannot write the output: No space left on device"), "\(command): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error"), "\(command): \(r.stderr)")
        }
        for command in [["dump", "--image"], ["desfire", "--image"], ["felica", "--image"]] {
            let r = try Lab.cardscan(
                command + ["/nonexistent/card.json", "--timeout", "1"], environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent"])
            #expect(
                r.status == 74 && r.stderr.contains("error: /nonexistent/card.json: cannot write: no such folder"),
                "\(command): \(r.stderr)")
            #expect(!r.stderr.contains("pcscd"), "\(command): looked for a reader first: \(r.stderr)")
        }
        for (path, reason) in [("/nonexistent/x.apdu", "no such folder"), (NSTemporaryDirectory(), "it is a folder (give a file name)")] {
            let r = try cardscan(
                "--profile", "shanghai-transit", "--record", path, "--timeout", "1", env: ["PCSCLITE_CSOCK_NAME": "/nonexistent"])
            #expect(r.status == 74, "\(path): \(r.stderr)")
            #expect(r.stderr.contains("error: \(path): cannot write: \(reason)"), "\(path): \(r.stderr)")
            #expect(!r.stderr.contains("pcscd"), "\(path): looked for a reader first: \(r.stderr)")
        }
    }

    /// A number of seconds that is not one (`nan`, `inf`, `1e300`, negative) is a usage error
    /// naming the option; it trapped where it became milliseconds. Given as the next argument,
    /// `-1` is the option's value, not an unknown option ("Missing value", it used to say).
    @Test func secondsThatAreNotSecondsAreAUsageError() throws {
        for (option, value) in [
            ("--apdu-timeout", "nan"), ("--apdu-timeout", "1e300"), ("--timeout", "inf"), ("--timeout", "-1"), ("--timeout", "604801"),
            ("--apdu-timeout", "0"), ("--apdu-timeout", "-1"),
        ] {
            // (apdu and ndef have no --apdu-timeout, watch no --timeout.)
            for command in [[], ["watch"], ["apdu"], ["dump"], ["ndef", "read"]]
            where !(option == "--apdu-timeout" && (command == ["apdu"] || command == ["ndef", "read"]))
                && !(command == ["watch"] && option == "--timeout")
            {
                let joined = value.hasPrefix("-") ? [option, value] : ["\(option)=\(value)"]
                let r = try Lab.cardscan(command + joined)
                #expect(r.status == 64, "\(command) \(joined): \(r.stderr)")
                let reason =
                    value == "0" ? "at least 0.001 (a millisecond) for one command" : "a number of seconds from 0 to 604800 (a week)"
                #expect(r.stderr.contains("\(reason), not '\(value)'"), "\(r.stderr)")
                #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("runtime failure"), "\(r.stderr)")
            }
        }
        #expect(try cardscan("scan", "--help").stdout.contains("(default: 60)"))
    }

    /// cardsim's numbers are checked too: a port outside 1…65535 trapped converting to 16 bits.
    /// And a message it cannot write (stderr on a full disk) trapped in `FileHandle.write`.
    @Test func cardsimRefusesAPortThatIsNotOne() throws {
        for port in ["0", "65536", "99999"] {
            let r = try Lab.shell([Lab.binDir + "/cardsim", "vpcd", shanghai, "--port", port])
            #expect(r.status == 64 && r.stderr.contains("--port is a TCP port, 1 to 65535 (not \(port))"), "\(port): \(r.stderr)")
        }
        // Numbers that became a divisor or a sleep in 32-bit microseconds (a trap each).
        for (args, reason) in [
            (
                ["--cycle", "800:400", "--remove-after", "3", "--remove-mid-read-every", "0"],
                "--remove-mid-read-every is 1 or more (not 0)"
            ),
            (["--latency-ms", "5000000"], "--latency-ms is 0 to 60000 (not 5000000)"),
            (["--cycle", "1:5000000"], "--cycle is P:A in milliseconds, each 1 to 600000"),
            (["--cycle", "3000000000:1"], "--cycle is P:A in milliseconds, each 1 to 600000"),
            (["--mute-after=-1"], "--mute-after is 0 or more (not -1)"),
        ] {
            let r = try Lab.shell([Lab.binDir + "/cardsim", "vpcd", shanghai] + args)
            #expect(r.status == 64 && r.stderr.contains(reason), "\(args): \(r.stderr)")
        }
        // The emulated PN532's counts are checked as vpcd's are.
        for name in ["--remove-after", "--silent-after"] {
            let pty = NSTemporaryDirectory() + "never-made-\(UUID().uuidString)"
            let r = try Lab.shell([Lab.binDir + "/cardsim", "pn532", "--pty", pty, shanghai, "\(name)=-1"], timeout: 10)
            #expect(r.status == 64 && r.stderr.contains("\(name) is 0 or more (not -1)"), "\(name): \(r.stderr)")
        }
        // Its messages on a full disk are lost, not a trap.
        let full = try Lab.shell(
            ["/bin/sh", "-c", "exec \"$CARDSIM_BIN\" vpcd /nonexistent.apdu 2> /dev/full"],
            environment: ["CARDSIM_BIN": Lab.binDir + "/cardsim"])
        #expect(full.status == 66, "\(full.stdout)")
    }

    /// `ndef write` refuses before waiting for a tag what it would write wrong: a language tag
    /// longer than the Text record's 6-bit length (it was cut to 63 bytes unasked), or not a
    /// tag at all, and an empty URI.
    @Test func ndefWriteRefusesWhatItWouldWriteWrong() throws {
        for args in [
            ["--text", "hi", "--lang", String(repeating: "x", count: 64)], ["--text", "hi", "--lang", ""],
            ["--text", "hi", "--lang", "en us"], ["--text", "hi", "--lang", "日本"], ["--uri", ""],
        ] {
            let r = try Lab.cardscan(["ndef", "write"] + args + ["--timeout", "0"])
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("--lang is a language tag") || r.stderr.contains("--uri is empty"), "\(args): \(r.stderr)")
        }
    }

    @Test func helpAndVersion() throws {
        let help = try cardscan("--help")
        #expect(help.status == 0)
        for sub in ["scan", "readers", "watch", "replay", "test", "profiles", "apdu", "atr", "dump", "desfire", "doctor"] {
            #expect(help.stdout.contains("  \(sub)"), "--help lacks \(sub)")
        }
        // The VERSION file's version and the commit git says this tree is at (scripts/build-info.sh).
        let version = try String(contentsOfFile: Lab.root + "/VERSION", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", Lab.root, "rev-parse", "--short=12", "HEAD"]
        let pipe = Pipe()
        git.standardOutput = pipe
        try git.run()
        git.waitUntilExit()
        let commit = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
        let printed = try cardscan("--version").stdout
        #expect(printed.hasPrefix("cardscan \(version) (commit \(commit)"), "\(printed)")
        let usage = try cardscan("--frobnicate")
        #expect(usage.status == 64)
        let completion = try cardscan("--generate-completion-script", "bash")
        #expect(completion.status == 0 && completion.stdout.contains("replay") && completion.stdout.contains("--profile"))
        let man = try String(contentsOfFile: Lab.root + "/docs/man/cardscan.1", encoding: .utf8)
        #expect(man.contains(".Nm cardscan") && man.contains("replay"))
    }

    @Test func replayPrintsTheSummaryAndTable() throws {
        let r = try cardscan("replay", shanghai)
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Shanghai Public Transportation Card  (shanghai-transit)")
        #expect(lines[1] == "  Number   305419896")
        #expect(lines[2] == "  Valid    2019-03-01 → 2029-03-01")
        #expect(lines[3] == "  Balance  ¥57.10")
        #expect(lines.contains("  Time                        Kind                Amount  Terminal      Sequence"))
        #expect(lines.contains("  2024-03-04 18:00:00 +08:00  top-up              ¥50.00  120000000005        10"))
        #expect(lines.last == "  10 transactions, 14 exchanges with the card")
        #expect(!r.stdout.contains("\u{1B}["), "no colour when not a terminal")
        // Thousands are grouped: a Suica holding 1270 yen (no minor unit), a 2000-yen top-up.
        let suica = try cardscan("replay", Lab.fixture("suica/full-read.apdu"))
        #expect(suica.stdout.contains("  Balance  ¥1,270\n") && suica.stdout.contains("¥2,000"), "\(suica.stdout)")
    }

    /// What other tools hand over: a transcript on standard input (`-`), one saved by an editor
    /// with a byte order mark, or with CRLF line ends — each reads as the original.
    @Test func replayTakesStandardInputABOMAndCRLF() throws {
        let original = try cardscan("replay", "--json", shanghai)
        let text = try String(contentsOfFile: shanghai, encoding: .utf8)
        let bom = try Lab.writeTranscript("\u{FEFF}" + text, name: "bom")
        let crlf = try Lab.writeTranscript(text.replacingOccurrences(of: "\n", with: "\r\n"), name: "crlf")
        for file in [bom, crlf] {
            let r = try cardscan("replay", "--json", file)
            #expect(r.status == 0 && r.stdout == original.stdout, "\(file): \(r.stderr)")
        }
        let piped = try Lab.shell(["/bin/sh", "-c", "exec \"$CARDSCAN_BIN/cardscan\" replay --json - < '\(shanghai)'"])
        #expect(piped.status == 0 && piped.stdout == original.stdout, "\(piped.stderr)")
        let twice = try cardscan("replay", "-", "-")
        #expect(twice.status == 64 && twice.stderr.contains("'-' (standard input) can be given once"), "\(twice.stderr)")
    }

    @Test func replayJSONIsTheContract() throws {
        let r = try cardscan("replay", "--json", shanghai)
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["profile"] as? String == "shanghai-transit")
        #expect((json["balance"] as? [String: Any])?["amount"] as? Int == 5710)
        #expect((json["balance"] as? [String: Any])?["currency"] as? String == "CNY")
        #expect((json["trips"] as? [[String: Any]])?.first?["time"] as? String == "2024-03-05T08:30:15+08:00")
        #expect(json["exchanges"] as? Int == 14)
        #expect(json["partial"] as? Bool == false)
        #expect(r.stdout.hasPrefix("{\n  \"profile\": \"shanghai-transit\",\n  \"name\": "))
    }

    @Test func replayErrors() throws {
        let missing = try cardscan("replay", "/nonexistent.apdu")
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("error: /nonexistent.apdu: no such file"))
        let bad = try Lab.writeTranscript("# cardscan transcript 1\n> 00 A4 04 00\n< 9X 00\n", name: "bad")
        let invalid = try cardscan("replay", bad)
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("\(bad):3:4: 'X' is not hex"), "\(invalid.stderr)")
        // An ISO 7816 profile on a FeliCa card: refused before a command is sent, exit 76.
        let wrongKind = try cardscan("replay", "--profile", "shanghai-transit", Lab.fixture("suica/full-read.apdu"))
        #expect(wrongKind.status == 76)
        #expect(
            wrongKind.stderr.contains(
                "not read by profile 'shanghai-transit': the card speaks FeliCa and the profile reads ISO 7816 cards"),
            "\(wrongKind.stderr)")
        let noSystem = try cardscan("replay", "--profile", "octopus", Lab.fixture("suica/full-read.apdu"))
        #expect(
            noSystem.status == 76 && noSystem.stderr.contains("not read by profile 'octopus': the card has no system 8008"),
            "\(noSystem.stderr)")
        let diverging = try Lab.writeTranscript(
            "# cardscan transcript 1\n# profile: shanghai-transit\n> 00 A4 04 00 02 A0 00 00\n< 90 00\n", name: "div")
        let d = try cardscan("replay", diverging)
        #expect(d.status == 65)
        #expect(d.stderr.contains("\(diverging):3: replay diverged"))
        #expect(d.stderr.contains("expected: 00 A4 04 00 02 A0 00 00"))
        #expect(d.stderr.contains("actual:   00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"))
    }

    @Test func removedMidReadIsExit74WithThePartialReport() throws {
        let r = try cardscan("replay", "--json", Lab.fixture("shanghai-transit/removed-mid-read.apdu"))
        #expect(r.status == 74)
        #expect(r.stdout.contains("\"partial\": true"))
        #expect(r.stderr.contains("error: the card was removed"))
    }

    @Test func anotherCityWithTheShanghaiProfileIsExit76() throws {
        let r = try cardscan("replay", "--lenient", "--profile", "shanghai-transit", Lab.fixture("city-union/xian-full.apdu"))
        #expect(r.status == 76)
        #expect(r.stderr.contains("this card is not read by profile 'shanghai-transit'"))
        #expect(r.stderr.contains("hint: run without --profile"))
    }

    @Test func testCommandPassesAndShowsDiffs() throws {
        let ok = try cardscan("test", Lab.root + "/Tests/Fixtures")
        #expect(ok.status == 0)
        let fixtures = FileManager.default.enumerator(atPath: Lab.root + "/Tests/Fixtures")!.compactMap { $0 as? String }.filter {
            $0.hasSuffix(".expected.json")
        }
        #expect(fixtures.count >= 25)
        #expect(ok.stdout.hasSuffix("\(fixtures.count) passed, 0 failed\n"), "\(ok.stdout.suffix(200))")
        // A maintainer's copy with one expected value changed: a readable diff and exit 1.
        let dir = try changedShanghaiCopy()
        try FileManager.default.copyItem(atPath: Lab.fixture("ezlink/full-read.apdu"), toPath: dir + "/b.apdu")
        let fail = try cardscan("test", "--allow-missing", dir)
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("  balance.amount: expected 5711, actual 5710"))
        #expect(fail.stdout.hasSuffix("0 passed, 1 failed, 1 skipped\n"), "\(fail.stdout)")
        // Without --allow-missing, a transcript with no expected report is a failure, not a pass.
        let missing = try cardscan("test", dir)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("no expected report (b.expected.json)"), "\(missing.stdout)")
        #expect(missing.stdout.hasSuffix("0 passed, 2 failed\n"), "\(missing.stdout)")
        let update = try cardscan("test", "--update", dir)
        #expect(update.status == 0)
        #expect(try cardscan("test", dir).stdout.hasSuffix("2 passed, 0 failed\n"))
        // What --update wrote holds the card's values (worked out from its bytes, not read back).
        let written = try String(contentsOfFile: dir + "/b.expected.json", encoding: .utf8)
        #expect(written.contains("\"number\": \"1009123456781234\"") && written.contains("\"amount\": 1234"), "\(written)")
        // A folder with no transcript in it is a wrong path (exit 66), not "0 passed".
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try cardscan("test", empty)
        #expect(none.status == 66, "\(none.stdout)\(none.stderr)")
        #expect(none.stderr.contains("error: \(empty): no transcripts (*.apdu) in it or below it"), "\(none.stderr)")
        #expect(try cardscan("test", dir, empty).status == 66)
        // A transcript named twice is checked once (two threads updated one report at once).
        let twice = try cardscan("test", dir + "/a.apdu", dir + "/./a.apdu", "--update", "--jobs", "2")
        #expect(twice.status == 0 && twice.stdout.hasSuffix("1 passed, 0 failed\n"), "\(twice.stdout)\(twice.stderr)")
        // An expected report that is a link to standard output is written there, after what
        // was printed before (not over it).
        try FileManager.default.removeItem(atPath: dir + "/b.expected.json")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b.expected.json", withDestinationPath: "/dev/stdout")
        let both = try Lab.shell(["/bin/sh", "-c", "echo EARLIER; exec \"$CARDSCAN_BIN/cardscan\" test --update '\(dir)/b.apdu'"])
        #expect(both.status == 0 && both.stdout.hasPrefix("EARLIER\n{\n  \"profile\": \"ezlink\""), "\(both.stdout)")
        #expect(both.stdout.hasSuffix("UPDATED \(dir)/b.apdu\n0 passed, 0 failed, 1 updated\n"), "\(both.stdout)")
        // An expected report that already says what the replay gives is left alone: not UPDATED.
        let again = try cardscan("test", dir + "/a.apdu", "--update")
        #expect(again.stdout == "ok   \(dir)/a.apdu\n1 passed, 0 failed\n", "\(again.stdout)")
    }

    /// `--shard I/N` for N = 1, 2, 7: the shards' union is the whole corpus, no transcript twice;
    /// `--jobs` changes nothing in the output; `--jsonl` gives a line per transcript with the
    /// first difference, and the closing line on stderr.
    @Test func shardsJobsAndJSONLines() throws {
        let root = Lab.root + "/Tests/Fixtures"
        let all = try cardscan("test", root, "--jsonl")
        #expect(all.status == 0 && all.stderr.hasSuffix(" passed, 0 failed\n"), "\(all.stderr)")
        func paths(_ text: String) throws -> [String] {
            try text.split(separator: "\n").map { line in
                let object = try JSONValue(parsing: String(line))
                guard case .object(let pairs) = object, case .string(let path)? = pairs.first(where: { $0.0 == "path" })?.1 else {
                    throw Lab.LabError("not a result line: \(line)")
                }
                #expect(pairs.contains { $0.0 == "status" && $0.1 == .string("pass") })
                return path
            }
        }
        let every = try paths(all.stdout)
        #expect(every.count >= 48)
        for n in [1, 2, 7] {
            var union: [String] = []
            for i in 1...n {
                let r = try cardscan("test", root, "--jsonl", "--shard", "\(i)/\(n)")
                #expect(r.status == 0, "\(r.stderr)")
                union += try paths(r.stdout)
            }
            #expect(union.count == every.count && Set(union) == Set(every), "N = \(n)")
        }
        let one = try cardscan("test", root, "--jobs", "1"), two = try cardscan("test", root, "--jobs", "2")
        let seven = try cardscan("test", root, "--jobs", "7")
        #expect(one.stdout == two.stdout && two.stdout == seven.stdout)
        #expect(try cardscan("test", root, "--shard", "0/3").status == 64)
        #expect(try cardscan("test", root, "--shard", "4/3").status == 64)
        #expect(try cardscan("test", root, "--jobs", "0").status == 64)
        // A huge count trapped sizing the work (512 × jobs).
        let huge = try cardscan("test", root, "--jobs", "100000000000000000")
        #expect(huge.status == 64 && huge.stderr.contains("--jobs is 1 to 1024, not 100000000000000000"), "\(huge.stderr)")

        // A changed expected value: the JSON line names the first difference.
        let dir = try changedShanghaiCopy()
        let fail = try cardscan("test", dir, "--jsonl")
        #expect(fail.status == 1)
        #expect(
            fail.stdout
                == #"{"path":"\#(dir)/a.apdu","status":"fail","difference":{"path":"balance.amount","expected":"5711","actual":"5710"},"differences":1}"#
                + "\n", "\(fail.stdout)")
        #expect(fail.stderr.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func profilesListValidateShowAdd() throws {
        let home = NSTemporaryDirectory() + "cardscan-home-\(UUID().uuidString)"
        let env = ["XDG_CONFIG_HOME": home]
        let list = try cardscan("profiles", "list", env: env)
        #expect(list.status == 0)
        for id in [
            "shanghai-transit", "city-union", "beijing-yikatong", "shenzhen-tong", "wuhan-tong", "t-union", "lingnan-pass", "ezlink",
            "suica", "octopus", "shenzhen-tong-felica",
        ] {
            #expect(list.stdout.contains(id))
        }
        // Three columns: where each comes from starts at one column on every line.
        let columns = Set(
            list.stdout.split(separator: "\n").compactMap { line in
                line.range(of: "built-in").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            })
        #expect(columns.count == 1, "\(list.stdout)")
        let bad = Lab.fixture("bad-profiles/06-write-command.yaml")
        let v = try cardscan("profiles", "validate", bad)
        #expect(v.status == 65)
        #expect(v.stderr.contains("\(bad):8:"))
        #expect(v.stderr.contains("refused: 80 54"))
        #expect(try cardscan("profiles", "validate", Lab.root + "/profiles/ezlink.yaml").stdout.contains("ok (ezlink, 3 steps)"))
        #expect(try cardscan("profiles", "show", "ezlink").stdout.contains("CEPAS READ PURSE 3"))
        // add: a user's copy of a built-in overrides it, and list says so.
        let mine = NSTemporaryDirectory() + "my-ezlink.yaml"
        try String(contentsOfFile: Lab.root + "/profiles/ezlink.yaml", encoding: .utf8).replacingOccurrences(
            of: "name: EZ-Link", with: "name: My EZ-Link"
        )
        .write(toFile: mine, atomically: true, encoding: .utf8)
        let add = try cardscan("profiles", "add", mine, env: env)
        #expect(add.status == 0)
        #expect(add.stdout.contains("added ezlink → \(home)/cardscan/profiles/ezlink.yaml"))
        let after = try cardscan("profiles", "list", env: env)
        #expect(after.stdout.contains("My EZ-Link"))
        #expect(after.stdout.contains("(overrides "))
        #expect(try cardscan("profiles", "add", bad, env: env).status == 65)
    }

    /// An installed layout (bin/ beside share/cardscan/profiles) finds its built-in profiles
    /// from any working directory.
    @Test func installedBinaryFindsItsProfiles() throws {
        let prefix = NSTemporaryDirectory() + "cardscan-prefix-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/share/cardscan", withIntermediateDirectories: true)
        try Lab.copyExecutable(Lab.binDir + "/cardscan", to: prefix + "/bin/cardscan")
        try fm.copyItem(atPath: Lab.root + "/Sources/BuiltInProfiles/profiles", toPath: prefix + "/share/cardscan/profiles")
        let r = try Lab.shell(
            ["/bin/sh", "-c", "cd / && \(prefix)/bin/cardscan profiles list"], environment: ["XDG_CONFIG_HOME": prefix + "/config"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("shanghai-transit") && r.stdout.contains("built-in"))
        #expect(r.stdout.contains("Search path: ") && r.stdout.contains(prefix + "/share/cardscan/profiles"), "\(r.stdout)")
    }

}
