import Foundation

/// The profiles that come with cardscan — the card profiles, their layout files and tables,
/// and the catalogue of known commands — shipped as this module's resources (`profiles/`).
///
/// SwiftPM copies them next to every program that links this module, whichever package builds
/// it: `swift build` puts a folder named `…_BuiltInProfiles.resources` beside the program
/// (cardscan's own, a test bundle, or another package's executable that depends on
/// cardscan). An installed cardscan keeps them in `../share/cardscan/profiles` instead (`make
/// install`, the Debian package). A program built in this checkout's own `.build` folders reads
/// the source folder itself, so an edited profile needs no new build. ``directory(environment:executable:)``
/// finds them, in the order docs/profile-format.md §Where profiles are found gives.
public enum BuiltInProfiles {
    /// The environment variable that names the folder instead of looking for it.
    public static let environmentVariable = "CARDSCAN_BUILTIN_PROFILES"

    /// The built-in profiles' folder: `CARDSCAN_BUILTIN_PROFILES` when set, else
    /// `../share/cardscan/profiles` beside the program's real file (an installed cardscan,
    /// found through any symbolic link), else this module's resources beside the program;
    /// nil when none of these exists.
    public static func directory(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = runningExecutable
    ) -> String? {
        if let d = environment[environmentVariable], !d.isEmpty { return d }
        return places(executable: executable).first { isProfileFolder($0) }
    }

    /// Where ``directory(environment:executable:)`` looks, in order, when the environment does
    /// not name the folder (for messages that say where no profile was found).
    public static func places(executable: URL? = runningExecutable) -> [String] {
        guard let executable else { return [] }
        let folder = executable.deletingLastPathComponent()
        var out = [folder.deletingLastPathComponent().appendingPathComponent("share/cardscan/profiles").path]
        // A program this checkout built (in its own `.build…` folders: cardscan, its tests, the
        // benchmarks) reads the profiles being edited, not the copy made when it was built.
        if executable.path.hasPrefix(sourceRoot + "/.build") { out.append(sourceProfiles) }
        // The bundle's name starts with the identity of the package that built it (`cardscan`,
        // or the folder a consumer checked cardscan out into): matched by its end.
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(resourceBundleSuffix) }.sorted()
        out += bundles.map { folder.appendingPathComponent($0).appendingPathComponent("profiles").path }
        if bundles.isEmpty {
            out.append(folder.appendingPathComponent("cardscan" + resourceBundleSuffix + "/profiles").path)
        }
        return out
    }

    /// The checkout this module was built from, and its profiles (the resources' source).
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let sourceProfiles = sourceRoot + "/Sources/BuiltInProfiles/profiles"

    /// The end of the folder name SwiftPM gives this module's resources.
    static let resourceBundleSuffix = "_BuiltInProfiles.resources"

    /// Whether `path` holds built-in profiles (their schema marks the folder).
    static func isProfileFolder(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/profile.schema.json")
    }

    /// The running program's own file, all symbolic links resolved (`/proc/self/exe`): a
    /// program started by name through `PATH` has only its name in `argv[0]`.
    public static let runningExecutable: URL? = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        // Not Linux, or no /proc: the path the program was started with, if it is one.
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath()
    }()
}
