import APDU

/// One problem in a profile file: where (file:line:column and the field path) and what.
public struct ProfileIssue: Hashable, Sendable, CustomStringConvertible {
    /// The file the problem is in.
    public var file: String
    /// The problem's line, from 1.
    public var line: Int
    /// The problem's column, from 1.
    public var column: Int
    /// Dotted path to the offending key, e.g. `steps[2].read-records.sfi`.
    public var path: String
    /// What is wrong, in a sentence.
    public var reason: String
    public var description: String {
        "\(file):\(line):\(column): \(path.isEmpty ? "" : "\(path): ")\(reason)"
    }
}

/// A profile that could not be loaded; it lists every problem found, not just the first.
public struct ProfileLoadError: UserFacingError, Equatable {
    /// Every problem found.
    public var issues: [ProfileIssue]
    public var message: String { issues.map(\.description).joined(separator: "\n") }
    public var hint: String? { "see docs/profile-format.md for the format" }
}
