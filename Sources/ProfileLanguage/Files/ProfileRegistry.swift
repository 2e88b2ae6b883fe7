import APDU
import BuiltInProfiles
import Foundation

/// Where profiles come from, in search order (the first profile with an id wins):
/// a file given by path, `--profile-dir` directories, `CARDSCAN_PROFILE_PATH`
/// (colon-separated), `$XDG_CONFIG_HOME/cardscan/profiles` (default `~/.config/…`),
/// then the built-in profiles.
public final class ProfileRegistry: @unchecked Sendable {
    /// A folder searched for profiles (every `*.yaml` and `*.yml` file in it).
    public struct Directory: Sendable, Equatable {
        /// The folder's path.
        public var path: String
        /// Whether it holds the built-in profiles.
        public var isBuiltIn: Bool
        /// A folder at `path`, holding the built-in profiles when `isBuiltIn`.
        public init(path: String, isBuiltIn: Bool) {
            self.path = path
            self.isBuiltIn = isBuiltIn
        }
    }

    /// A usable profile of the search path, and where it comes from.
    public struct Entry: Sendable {
        /// The profile's id.
        public var id: String
        /// The file it was read from.
        public var file: String
        /// The folder that file is in.
        public var directory: Directory
        /// The loaded profile.
        public var profile: Profile
        /// The files of profiles with the same id that this one hides.
        public var overrides: [String]
    }

    /// The folders searched, in order.
    public let directories: [Directory]
    /// Profiles given beside the folders (``adding(_:file:)``), searched first.
    private var extra: [Entry] = []
    private let lock = NSLock()
    private var loaded: (entries: [Entry], invalid: [(file: String, error: ProfileLoadError)])?
    private var resolved: [String: Profile] = [:]

    /// Usable profiles, in search order (every file is loaded on first use).
    public var entries: [Entry] { loadAll().entries }
    /// Files in the search path that failed to load.
    public var invalid: [(file: String, error: ProfileLoadError)] { loadAll().invalid }

    /// A profile asked for that the search path lacks.
    public enum LookupError: UserFacingError {
        /// No profile has this id; `known` lists the ids there are.
        case noSuchProfile(String, known: [String])
        /// A transcript's `# profile:` header names a profile the search path lacks.
        case transcriptProfileUnknown(String, transcript: String)
        public var message: String {
            switch self {
            case .noSuchProfile(let id, let known):
                return "no profile named '\(id)'" + (Spelling.suggestion(id, among: known).map { ": did you mean '\($0)'?" } ?? "")
            case .transcriptProfileUnknown(let id, let t):
                return "\(t): its '# profile: \(id)' header names a profile that is not installed"
            }
        }
        public var hint: String? {
            switch self {
            case .noSuchProfile(_, let known): return "known profiles: \(known.joined(separator: ", ")) (see the profile list)"
            case .transcriptProfileUnknown: return "name the profile file explicitly, or install it in a profile directory"
            }
        }
    }

    /// The directories searched, from the options and environment.
    public static func searchPath(
        profileDirs: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [Directory] {
        var dirs = profileDirs.map { Directory(path: $0, isBuiltIn: false) }
        if let p = environment["CARDSCAN_PROFILE_PATH"] {
            dirs += p.split(separator: ":").map { Directory(path: String($0), isBuiltIn: false) }
        }
        dirs.append(Directory(path: userDirectory(environment: environment), isBuiltIn: false))
        if let b = builtInDirectory(environment: environment) { dirs.append(Directory(path: b, isBuiltIn: true)) }
        return dirs
    }

    /// `$XDG_CONFIG_HOME/cardscan/profiles`, where `profiles add` copies to.
    public static func userDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/cardscan/profiles"
    }

    /// The built-in profiles (`BuiltInProfiles.directory(environment:executable:)`):
    /// `CARDSCAN_BUILTIN_PROFILES`, else `../share/cardscan/profiles` beside the running
    /// program's real file (an installed cardscan), else the resources SwiftPM copied beside it.
    public static func builtInDirectory(environment: [String: String]? = nil) -> String? {
        // Asked for every table and layout file a profile names: the usual answer (this
        // process's environment and executable) is worked out once.
        guard let environment else { return processBuiltInDirectory }
        return BuiltInProfiles.directory(environment: environment)
    }

    private static let processBuiltInDirectory: String? = BuiltInProfiles.directory()

    /// Every folder this registry looks in, and where the built-in profiles were looked for
    /// when none was found (for a message that says where no profile was).
    public var searchedPlaces: [String] {
        var out = directories.map(\.path)
        if !directories.contains(where: \.isBuiltIn) { out += BuiltInProfiles.places().map { $0 + " (built-in)" } }
        return out
    }

