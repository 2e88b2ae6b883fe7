import Foundation
import LabSupport
import Testing

/// What a user gets for an input that is not quite right: which file, what is wrong with it,
/// what to do instead, and the rest of the work still done where it can be.
@Suite struct WrongInputTests {
    func cardscan(_ args: String..., env: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.cardscan(args, environment: env)
    }
    let shanghai = Lab.fixture("shanghai-transit/full-read.apdu")
    let tmoney = Lab.fixture("t-money/full-read.apdu")

    func scratch(_ name: String, _ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "cardscan-wrong-\(UUID().uuidString)-" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `replay a b c`: a file that cannot be read, or a card that left mid-read, is named and
    /// the next file is still replayed; the exit status is the worst.
    @Test func replayOfSeveralFilesGoesOnPastABadOne() throws {
        let r = try cardscan("replay", shanghai, "/nonexistent.apdu", tmoney)
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Shanghai Public Transportation Card  (shanghai-transit)"), "\(r.stdout)")
        #expect(r.stdout.contains("T-money  (t-money)"), "the file after the missing one was not replayed: \(r.stdout)")
        #expect(r.stderr == "error: /nonexistent.apdu: no such file\nhint: check the path\n", "\(r.stderr)")

        let removed = Lab.fixture("suica/removed-before-issuer.apdu")
        let partial = try cardscan("replay", removed, tmoney)
        #expect(partial.status == 74, "\(partial.stderr)")
        #expect(partial.stderr.hasPrefix("error: \(removed): the card was removed (transcript line "), "\(partial.stderr)")
        #expect(partial.stdout.contains("T-money  (t-money)"))
        // One file: the message as it always was, with no file name added.
        let one = try cardscan("replay", removed)
        #expect(one.stderr.hasPrefix("error: the card was removed (transcript line "), "\(one.stderr)")
        // A --profile that names nothing is said once, for the command, not once per file.
        let unknown = try cardscan("replay", shanghai, tmoney, "--profile", "no-such-profile")
        #expect(unknown.status == 66 && unknown.stdout.isEmpty, "\(unknown.stdout)")
        #expect(unknown.stderr.components(separatedBy: "no-such-profile").count == 2, "\(unknown.stderr)")
    }

    /// A folder or a profile id where a file is wanted gets a hint that fits the command.
    @Test func aFolderOrAnIDWhereAFileIsWanted() throws {
        let folder = Lab.fixture("octopus")
        let r = try cardscan("replay", folder)
        #expect(r.status == 65)
        #expect(r.stderr.contains("error: \(folder): is a folder, not a file"), "\(r.stderr)")
        #expect(r.stderr.contains("hint: give a file in it; `cardscan test FOLDER` replays every transcript under a folder"))

        let id = try cardscan("profiles", "validate", "shanghai-transit")
        #expect(id.status == 66)
        #expect(id.stderr.contains("error: shanghai-transit: no such file"))
        #expect(
            id.stderr.contains("'shanghai-transit' is a profile's id: `cardscan profiles show shanghai-transit` prints it"), "\(id.stderr)")
        // Only --profile takes an id or a file; a transcript is a file.
        let profile = try cardscan("replay", shanghai, "--profile", "/nonexistent/p.yaml")
        #expect(profile.stderr.contains("hint: check the path, or give a profile id from `cardscan profiles list`"), "\(profile.stderr)")
        let noSuffix = try cardscan("replay", shanghai, "--profile", "./nonexistent")
        #expect(noSuffix.status == 66 && noSuffix.stderr.contains("give a profile id"), "\(noSuffix.stderr)")
        // validate takes files only, whatever their names.
        let validate = try cardscan("profiles", "validate", "/nonexistent/p.yaml")
        #expect(validate.status == 66 && validate.stderr.hasSuffix("hint: check the path\n"), "\(validate.stderr)")
        let folderProfile = try cardscan("profiles", "validate", Lab.root + "/profiles")
        #expect(folderProfile.stderr.hasSuffix("hint: give a file in it\n"), "\(folderProfile.stderr)")
        let transcript = try cardscan("replay", "/nonexistent/t.apdu")
        #expect(transcript.stderr.hasSuffix("hint: check the path\n") && !transcript.stderr.contains("profile id"), "\(transcript.stderr)")
    }

