import APDU
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file that could not be read or written: which, and why.
public struct FileError: UserFacingError, Equatable {
    /// Why a file could not be read or written.
    public enum Reason: Equatable, Sendable {
        /// Nothing is at the path.
        case missing
        /// A folder where a file was wanted.
        case folder
        /// It could not be read, or is not UTF-8 text: why, in words.
        case unreadable(String)
        /// It could not be written: why, in words.
        case unwritable(String)
        /// Larger than ``TextFile/maximumSize``: refused before it is read.
        case tooLarge(Int)
    }

    /// The file's path, as given (or "standard input").
    public let path: String
    /// Why it failed.
    public let reason: Reason

    /// The error for `path`, failed for `reason`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Whether nothing is at the path.
    public var isMissing: Bool { reason == .missing }

    public var message: String {
        switch reason {
        case .missing: return "\(path): no such file"
        case .folder: return "\(path): is a folder, not a file"
        case .unreadable(let why): return "\(path): cannot read: \(why)"
        case .unwritable(let why): return "\(path): cannot write: \(why)"
        case .tooLarge(let limit):
            return "\(path): larger than \(limit / (1 << 20)) MiB, more than any transcript, profile or card image holds: not read"
        }
    }

    public var hint: String? {
        switch reason {
        case .missing: return "check the path"
        case .folder: return "give a file in it"
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
    /// it), and checked to be UTF-8; a leading byte order mark is dropped.
    public static func read(_ path: String) throws(FileError) -> String { try text(try bytes(path), path: path) }

    /// Standard input's text (`cardscan replay -`), read and checked as a file's, and named
    /// "standard input" in errors.
    public static func readStandardInput() throws(FileError) -> String {
        let name = "standard input"
        return try text(try bytes(of: STDIN_FILENO, path: name), path: name)
    }

    private static func text(_ bytes: [UInt8], path: String) throws(FileError) -> String {
        var bytes = bytes
        // A byte order mark some editors put first (Windows Notepad) is not part of the text:
        // the first line is then what the user sees.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(path: path, reason: .unreadable("it is not UTF-8 text"))
        }
        return text
    }

    /// The file's bytes.
    public static func data(_ path: String) throws(FileError) -> Data { Data(try bytes(path)) }

    /// The file's bytes, read with one `open` and `read` calls into a buffer `fstat` sized.
    public static func bytes(_ path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw FileError(path: path, reason: code == ENOENT || code == ENOTDIR ? .missing : .unreadable(String(cString: strerror(code))))
        }
        defer { close(fd) }
        return try bytes(of: fd, path: path)
    }

    /// What the open descriptor `fd` holds, to its end, within ``maximumSize``.
    private static func bytes(of fd: Int32, path: String) throws(FileError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, reason: .unreadable(String(cString: strerror(errno)))) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileError(path: path, reason: .folder) }
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

    /// Writes `text` to `path`.
    ///
    /// A regular file (or a new one) is written atomically: into a new file beside it, then
    /// renamed over it, so an interrupted run or a full disk never leaves half a file; a file
    /// it replaces keeps its permissions (a private transcript stays private), and with
    /// `durable` the data is on the disk before the rename (as Foundation's atomic write did;
    /// `test --update`, writing thousands of reports, does without). Through a symbolic link,
    /// the file the link names is written and the link stays. A device or a pipe is written in
    /// place, never replaced by a file (`/dev/null` stays a device). A file this process already
    /// writes as standard output or error (`--record /dev/stdout`) is written through that
    /// descriptor, after what was printed. A failure gives the system's reason.
    public static func write(_ text: String, to path: String, durable: Bool = true) throws(FileError) {
        try write(bytes: Array(text.utf8), to: path, durable: durable)
    }

    /// Writes `bytes` to `path` as ``write(_:to:durable:)`` writes text (a binary image).
    public static func write(bytes: [UInt8], to path: String, durable: Bool = true) throws(FileError) {
        func failure(_ code: Int32) -> FileError {
            FileError(
                path: path,
                reason: .unwritable(code == ENOENT ? "no file can be made in \(folder(of: path))" : String(cString: strerror(code))))
        }
        try checkWritable(path)
        var info = stat()
        if stat(path, &info) == 0 {
            if let fd = standardDescriptor(writing: info) {
                if let failed = writeAll(bytes: bytes, to: fd) { throw failure(failed) }
                return
            }
            if info.st_mode & S_IFMT != S_IFREG {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw failure(errno) }
                let code = writeAll(bytes: bytes, to: fd)
                let closed = close(fd) == 0 ? nil : errno
                if let failed = code ?? closed { throw failure(failed) }
                return
            }
        }
        let destination = linkTarget(path) ?? path
        let mode = stat(destination, &info) == 0 ? info.st_mode & 0o7777 : nil
        // A name of its own (a random part; retried if taken), short whatever the file's name.
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = folder(of: destination) + "/.cardscan-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(errno) }
        var code = writeAll(bytes: bytes, to: fd)
        if code == nil, let mode, fchmod(fd, mode) != 0 { code = errno }
        if code == nil, durable, fsync(fd) != 0 { code = errno }
        let closed = close(fd) == 0 ? nil : errno
        if let failed = code ?? closed {
            unlink(temporary)
            throw failure(failed)
        }
        guard rename(temporary, destination) == 0 else {
            let failed = errno
            unlink(temporary)
            throw failure(failed)
        }
    }

    /// Whether `path` can be written, checked before a card is read (so a read is not lost for
    /// a wrong `--record` or `--image` path): not a folder; an existing device, pipe or
    /// standard output writable itself; otherwise the folder the file goes in exists and is
    /// writable.
    public static func checkWritable(_ path: String) throws(FileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw FileError(path: path, reason: .unwritable("it is a folder (give a file name)"))
            }
            if info.st_mode & S_IFMT != S_IFREG || standardDescriptor(writing: info) != nil {
                guard access(path, W_OK) == 0 else { throw FileError(path: path, reason: .unwritable(String(cString: strerror(errno)))) }
                return
            }
        }
        let dir = folder(of: linkTarget(path) ?? path)
        guard stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FileError(path: path, reason: .unwritable("no such folder"))
        }
        guard access(dir, W_OK | X_OK) == 0 else {
            throw FileError(path: path, reason: .unwritable(String(cString: strerror(errno))))
        }
    }

    /// Standard output or error, when it is the file `info` describes.
    private static func standardDescriptor(writing info: stat) -> Int32? {
        for fd in [STDOUT_FILENO, STDERR_FILENO] {
            var open = stat()
            if fstat(fd, &open) == 0, open.st_dev == info.st_dev, open.st_ino == info.st_ino { return fd }
        }
        return nil
    }

    /// The path a symbolic link at `path` names (its folder's when relative, one level; a
    /// dangling link's too), or nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : folder(of: path) + "/" + target
    }

    /// `text` written whole to the open descriptor `fd` with write(2) (standard output, a
    /// file): nil, or the errno of the write that failed. Foundation's `FileHandle.write`
    /// traps instead.
    public static func writeAll(_ text: String, to fd: Int32) -> Int32? { writeAll(bytes: Array(text.utf8), to: fd) }

    /// `bytes` written whole to the open descriptor `fd`: nil, or the errno of the write that failed.
    public static func writeAll(bytes: [UInt8], to fd: Int32) -> Int32? {
        var utf8 = bytes
        return utf8.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
