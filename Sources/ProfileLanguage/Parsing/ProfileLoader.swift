import APDU
import Yams

/// Loads and checks profile files (docs/profile-format.md). Every problem is reported, each
/// with file:line:column and the key path, in one ``ProfileLoadError``.
public enum ProfileLoader {
    /// What a load checks commands against.
    public struct Options: Sendable {
        /// The known commands (the standard ones and the known-commands file).
        public var commands: Result<CommandPolicy, ProfileLoadError>
        /// The files the user trusts to send commands of their own.
        public var trusted: TrustedProfiles
        /// False only for `profiles trust`, which loads a file to show what it declares.
        public var checkTrust: Bool
        /// How many `extends` deep the profile being read is (a parent's parent: 1).
        var extendsDepth = 0

        /// Checks commands against `commands` (by default the standard and the built-in known ones)
        /// and, when `checkTrust`, trust against `trusted` (by default the user's list).
        public init(
            commands: Result<CommandPolicy, ProfileLoadError> = CommandCatalog.builtIn, trusted: TrustedProfiles = .user,
            checkTrust: Bool = true
        ) {
            self.commands = commands
            self.trusted = trusted
            self.checkTrust = checkTrust
        }
    }

    /// Parses profile text; `file` names the source in messages.
    public static func load(yaml text: String, file: String, options: Options = Options()) throws(ProfileLoadError) -> Profile {
        let context = ParseContext(file: file)
        switch options.commands {
        case .success(let policy): context.commandPolicy = policy
        case .failure(let e): throw e
        }
        guard var root = try YAMLText.compose(text, file: file) else {
            throw ProfileLoadError(issues: [ProfileIssue(file: file, line: 1, column: 1, path: "", reason: "the file is empty")])
        }
        if case .mapping(let m) = root, let e = m["extends"] {
            root = ProfileMerge.merge(m, extends: Cursor(e, path: "extends", context: context), context, options: options)
        }
        let profile = ProfileParser.parse(root, context, options: options)
        if let profile, context.issues.isEmpty { return profile }
        throw ProfileLoadError(issues: context.sortedIssues)
    }
}