    /// The usual search path (``searchPath(profileDirs:environment:)``): `--profile-dir`
    /// directories, `CARDSCAN_PROFILE_PATH`, the user's directory, the built-in profiles.
    public static func standard(profileDirs: [String] = []) -> ProfileRegistry {
        ProfileRegistry(directories: searchPath(profileDirs: profileDirs))
    }

    /// A registry over `directories`; nothing is read until a profile is asked for.
    public init(directories: [Directory]) {
        self.directories = directories
    }

    /// This registry with `profile` (read from `file`) searched first: it takes part in
    /// detection, and hides a profile of the same id (a profile being written, replayed over
    /// a transcript that was recorded by detection).
    public func adding(_ profile: Profile, file: String) -> ProfileRegistry {
        let r = ProfileRegistry(directories: directories)
        r.extra =
            [
                Entry(
                    id: profile.id, file: file, directory: Directory(path: (file as NSString).deletingLastPathComponent, isBuiltIn: false),
                    profile: profile, overrides: [])
            ] + extra
        return r
    }

    private static func profileFiles(in dir: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.sorted().filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { dir + "/" + $0 }
    }

    private func loadAll() -> (entries: [Entry], invalid: [(file: String, error: ProfileLoadError)]) {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        var entries: [Entry] = extra
        var invalid: [(file: String, error: ProfileLoadError)] = []
        var byID: [String: Int] = [:]
        for (i, e) in extra.enumerated() where byID[e.id] == nil { byID[e.id] = i }
        let files = directories.flatMap { dir in Self.profileFiles(in: dir.path).map { (dir, $0) } }
        // Parsed on every core (the files are independent; the caches they share are locked),
        // then taken in file order, so which file wins an id does not depend on timing.
        var results = [Result<Profile, ProfileLoadError>?](repeating: nil, count: files.count)
        results.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let out = slots
            DispatchQueue.concurrentPerform(iterations: files.count) { i in
                do { out[i] = .success(try Self.loadFile(files[i].1)) } catch let e as ProfileLoadError { out[i] = .failure(e) } catch {}
            }
        }
        for ((dir, file), result) in zip(files, results) {
            switch result {
            case .success(let profile)?:
                if let i = byID[profile.id] {
                    entries[i].overrides.append(file)
                    continue
                }
                byID[profile.id] = entries.count
                entries.append(Entry(id: profile.id, file: file, directory: dir, profile: profile, overrides: []))
            case .failure(let e)?: invalid.append((file, e))
            case nil: break
            }
        }
        loaded = (entries, invalid)
        return loaded!
    }

    /// The profile `id` without loading every file: user directories are read whole (a file
    /// there may carry any id), built-in ones only as `ID.yaml` (built-ins are named by id).
    private func quickLookup(_ id: String) -> Profile? {
        lock.lock()
        defer { lock.unlock() }
        if let p = resolved[id] { return p }
        if let e = extra.first(where: { $0.id == id }) { return e.profile }
        if let loaded { return loaded.entries.first { $0.id == id }?.profile }
        for dir in directories {
            if dir.isBuiltIn {
                if let p = try? Self.loadFile(dir.path + "/" + id + ".yaml"), p.id == id {
                    resolved[id] = p
                    return p
                }
            } else {
                for file in Self.profileFiles(in: dir.path) {
                    if let p = try? Self.loadFile(file), p.id == id {
                        resolved[id] = p
                        return p
                    }
                }
            }
        }
        return nil
    }

    /// Reads and loads one profile file.
    public static func loadFile(_ path: String, options: ProfileLoader.Options = .init()) throws -> Profile {
        try ProfileLoader.load(yaml: try TextFile.read(path), file: path, options: options)
    }

    /// Every profile, in file order (made once: detection asks for them on every read).
    public var profiles: [Profile] {
        lock.lock()
        if let cached = profilesCache {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let list = entries.map(\.profile)
        lock.lock()
        profilesCache = list
        lock.unlock()
        return list
    }
    private var profilesCache: [Profile]?

    /// Whether `idOrFile` names a profile file rather than an id: it has a `/` or a
    /// `.yaml`/`.yml` ending (ids have neither).
    public static func namesFile(_ idOrFile: String) -> Bool {
        idOrFile.utf8.contains(UInt8(ascii: "/")) || idOrFile.hasSuffix(".yaml") || idOrFile.hasSuffix(".yml")
    }

    /// A profile by id, or by file path (``namesFile(_:)``).
    public func resolve(_ idOrFile: String) throws -> Profile {
        if Self.namesFile(idOrFile) { return try Self.loadFile(idOrFile) }
        if let p = quickLookup(idOrFile) { return p }
        if let e = entries.first(where: { $0.id == idOrFile }) { return e.profile }
        throw LookupError.noSuchProfile(idOrFile, known: entries.map(\.id))
    }
}
