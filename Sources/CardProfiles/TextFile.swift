import APDU
import Foundation

/// A file that could not be read or written: which, and why.
public struct FileError: UserFacingError, Equatable {
    public enum Reason: Equatable, Sendable {
        case missing
        case unreadable(String)
        case unwritable(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var isMissing: Bool { reason == .missing }

    public var message: String {
        switch reason {
        case .missing: return "\(path): no such file"
        case .unreadable(let why): return "\(path): cannot read: \(why)"
        case .unwritable(let why): return "\(path): cannot write: \(why)"
        }
    }

    public var hint: String? {
        switch reason {
        case .missing: return "check the path; a profile can also be named by its id (see the profile list)"
        case .unreadable: return "check the file's permissions and that it is UTF-8 text"
        case .unwritable: return "check that the folder exists and is writable"
        }
    }
}

/// Reading and writing the text files cardscan deals in (profiles, transcripts, reports,
/// card images): the one place files are opened.
public enum TextFile {
    /// The file's text (UTF-8).
    public static func read(_ path: String) throws(FileError) -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw FileError(path: path, reason: .missing) }
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw FileError(path: path, reason: .unreadable(error.localizedDescription))
        }
    }

    /// The file's bytes.
    public static func data(_ path: String) throws(FileError) -> Data {
        guard FileManager.default.fileExists(atPath: path) else { throw FileError(path: path, reason: .missing) }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw FileError(path: path, reason: .unreadable(error.localizedDescription))
        }
    }

    /// Writes `text` atomically (Foundation writes a temporary file beside it, then renames):
    /// an interrupted run never leaves half a file.
    public static func write(_ text: String, to path: String) throws(FileError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw FileError(path: path, reason: .unwritable(error.localizedDescription))
        }
    }
}
