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
        /// Larger than ``TextFile/maximumSize``: refused before it is read.
        case tooLarge(Int)
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
        case .tooLarge(let limit):
            return "\(path): larger than \(limit / (1 << 20)) MiB, more than any transcript, profile or card image holds: not read"
        }
    }

    public var hint: String? {
        switch reason {
        case .missing: return "check the path; a profile can also be named by its id (see the profile list)"
        case .unreadable: return "check the file's permissions and that it is UTF-8 text"
        case .unwritable: return "check that the folder exists and is writable"
        case .tooLarge: return "check that it is the file you meant (a transcript of a whole card is a few kilobytes)"
        }
    }
}

/// Reading and writing the text files cardscan deals in (profiles, transcripts, reports,
/// card images): the one place files are opened.
public enum TextFile {
    /// The largest file cardscan reads (64 MiB): a transcript of a whole card is kilobytes, a
    /// card image with every file of a full card under a megabyte. Larger is refused before a
    /// byte is read, so a wrong path to a disk image costs nothing (docs/reliability.md §Limits).
    public static let maximumSize = 64 << 20

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
        guard Int(info.st_size) <= maximumSize else { throw FileError(path: path, reason: .tooLarge(maximumSize)) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            // It grew since fstat (or is a pipe): the same limit holds.
            if count > maximumSize { throw FileError(path: path, reason: .tooLarge(maximumSize)) }
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, maximumSize + 1)) }
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

    /// The paths of the files under `folder` (in subfolders too) whose names end in `suffix`,
    /// sorted, each `folder/relative/path`. Read with `opendir`/`readdir` (a regression run
    /// lists tens of thousands of files; Foundation's enumerator stats each and cost more than
    /// parsing them). Symbolic links to files are listed; linked folders are not entered.
    public static func files(under folder: String, endingIn suffix: String) throws(FileError) -> [String] {
        var found: [String] = []
        var pending = [""]
        var first = true
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            guard let dir = opendir(path) else {
                // The top folder must be readable; an unreadable subfolder is skipped, as `find` does.
                if first {
                    throw FileError(path: folder, reason: errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))))
                }
                continue
            }
            first = false
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                let type = Int32(entry.pointee.d_type)
                var isFolder = type == Int32(DT_DIR)
                var isFile = type == Int32(DT_REG)
                var isLink = type == Int32(DT_LNK)
                if type == Int32(DT_UNKNOWN) {
                    // A file system that does not say (XFS without ftype, some FUSE mounts): lstat,
                    // which does not follow a link, so a linked folder is never entered.
                    var info = stat()
                    guard lstat(folder + "/" + child, &info) == 0 else { continue }
                    isFolder = info.st_mode & S_IFMT == S_IFDIR
                    isFile = info.st_mode & S_IFMT == S_IFREG
                    isLink = info.st_mode & S_IFMT == S_IFLNK
                }
                if isLink {
                    // A link to a file is listed (a dangling one too: reading it then names it); a
                    // link to a folder is not entered (no loops).
                    var info = stat()
                    isFile = stat(folder + "/" + child, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR
                }
                if isFolder {
                    pending.append(child)
                } else if isFile, name.hasSuffix(suffix) {
                    found.append(child)
                }
            }
        }
        return found.sorted().map { folder + "/" + $0 }
    }

    /// Writes `text` atomically (Foundation writes a temporary file beside it, then renames):
    /// an interrupted run never leaves half a file.
    public static func write(_ text: String, to path: String) throws(FileError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw FileError(path: path, reason: .unwritable(error.localizedDescription))
        }
    }
}