    /// A known header whose value cardscan cannot use is an error at its line and column; a
    /// replay used to go on as if the header were absent (an ISO 7816 card, no ATR).
    @Test func aTranscriptHeaderWithAWrongValueIsNamed() throws {
        let technology = try scratch("t.apdu", "# cardscan transcript 1\n# technology: foo\n> 00 B0 00 00 00\n< 90 00\n")
        let r = try cardscan("replay", technology)
        #expect(r.status == 65)
        #expect(
            r.stderr.contains("error: \(technology):2:15: '# technology:' is iso7816, felica, type2 or classic, not 'foo'"), "\(r.stderr)")
        // A comment between the headers: the line is still the header's own.
        let atr = try scratch("a.apdu", "# cardscan transcript 1\n# read by hand\n# atr: 3B ZZ\n> 00 B0 00 00 00\n< 90 00\n")
        let a = try cardscan("replay", atr)
        #expect(a.status == 65)
        #expect(a.stderr.contains("error: \(atr):3:11: '# atr:' is hex: invalid hex character 'Z' at position 4"), "\(a.stderr)")
        let systems = try scratch("s.apdu", "# cardscan transcript 1\n# systems: 0003  FE0\n> 00 B0 00 00 00\n< 90 00\n")
        let y = try cardscan("replay", systems)
        #expect(y.status == 65)
        #expect(y.stderr.contains("error: \(systems):2:18: '# systems:' is hex: odd number of hex digits (3)"), "\(y.stderr)")
        // The EMV terminal's values: a pair without '=', a tag that is not one, a value not
        // hex; each at its own column, below a comment (the line used to be counted from
        // the header's index).
        for (value, column, reason) in [
            ("9A=261124 9F37", 23, "is TAG=HEX pairs separated by spaces, e.g. 9A=261124 9F37=1A2B3C4D, not '9F37'"),
            ("9F=01", 13, "names its values by BER-TLV tag (9A, 9F37), not '9F'"),
            ("9A=26112Z", 21, "is hex: invalid hex character 'Z' at position 6"),
        ] {
            let terminal = try scratch(
                "e.apdu", "# cardscan transcript 1\n# read by hand\n# terminal: \(value)\n> 00 B0 00 00 00\n< 90 00\n")
            let e = try cardscan("replay", terminal)
            #expect(e.status == 65)
            #expect(e.stderr.contains("error: \(terminal):3:\(column): '# terminal:' \(reason)"), "\(e.stderr)")
        }
        // Keys cardscan does not know are kept as they are.
        let other = try scratch(
            "o.apdu",
            try String(contentsOfFile: shanghai, encoding: .utf8).replacingOccurrences(
                of: "# cardscan transcript 1\n", with: "# cardscan transcript 1\n# station: not hex at all\n"))
        #expect(try cardscan("replay", other).status == 0)
    }

    /// An ATR whose end is wrong (a TCK that does not verify, none, a byte too many) is still
    /// broken down and looked up, with a warning, as pcsc-tools' ATR_analysis does; the TCK
    /// row shows what was sent. An ATR wrong before its end is still an error.
    @Test func anATRWithAWrongEndIsStillShown() throws {
        let body = "3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40"
        let wrong = try cardscan("atr", body + " 11")
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("warning: TCK is 11 but the XOR of T0…Tk needs 52; shown as if the ATR were \(body) 52"))
        #expect(wrong.stdout.contains("  TCK         11  (wrong: the XOR of T0…Tk is 52)"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("  historical  20 85 00 8B 03 0F E0 9A A0 E0 40"))
        #expect(wrong.stdout.contains("Not in smartcard_list.txt as given; as mended:\nIdentified: Shanghai Public Transportation Card"))

        let missing = try cardscan("atr", body)
        #expect(missing.status == 0 && missing.stdout.contains("  TCK         --  (missing: the XOR of T0…Tk is 52)"), "\(missing.stdout)")
        let extra = try cardscan("atr", body + " 52 77")
        #expect(extra.status == 0 && extra.stderr.contains("warning: 1 byte(s) after the end of the ATR"), "\(extra.stderr)")
        #expect(extra.stdout.contains("  TCK         52  (correct)"))

        // What the mended ATR says of a contactless card: a FeliCa pseudo-ATR with a byte too many.
        let felica = try cardscan("atr", "3B8F8001804F0CA0000003061100 3B0000000042 99")
        #expect(felica.stdout.contains("card name 00 3B: FeliCa\n  read it with `cardscan`"), "\(felica.stdout)")

        let early = try cardscan("atr", "3B 8B 80")
        #expect(early.status == 65 && early.stderr.contains("ATR truncated: TD2 missing") && early.stdout.isEmpty)
    }

    /// Options a command does nothing with are not offered to it: `doctor --show-pan` is a
    /// usage error, not silently accepted.
    @Test func optionsOfAReadAreNotOfferedWhereNothingIsRead() throws {
        for args in [["doctor", "--show-pan"], ["profiles", "list", "--profile", "opal"], ["profiles", "show", "opal", "--record-raw"]] {
            let r = try Lab.cardscan(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("Unknown option"), "\(args): \(r.stderr)")
        }
        // --profile-dir still is: those commands list and show profiles.
        let dir = NSTemporaryDirectory() + "cardscan-wrong-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let list = try Lab.cardscan(["profiles", "list", "--profile-dir", dir])
        #expect(list.status == 0 && list.stdout.contains(dir), "\(list.stdout)")
    }
}
