import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

@Suite struct RegistryTests {
    func tempDir() throws -> String {
        let d = NSTemporaryDirectory() + "cardscan-reg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func searchPathOrder() {
        let dirs = ProfileRegistry.searchPath(
            profileDirs: ["/a"],
            environment: [
                "CARDSCAN_PROFILE_PATH": "/b:/c", "XDG_CONFIG_HOME": "/x", "CARDSCAN_BUILTIN_PROFILES": "/builtin",
            ])
        #expect(dirs.map(\.path) == ["/a", "/b", "/c", "/x/cardscan/profiles", "/builtin"])
        #expect(dirs.map(\.isBuiltIn) == [false, false, false, false, true])
        #expect(ProfileRegistry.userDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.config/cardscan/profiles")
    }

    @Test func aUserProfileOverridesABuiltInOne() throws {
        let user = try tempDir()
        let text = try String(contentsOfFile: packageRoot + "/profiles/shanghai-transit.yaml", encoding: .utf8)
            .replacingOccurrences(of: "name: Shanghai Public Transportation Card", with: "name: My Shanghai")
        try text.write(toFile: user + "/sh.yaml", atomically: true, encoding: .utf8)
        try "id: broken\n".write(toFile: user + "/broken.yaml", atomically: true, encoding: .utf8)
        let registry = ProfileRegistry(directories: [
            .init(path: user, isBuiltIn: false), .init(path: packageRoot + "/profiles", isBuiltIn: true),
        ])
        let entry = try #require(registry.entries.first { $0.id == "shanghai-transit" })
        #expect(entry.profile.name == "My Shanghai")
        #expect(entry.overrides == [packageRoot + "/profiles/shanghai-transit.yaml"])
        #expect(try registry.resolve("shanghai-transit").name == "My Shanghai")
        #expect(registry.invalid.map(\.file) == [user + "/broken.yaml"])
        #expect(registry.entries.count == builtInRegistry.entries.count)  // the override replaces, adds nothing
    }

    @Test func resolveByPathAndUnknownIDs() throws {
        #expect(try builtInRegistry.resolve(packageRoot + "/profiles/ezlink.yaml").id == "ezlink")
        #expect { try builtInRegistry.resolve("nope") } throws: {
            ($0 as? ProfileRegistry.LookupError)?.message == "no profile named 'nope'"
        }
        #expect { try builtInRegistry.resolve("/nonexistent.yaml") } throws: {
            ($0 as? FileError) == FileError(path: "/nonexistent.yaml", reason: .missing)
        }
    }
}
