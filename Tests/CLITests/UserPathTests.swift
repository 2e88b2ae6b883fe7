import Foundation
import LabSupport
import Testing

/// What a user types that no other test covers (issue 15's list): a reader by index and by
/// `CARDSCAN_READER`, a profile by file and an unknown one, a healthy `doctor`, `apdu
/// --allow-write`, a lenient replay that succeeds, and `watch`'s text output ended by Ctrl-C.
@Suite(.serialized) struct UserPathTests {
    let shanghai = Lab.fixture("shanghai-transit/full-read.apdu")

    @Test func aReaderByIndexAndByEnvironment() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai, slot: 1)
            defer { card.stop() }
            let byIndex = try Lab.cardscan(["--json", "-r", "1", "--timeout", "5"])
            #expect(byIndex.status == 0 && byIndex.stdout.contains(#""balance": {"#), "\(byIndex.stderr)")
            let empty = try Lab.cardscan(["--json", "-r", "0", "--timeout", "1"])
            #expect(empty.status == 75, "\(empty.stderr)")  // the card is on the other reader
            let byEnvironment = try Lab.cardscan(["--json", "--timeout", "5"], environment: ["CARDSCAN_READER": "00 01"])
            #expect(
                byEnvironment.status == 0 && byEnvironment.stdout.contains(#""profile": "shanghai-transit""#), "\(byEnvironment.stderr)")
            let wrongEnvironment = try Lab.cardscan(["--timeout", "1"], environment: ["CARDSCAN_READER": "no such reader"])
            #expect(wrongEnvironment.status == 64 && wrongEnvironment.stderr.contains("no such reader"), "\(wrongEnvironment.stderr)")
        }
    }

    @Test func aProfileByFileAndAnUnknownProfile() throws {
        let dir = NSTemporaryDirectory() + "cardscan-profile-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/my-shanghai.yaml"
        let text = try String(contentsOfFile: Lab.root + "/profiles/shanghai-transit.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "id: shanghai-transit", with: "id: my-shanghai").write(
            toFile: file, atomically: true, encoding: .utf8)
        let replay = try Lab.cardscan(["replay", "--json", "--profile", file, shanghai])
        #expect(replay.status == 0 && replay.stdout.contains(#""profile": "my-shanghai""#), "\(replay.stderr)")
        let unknown = try Lab.cardscan(["replay", "--profile", "nosuch", shanghai])
        #expect(unknown.status == 66 && unknown.stderr.contains("no profile named 'nosuch'"), "\(unknown.stderr)")
        let missingFile = try Lab.cardscan(["replay", "--profile", dir + "/absent.yaml", shanghai])
        #expect(missingFile.status == 66, "\(missingFile.stderr)")
    }

    @Test func aHealthyDoctorAndAWriteTheUserAskedFor() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let doctor = try Lab.cardscan(["doctor"])
            #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
            #expect(
                doctor.stdout.contains("ok   pcscd is running") && doctor.stdout.contains("Virtual PCD 00 00 [card]"), "\(doctor.stdout)")
            // UPDATE BINARY: refused without the flag; sent with it (the transcript card does not know it: 6D 00).
            let refused = try Lab.cardscan(["apdu", "00 D6 00 00 01 00"])
            #expect(refused.status == 64 && refused.stderr.contains("--allow-write"), "\(refused.stderr)")
            let sent = try Lab.cardscan(["apdu", "--allow-write", "00 D6 00 00 01 00"])
            #expect(
                sent.status == 0 && sent.stdout.contains("> 00 D6 00 00 01 00") && sent.stdout.contains("< 6D 00"),
                "\(sent.stdout)\(sent.stderr)")
        }
    }

    /// A transcript with an exchange the profile no longer sends: strict replay fails, lenient
    /// replay reads the card.
    @Test func aLenientReplaySucceeds() throws {
        let text = try String(contentsOfFile: shanghai, encoding: .utf8) + "> 00 B0 00 00 10\n< 6A 82\n"
        let file = try Lab.writeTranscript(text, name: "extra-exchange")
        let strict = try Lab.cardscan(["replay", file])
        #expect(strict.status == 65 && strict.stderr.contains("stopped before 1 recorded exchange"), "\(strict.stderr)")
        let lenient = try Lab.cardscan(["replay", "--lenient", "--json", file])
        #expect(lenient.status == 0 && lenient.stdout.contains(#""amount": 5710"#), "\(lenient.stderr)")
    }

    /// `watch` prints each card as text and stops at Ctrl-C (SIGINT), at once.
    @Test func watchPrintsTextAndStopsAtControlC() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let out = NSTemporaryDirectory() + "watch-text-\(UUID().uuidString)"
            let fd = open(out, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            let watch = try Subprocess(
                [Lab.binDir + "/cardscan", "watch"], environment: Lab.childEnvironment(["NO_COLOR": "1"]), stdout: fd, stderr: fd)
            close(fd)
            defer {
                watch.terminate()
                try? FileManager.default.removeItem(atPath: out)
            }
            let deadline = Date().addingTimeInterval(10)
            var text = ""
            while Date() < deadline, !text.contains("exchanges with the card") {
                text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                usleep(20_000)
            }
            #expect(text.contains("Watching for cards (Ctrl-C to stop)…") && text.contains("  Balance  ¥57.10"), "\(text)")
            kill(watch.pid, SIGINT)
            let status = watch.wait(timeout: 5)
            #expect(status == 128 + SIGINT, "watch did not stop at SIGINT (status \(String(describing: status)))")
        }
    }
}

