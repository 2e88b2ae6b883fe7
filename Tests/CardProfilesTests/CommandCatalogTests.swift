import APDU
import DESFireCommands
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// The known-commands file: proprietary commands as data, every problem with its line.
@Suite struct CommandCatalogTests {
    @Test func theBuiltInFileLoadsAndKnowsTheProprietaryReads() throws {
        let policy = try CommandCatalog.load(packageRoot + "/profiles/" + CommandCatalog.relativePath).get()
        #expect(policy.name(of: CommandAPDU(cla: 0x90, ins: 0x4C, p1: 0, p2: 0, le: 4)) == "GET BALANCE (KS X 6924)")
        #expect(policy.name(of: CommandAPDU(cla: 0x80, ins: 0x5C, p1: 0, p2: 2, le: 4)) == "GET BALANCE (PBOC / JT/T)")
        #expect(policy.name(of: CommandAPDU(cla: 0x94, ins: 0xB2, p1: 1, p2: 0x3C, le: 0)) == "READ RECORD (Calypso class)")
        #expect(
            policy.refusal(of: CommandAPDU(cla: 0x80, ins: 0x54, p1: 1, p2: 0)) == "it is DEBIT FOR PURCHASE (PBOC), which changes the card"
        )
        #expect(policy.refusal(of: CommandAPDU(cla: 0x90, ins: 0x78, p1: 0, p2: 0)) == "it may change the card (not in the read-only list)")
        // The standard set alone knows none of them.
        #expect(!CommandPolicy.standard.isReadOnly(CommandAPDU(cla: 0x90, ins: 0x4C, p1: 0, p2: 0, le: 4)))
        #expect(CommandPolicy.standard.isReadOnly(CommandAPDU(cla: 0x00, ins: 0xB2, p1: 1, p2: 0x0C, le: 0)))
    }

    @Test func problemsNameTheLine() {
        let text = """
            read-only:
              - { command: "90 4C", name: X, source: Y }
              - { command: "90", name: X, source: Y }
              - { command: "90 99", name: X }
            changing:
              - { command: "90 4C", name: BAD, source: Z }
            """
        #expect {
            try CommandCatalog.parse(text, file: "k.yaml")
        } throws: {
            guard let e = $0 as? ProfileLoadError else { return false }
            let m = e.message
            return m.contains("k.yaml:3:") && m.contains("a command is its class and instruction bytes")
                && m.contains("k.yaml:4:") && m.contains("required key 'source' is missing")
                && m.contains("90 4C is also listed as BAD, which changes the card")
        }
        #expect(throws: ProfileLoadError.self) { try CommandCatalog.parse("[1, 2]", file: "k.yaml") }
        #expect(throws: ProfileLoadError.self) { try CommandCatalog.parse("read-only: [", file: "k.yaml") }
    }

    /// A read that is also on the changing list is never allowed, whatever adds it.
    @Test func aChangingEntryWinsOverARead() {
        let e = CommandPolicy.Entry(cla: 0x90, ins: 0x02, name: "INIT PURCHASE", source: "proxmark3")
        let p = CommandPolicy.standard.adding(reads: [e], changing: [e])
        #expect(!p.isReadOnly(CommandAPDU(cla: 0x90, ins: 0x02, p1: 0, p2: 0)))
    }

    /// The DESFire commands the code knows and the data file agree: every read is allowed
    /// wrapped (CLA 90), every write, authentication or key change is refused by name.
    @Test func desfireCommandsMatchTheDataFile() throws {
        let policy = try CommandCatalog.load(packageRoot + "/profiles/" + CommandCatalog.relativePath).get()
        for (ins, name) in DESFireInstruction.reads {
            let c = CommandAPDU(cla: 0x90, ins: ins, p1: 0, p2: 0, le: 256)
            #expect(policy.name(of: c) == "\(name) (DESFire)", "\(name)")
        }
        for (ins, name) in DESFireInstruction.changing {
            let c = CommandAPDU(cla: 0x90, ins: ins, p1: 0, p2: 0, le: 256)
            #expect(!policy.isReadOnly(c) && policy.refusal(of: c) == "it is \(name) (DESFire), which changes the card", "\(name)")
        }
    }
}

/// The shipped known-commands file is read without the YAML library; the two readers agree.
@Suite struct CommandCatalogFastPathTests {
    @Test func theShippedFileReadsTheSameBothWays() throws {
        let path = packageRoot + "/profiles/" + CommandCatalog.relativePath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let fast = try #require(CommandCatalog.canonicalLists(text), "the shipped file is not in the canonical form")
        let slow = try CommandCatalog.parseYAML(text, file: path)
        #expect(CommandPolicy.standard.adding(reads: fast.reads, changing: fast.changing).reads == slow.reads)
        #expect(CommandPolicy.standard.adding(reads: fast.reads, changing: fast.changing).changing == slow.changing)
        #expect(fast.reads.count > 20 && fast.changing.count > 20)
    }

    @Test(arguments: [
        "read-only:\n  - command: \"90 4C\"\n    name: X\n",  // no source
        "read-only:\n  - {command: \"90 4C\", name: X, source: Y}\n",  // flow style
        "read-only:\n  - command: \"90 4C\"\n    name: a: b\n    source: Y\n",  // a plain value YAML would read otherwise
        "read-only:\n  - command: \"90 4C\"\n    name: \"say \\\"hi\\\"\"\n    source: Y\n",  // an escape
        "read-only:\n  - command: \"90\"\n    name: X\n    source: Y\n",  // one byte
        "read-only:\nread-only:\n",  // twice
        "read-only:\n    name: X\nchanging:\n  - command: \"90 4C\"\n    name: X\n    source: Y\n",  // a name outside an entry
        "read-only:\nchanging:\n  - command: \"90 4C\"\n    name: X\n    source: Y\n",  // an empty list
        "read-only:\n  - command: \"90 4C\"\n    name: \"\"\n    source: Y\n",  // an empty name
        "read-only:\n  - command: \"90 4C\"\n    name: X\t# a comment to YAML\n    source: Y\n",  // a tab
        "read-only:\n  - command: \"90 4C\"\n    name: X\r\n    source: Y\n",  // a carriage return
        "read-only:\n  - command: \"90 4C\"\n    name: X\u{2028}Z\n    source: Y\n",  // a line separator
        "\t# tab-indented\nread-only:\n  - command: \"90 4C\"\n    name: X\n    source: Y\n",
    ])
    func anythingElseTakesTheYAMLPath(_ text: String) {
        #expect(CommandCatalog.canonicalLists(text) == nil)
    }
}
