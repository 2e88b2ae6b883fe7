import APDU
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// `layout-files`: layouts kept in `layouts/NAME.yaml` beside the profiles and shared by
/// several of them (the Calypso profiles share `intercode`'s). A file is read once per process;
/// each profile that names it still gets its layouts, and its problems name its own lines.
@Suite struct SharedLayoutFileTests {
    let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-layouts-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: d + "/layouts", withIntermediateDirectories: true)
        return d
    }()

    func write(_ name: String, _ text: String) -> String {
        let path = dir + "/" + name
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func profile(_ id: String, layoutFile: String) -> String {
        write(
            "\(id).yaml",
            """
            id: \(id)
            name: \(id)
            currency: EUR
            layout-files: [\(layoutFile)]
            steps:
              - read-binary: { sfi: 0x07, length: 2 }
                as: env
                layout: env
            card:
              network: { from: env, field: network }
            """)
    }

    @Test func twoProfilesNamingOneFileBothDecodeWithIt() throws {
        _ = write("layouts/shared-good.yaml", "layouts:\n  env:\n    - { unused: 4 }\n    - { name: network, bits: 12 }\n")
        for id in ["first", "second"] {
            let p = try ProfileRegistry.loadFile(profile(id, layoutFile: "shared-good"))
            let r = try run(p, [("00 B0 87 00 02", "5A BC 90 00")])
            #expect(try #require(r.report).card["network"] == .int(0xABC), "\(id)")
        }
    }

    @Test func aBrokenFileIsReportedForEveryProfileThatNamesIt() throws {
        let layouts = write("layouts/shared-bad.yaml", "layouts:\n  env:\n    - { unused: 4 }\n    - { name: network, bitz: 12 }\n")
        for id in ["third", "fourth"] {
            let error = try #require(throws: ProfileLoadError.self) { try ProfileRegistry.loadFile(profile(id, layoutFile: "shared-bad")) }
            let issue = try #require(error.issues.first { $0.file == layouts }, "\(id): \(error.issues)")
            #expect(issue.line == 4 && issue.reason.contains("needs a width"), "\(id): \(issue)")
        }
    }

    @Test func aMissingFileIsNamed() throws {
        let error = try #require(throws: ProfileLoadError.self) { try ProfileRegistry.loadFile(profile("fifth", layoutFile: "nowhere")) }
        #expect(error.issues.contains { $0.reason.contains("no layout file 'nowhere'") }, "\(error.issues)")
    }
}
