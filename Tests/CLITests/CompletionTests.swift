import Foundation
import LabSupport
import Testing

/// The shell completions ask cardscan itself (`cardscan __complete`): tested through real bash
/// with completions/cardscan.bash loaded, as an installed completion runs.
@Suite struct CompletionTests {
    /// What bash's completion offers for `words` (the last one being completed).
    func bash(_ words: [String]) throws -> [String] {
        let quoted = ([Lab.binDir + "/cardscan"] + words).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source '\(Lab.root)/completions/cardscan.bash'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
            _cardscan
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try Lab.shell(["/bin/bash", "-c", script])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// The default command's options complete without `scan`; a subcommand's are its own.
    @Test func optionsOfTheDefaultCommand() throws {
        #expect(try bash(["--js"]) == ["--json"])
        #expect(try bash(["--show-p"]).sorted() == ["--show-pan", "--show-personal"])
        #expect(try bash(["watch", "--js"]) == ["--jsonl"])
        #expect(try bash(["sc"]) == ["scan"])
        #expect(try bash(["profiles", "sh"]) == ["show"])
    }

    /// Profile ids after `--profile` and `profiles show`; a file where a file goes.
    @Test func profileIDsAndFiles() throws {
        #expect(try bash(["--profile", "shang"]) == ["shanghai-transit"])
        #expect(try bash(["profiles", "show", "t-mo"]) == ["t-money"])
        let fixtures = try bash(["replay", Lab.root + "/Tests/Fixtures/shanghai-transit/full"])
        #expect(fixtures.contains(Lab.root + "/Tests/Fixtures/shanghai-transit/full-read.apdu"), "\(fixtures)")
    }

    /// `-r` completes the readers pcscd has, by index and by name (a name with spaces whole).
    @Test func readersThroughPCSC() throws {
        try Lab.exclusive {
            let names = try bash(["-r", "Virt"])
            #expect(names.sorted() == ["Virtual PCD 00 00", "Virtual PCD 00 01"], "\(names)")
        }
    }
}
