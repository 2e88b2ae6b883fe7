import Foundation
import LabSupport
import Testing

/// A profile's own proprietary read commands: refused until the user trusts the file, never
/// for a command known to change a card (`cardscan profiles trust`, docs/profile-format.md
/// §Commands).
@Suite struct TrustTests {
    func cardscan(_ args: [String], home: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.cardscan(args, environment: ["XDG_CONFIG_HOME": home])
    }

    /// The T-money profile plus KS X 6924's record command `90 78` (not on the known list:
    /// nothing public says it only reads), as a user would write it.
    func userProfile(in dir: String, extra: String = "") throws -> String {
        var text = try String(contentsOfFile: Lab.root + "/profiles/t-money.yaml", encoding: .utf8)
        text = text.replacingOccurrences(of: "id: t-money", with: "id: my-t-money")
        text = text.replacingOccurrences(
            of: "\nsteps:\n",
            with: """

                commands:
                  - { command: "90 78", name: "READ PURSE RECORD (KS X 6924)", source: "proxmark3 cmdhfksx6924.c; Metrodroid KSX6924Application.kt" }\(extra)

                steps:

                """)
        text = text.replacingOccurrences(
            of: "    as: app\n", with: "    as: app\n  - command: \"90 78 00 00 10\"\n    as: record0\n    optional: true\n")
        let file = dir + "/my-t-money.yaml"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aDeclaredCommandIsSentOnlyOnceTheFileIsTrusted() throws {
        let home = NSTemporaryDirectory() + "cardscan-trust-\(UUID().uuidString)"
        let file = try userProfile(in: home + "/work")
        let transcript = home + "/t.apdu"
        try """
        # cardscan transcript 1
        # technology: iso7816
        # atr: 3B 84 80 01 00 4B 53 58 45
        > 00 A4 04 00 07 D4 10 00 00 03 00 01 00
        < 6F 31 B0 2F 00 10 01 08 10 10 03 00 00 98 76 54 00 00 00 00 01 20 23 03 15 20 28 03 14 01 00 00 07 A1 20 00 00 00 01 86 A0 00 00 00 00 00 00 00 00 00 00 90 00
        > 90 78 00 00 10
        < 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 90 00
        > 90 4C 00 00 04
        < 00 00 30 3E 90 00
        > 00 B2 01 24 00
        < 6A 83

        """.write(toFile: transcript, atomically: true, encoding: .utf8)

        let refused = try cardscan(["replay", transcript, "--profile", file, "--json"], home: home)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(file):"), "\(refused.stderr)")
        #expect(refused.stderr.contains("90 78 (READ PURSE RECORD (KS X 6924))") && refused.stderr.contains("cardscan profiles trust"))

        let validate = try cardscan(["profiles", "validate", file], home: home)
        #expect(validate.status == 0 && validate.stdout.contains("declares commands of its own"), "\(validate.stdout)")

        let trust = try cardscan(["profiles", "trust", file], home: home)
        #expect(trust.status == 0, "\(trust.stderr)")
        #expect(trust.stdout.contains("90 78  READ PURSE RECORD (KS X 6924)"), "\(trust.stdout)")
        let store = try String(contentsOfFile: home + "/cardscan/trusted-profiles.yaml", encoding: .utf8)
        #expect(store.contains(#"commands: ["90 78"]"#), "\(store)")

        let read = try cardscan(["replay", transcript, "--profile", file, "--json"], home: home)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("\"amount\": 12350"), "\(read.stdout)")

        // Declaring one more command needs trusting the file again.
        _ = try userProfile(in: home + "/work", extra: #"\#n  - { command: "90 4E", name: "ANOTHER", source: "a guess" }"#)
        let again = try cardscan(["replay", transcript, "--profile", file, "--json"], home: home)
        #expect(again.status == 65 && again.stderr.contains("90 4E (ANOTHER)"), "\(again.stderr)")

        // Taking the trust back.
        _ = try userProfile(in: home + "/work")
        let removed = try cardscan(["profiles", "trust", "--remove", file], home: home)
        #expect(removed.status == 0 && removed.stdout.hasPrefix("no longer trusted: "), "\(removed.stdout)")
        #expect(try cardscan(["replay", transcript, "--profile", file, "--json"], home: home).status == 65)
        // Taking back a trust that is not there says so, instead of "no longer trusted".
        let untrusted = try cardscan(["profiles", "trust", "--remove", file], home: home)
        #expect(untrusted.status == 0 && untrusted.stdout.hasPrefix("not trusted, nothing to take back: "), "\(untrusted.stdout)")
    }

    @Test func aMalformedListOfTrustedFilesIsNamedAndNeverOverwritten() throws {
        let home = NSTemporaryDirectory() + "cardscan-trust-\(UUID().uuidString)"
        let file = try userProfile(in: home + "/work")
        let list = home + "/cardscan/trusted-profiles.yaml"
        let malformed = "- file: \"\(file)\"\n  commands: [\"90 78\"]\n- file: [unclosed\n"
        try FileManager.default.createDirectory(atPath: home + "/cardscan", withIntermediateDirectories: true)
        try malformed.write(toFile: list, atomically: true, encoding: .utf8)

        // The profile is refused, and the message names the list and its line, not "trust the file".
        let refused = try cardscan(["replay", Lab.root + "/Tests/Fixtures/t-money/full-read.apdu", "--profile", file], home: home)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("the list of trusted files cannot be read (\(list):4"), "\(refused.stderr)")
        #expect(refused.stderr.contains("correct or remove \(list)"), "\(refused.stderr)")

        let doctor = try cardscan(["doctor"], home: home)
        #expect(doctor.stdout.contains("the list of trusted profiles cannot be read: \(list):4"), "\(doctor.stdout)")

        // Trusting again stops on the same error and leaves the user's list as it was.
        let trust = try cardscan(["profiles", "trust", file], home: home)
        #expect(trust.status == 65 && trust.stderr.contains("\(list):4"), "\(trust.stderr)")
        #expect(try String(contentsOfFile: list, encoding: .utf8) == malformed)
    }

    @Test func aCommandThatChangesTheCardIsNeverTrusted() throws {
        let home = NSTemporaryDirectory() + "cardscan-trust-\(UUID().uuidString)"
        let file = try userProfile(
            in: home + "/work", extra: #"\#n  - { command: "80 54", name: "JUST A READ", source: "trust me" }"#)
        let trust = try cardscan(["profiles", "trust", file], home: home)
        #expect(trust.status == 65, "\(trust.stdout)")
        #expect(trust.stderr.contains("80 54 is DEBIT FOR PURCHASE (PBOC), which changes the card"), "\(trust.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/cardscan/trusted-profiles.yaml"))
        // A known read is not declared again.
        let known = try userProfile(in: home + "/w2", extra: #"\#n  - { command: "90 4C", name: "BALANCE", source: "KS X 6924" }"#)
        let v = try cardscan(["profiles", "validate", known], home: home)
        #expect(v.status == 65 && v.stderr.contains("90 4C is already known (GET BALANCE (KS X 6924))"), "\(v.stderr)")
    }
}
