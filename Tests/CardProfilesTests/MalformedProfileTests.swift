import Foundation
import Testing

@testable import CardProfiles

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
        let child = """
            id: child
            name: Child
            extends: parent
            steps:
              - read-binary: { sfi: 2, length: 4 }
                as: value
            """
        do {
            _ = try ProfileLoader.load(yaml: child, file: dir + "/child.yaml")
            Issue.record("accepted a balance reading an answer the child's steps do not make")
        } catch {
            #expect(error.issues.count == 1 && error.message.contains(dir + "/parent.yaml:7:"), "\(error.message)")
        }
    }

    @Test func builtInProfilesAllLoad() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/profiles") where name.hasSuffix(".yaml") {
            #expect(throws: Never.self) { _ = try ProfileRegistry.loadFile(packageRoot + "/profiles/" + name) }
        }
    }
}
