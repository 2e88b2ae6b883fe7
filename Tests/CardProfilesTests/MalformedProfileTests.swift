import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Tests/Fixtures/bad-profiles: each file's first line says `# expect: LINE: words`; loading
/// it must fail with an issue on that line whose text contains those words.
@Suite struct MalformedProfileTests {
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures + "/bad-profiles")) ?? []).filter {
        $0.hasSuffix(".yaml")
    }.sorted()

    @Test func corpusIsLargeEnough() { #expect(Self.files.count >= 20) }

    @Test(arguments: files)
    func refusedWithTheRightLine(_ name: String) throws {
        let path = fixtures + "/bad-profiles/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expect = text.split(separator: "\n").first!.dropFirst("# expect: ".count)
        let line = Int(expect.split(separator: ":").first!)!
        let words = String(expect.drop { $0 != ":" }.dropFirst().drop { $0 == " " })
        do {
            _ = try ProfileLoader.load(yaml: text, file: path)
            Issue.record("\(name) was accepted")
        } catch {
            let hit = error.issues.first { $0.line == line && $0.reason.contains(words) }
            #expect(hit != nil, "\(name): wanted line \(line) '\(words)', got:\n\(error.message)")
            #expect(error.message.contains(path + ":\(line):"))
        }
    }

    @Test func everyErrorIsReportedAtOnce() {
        let yaml = """
            id: Bad Id
            name: x
            currency: cny
            steps:
              - read-binary: { sfi: 40, length: 30 }
                as: info
            card:
              n: { from: nowhere, offset: 0, length: 2 }
            """
        do {
            _ = try ProfileLoader.load(yaml: yaml, file: "m.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.issues.map(\.line) == [1, 3, 5, 8])
            #expect(error.issues.map(\.path) == ["id", "currency", "steps[0].read-binary.sfi", "card.n.from"])
        }
    }

    /// Collections nested deeper than `YAMLText.maximumDepth` are refused at the first one
    /// too deep, before Yams builds the tree: Yams hashes each mapping key whole, so mappings
    /// used as keys, nested 990 deep, took 0.21 s (a fuzzed 951-byte profile: 79 ms under
    /// AddressSanitizer, over the fuzz campaign's 100 ms bound at 4 kB). Depth 32 is read on.
    @Test func nestingDeeperThan32IsRefusedBeforeTheTreeIsBuilt() {
        func nest(_ depth: Int) -> String {
            "id: deep\nname: " + String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
        }
        // The top-level mapping is one level, so 32 braces make 33.
        for (depth, refused) in [(31, false), (32, true), (990, true)] {
            do {
                _ = try ProfileLoader.load(yaml: nest(depth), file: "d.yaml")
                Issue.record("accepted")
            } catch {
                let deep = error.issues.filter { $0.reason.hasPrefix("collections nested deeper than 32 levels") }
                #expect(deep.count == (refused ? 1 : 0), "\(depth): \(error.issues)")
                // The 33rd level's brace: line 2, after "name: " and 31 "{a: ".
                if refused { #expect(deep.first.map { [$0.line, $0.column] } == [2, 131], "\(depth)") }
            }
        }
        // Mappings as keys, the fuzzed shape: refused at the first key that is one.
        let keys = "id: deep\nname: " + String(repeating: "{", count: 990) + "a: 1" + String(repeating: "}", count: 990)
        #expect(throws: ProfileLoadError.self) { _ = try ProfileLoader.load(yaml: keys, file: "k.yaml") }
        #expect(YAMLText.refusedShape(keys).map { [$0.line, $0.column] } == [2, 8])
        // In a sequence of block mappings as deep: the same.
        let block = (0..<40).map { String(repeating: "  ", count: $0) + "- " }.joined(separator: "\n") + "x"
        #expect(YAMLText.refusedShape(block)?.reason.hasPrefix("collections nested deeper") == true)
        #expect(YAMLText.refusedShape("") == nil && YAMLText.refusedShape("a: [") == nil)
        // A key that is a list, a mapping or an alias: refused where it starts; text keys, and
        // lists, mappings and aliases as values, are not.
        for (yaml, at) in [("? [a, b]\n: 1\n", [1, 3]), ("x:\n  ? { a: 1 }\n  : 2\n", [2, 5]), ("a: &k x\n*k : 1\n", [2, 1])] {
            let r = YAMLText.refusedShape(yaml)
            #expect(r?.reason == "a mapping key must be plain text, not a list, a mapping or an alias", "\(yaml)")
            #expect(r.map { [$0.line, $0.column] } == at, "\(yaml)")
        }
        #expect(YAMLText.refusedShape("a: &v [1, {b: 2}]\nc: *v\nd:\n  - e: f\n    g: [h]\n") == nil)
    }

    /// A profile that `extends` another takes its keys; a problem under an inherited key names
    /// the line of the file it is written in, not the child's.
    @Test func extendsTakesTheParentsKeysAndNamesItsLinesInErrors() throws {
        let dir = NSTemporaryDirectory() + "extends-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        id: parent
        name: Parent
        currency: EUR
        steps:
          - read-binary: { sfi: 1, length: 4 }
            as: purse
        balance: { from: purse, offset: 0, length: 4 }
        """.write(toFile: dir + "/parent.yaml", atomically: true, encoding: .utf8)
        let good = try ProfileLoader.load(yaml: "id: child\nname: Child\nextends: parent\n", file: dir + "/child.yaml")
        #expect(good.id == "child" && good.name == "Child" && good.currency == "EUR" && good.steps.map(\.name) == ["purse"])
        #expect(good.balance != nil)
        // Entries merge: a step the parent has is replaced in place, a new one goes where the
        // child lists it (here before the parent's `purse`).
        let merged = try ProfileLoader.load(
            yaml: "id: child\nname: Child\nextends: parent\nsteps:\n  - read-binary: { sfi: 2, length: 4 }\n    as: value\n"
                + "  - read-binary: { sfi: 3, length: 4 }\n    as: purse\ncard:\n  v: { from: value, length: 4 }\n",
            file: dir + "/child.yaml")
        #expect(merged.steps.map(\.name) == ["value", "purse"] && merged.card.map(\.name) == ["v"])
        guard case .iso7816(.command(let c, _)) = merged.steps[1].action else {
            Issue.record("not a command")
            return
        }
        #expect(c.p1 == 0x83)  // SFI 3: the child's purse
        let child = """
            id: child
            name: Child
            extends: parent
            steps:
              - { as: purse, remove: true }
              - read-binary: { sfi: 2, length: 4 }
                as: value
            """
        do {
            _ = try ProfileLoader.load(yaml: child, file: dir + "/child.yaml")
            Issue.record("accepted a balance reading an answer the child's steps do not make")
        } catch {
            #expect(error.issues.count == 1 && error.message.contains(dir + "/parent.yaml:7:"), "\(error.message)")
        }
        // Removing what the parent does not have is a mistake of the child's, at its line.
        let wrong = "id: child\nname: Child\nextends: parent\nsteps:\n  - { as: nothing, remove: true }\n"
        #expect {
            try ProfileLoader.load(yaml: wrong, file: dir + "/child.yaml")
        } throws: {
            ($0 as? ProfileLoadError)?.issues.first.map {
                $0.file == dir + "/child.yaml" && $0.line == 5 && $0.reason.contains("no step 'nothing'")
            } == true
        }
    }

    @Test func builtInProfilesAllLoad() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/profiles") where name.hasSuffix(".yaml") {
            #expect(throws: Never.self) { _ = try ProfileRegistry.loadFile(packageRoot + "/profiles/" + name) }
        }
    }
}
