#if canImport(Glibc)
    import Glibc
#endif

/// Writes `text` to standard error with write(2). Foundation's `FileHandle.write` traps when
/// the write fails (a full disk under a redirected stderr); a lost message is better than a
/// simulator that stops mid-test.
public func writeToStandardError(_ text: String) {
    var utf8 = Array(text.utf8)
    utf8.withUnsafeMutableBytes { buffer in
        var done = 0
        while done < buffer.count {
            let n = write(STDERR_FILENO, buffer.baseAddress! + done, buffer.count - done)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }
}