/// `make install` into a staging folder (DESTDIR), from the dev build: the installed cardscan
/// finds its profiles beside it (`../share/cardscan/profiles`) with no help from the
/// environment, and the man pages and shell completions are where the shells look.
@Suite struct InstallTests {
    /// The build's own cardscan, run by name through PATH from another folder: it reads the
    /// checkout's profiles (a copy elsewhere finds the resources beside it: `make example-consumer`).
    @Test func aBuiltCardscanRunByNameFindsItsProfiles() throws {
        let r = try Lab.shell(
            ["/bin/sh", "-c", "cd / && cardscan doctor; cardscan replay \(Lab.fixture("shanghai-transit/full-read.apdu"))"],
            environment: ["PATH": Lab.binDir + ":/usr/bin:/bin"])
        #expect(r.stdout.contains("ok   built-in profiles: \(Lab.root)/Sources/BuiltInProfiles/profiles"), "\(r.stdout)")
        #expect(r.stdout.contains("Shanghai Public Transportation Card"), "\(r.stdout)\(r.stderr)")
    }

    /// No profile anywhere: the error says where cardscan looked, and exits 66.
    @Test func noProfilesAnywhereSaysWhereItLooked() throws {
        let empty = NSTemporaryDirectory() + "cardscan-empty-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let r = try Lab.cardscan(
            ["replay", Lab.fixture("clipper/detected.apdu")],
            environment: ["CARDSCAN_BUILTIN_PROFILES": empty, "XDG_CONFIG_HOME": empty])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.stderr.contains("no profile to recognise the card with: none found in \(empty)/cardscan/profiles, \(empty)"), "\(r.stderr)")
    }

    @Test func anInstalledCardscanReadsWithItsOwnProfiles() throws {
        let stage = NSTemporaryDirectory() + "cardscan-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let make = try Lab.shell(
            [
                "/usr/bin/make", "--no-print-directory", "-C", Lab.root, "install", "DESTDIR=" + stage, "PREFIX=/usr",
                "INSTALL_BIN=" + Lab.binDir,
            ],
            timeout: 120)
        #expect(make.status == 0, "\(make.stdout)\(make.stderr)")
        let prefix = stage + "/usr"
        let installed = try FileManager.default.contentsOfDirectory(atPath: prefix + "/share/cardscan/profiles").filter {
            $0.hasSuffix(".yaml")
        }
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Lab.root + "/profiles").filter { $0.hasSuffix(".yaml") }
        #expect(installed.sorted() == shipped.sorted())
        // Run from somewhere else, so the repository's profiles/ cannot be found instead.
        let replay = try Lab.shell([prefix + "/bin/cardscan", "replay", "--json", Lab.fixture("shanghai-transit/full-read.apdu")])
        #expect(replay.status == 0 && replay.stdout.contains(#""profile": "shanghai-transit""#), "\(replay.stderr)")
        // doctor says where they came from (its exit status depends on pcscd, not looked at here).
        let doctor = try Lab.shell([prefix + "/bin/cardscan", "doctor"])
        #expect(doctor.stdout.contains("ok   built-in profiles: \(prefix)/share/cardscan/profiles (\(shipped.count))"), "\(doctor.stdout)")
        let detected = try Lab.shell([prefix + "/bin/cardscan", "replay", Lab.fixture("clipper/detected.apdu")])
        #expect(detected.status == 0 && detected.stdout.contains("(clipper)"), "\(detected.stdout)\(detected.stderr)")
        // As a user runs it: by name, found through PATH, from another folder (argv[0] is then
        // only "cardscan"), and through a symbolic link elsewhere on PATH.
        let links = stage + "/links"
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: links + "/cardscan", withDestinationPath: prefix + "/bin/cardscan")
        for bin in [prefix + "/bin", links] {
            let byName = try Lab.shell(
                ["/bin/sh", "-c", "cd / && cardscan profiles list && cardscan replay --json \(Lab.fixture("clipper/detected.apdu"))"],
                environment: ["PATH": bin + ":/usr/bin:/bin"])
            #expect(byName.status == 0, "\(bin): \(byName.stdout)\(byName.stderr)")
            #expect(byName.stdout.contains("shanghai-transit"), "\(bin): \(byName.stdout)")
            #expect(byName.stdout.contains("\(prefix)/share/cardscan/profiles"), "\(bin): \(byName.stdout)")
            #expect(byName.stdout.contains(#""profile": "clipper""#), "\(bin): \(byName.stdout)\(byName.stderr)")
        }
        for file in [
            "share/man/man1/cardscan.1", "share/man/man1/cardsim.1", "share/bash-completion/completions/cardscan",
            "share/zsh/site-functions/_cardscan", "share/fish/vendor_completions.d/cardscan.fish", "bin/cardsim",
        ] {
            let size = (try? FileManager.default.attributesOfItem(atPath: prefix + "/" + file)[.size] as? Int) ?? 0
            #expect(size > 100, "\(file): \(size) bytes")
        }
    }
}
