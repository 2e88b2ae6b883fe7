import APDU
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    ///
    /// Read with one `open` and `read` calls into a buffer sized by `fstat` (a regression run
    /// reads two files per transcript; Foundation's `String(contentsOfFile:)` cost a fifth of
    /// it), and checked to be UTF-8.
    public static func read(_ path: String) throws(FileError) -> String {
        let bytes = try bytes(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(path: path, reason: .unreadable("it is not UTF-8 text"))
        }
        return text
    }

    /// The file's bytes.
    public static func data(_ path: String) throws(FileError) -> Data { Data(try bytes(path)) }

    /// The file's bytes, read with one `open` and `read` calls into a buffer `fstat` sized.
    static func bytes(_ path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw FileError(path: path, reason: code == ENOENT || code == ENOTDIR ? .missing : .unreadable(String(cString: strerror(code))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, reason: .unreadable(String(cString: strerror(errno)))) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileError(path: path, reason: .unreadable("it is a folder")) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }  // it grew since fstat
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, reason: .unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `text` atomically (Foundation writes a temporary file beside it, then renames):
    /// an interrupted run never leaves half a file.
    public static func write(_ text: String, to path: String) throws(FileError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw FileError(path: path, reason: .unwritable(error.localizedDescription))
        }
    }
}
