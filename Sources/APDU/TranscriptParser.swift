/// Why a transcript was refused: the file, the 1-based line and column, and what is wrong.
public struct TranscriptError: UserFacingError, Equatable {
    /// The name given for the transcript (`<transcript>` by default).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column on that line.
    public var column: Int
    /// What is wrong, one sentence.
    public var reason: String
    /// An error at `file`:`line`:`column`.
    public init(file: String, line: Int, column: Int, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }
    public var message: String { "\(file):\(line):\(column): \(reason)" }
    public var hint: String? { "see docs/transcripts.md for the format" }
}

extension Transcript {
    /// Parses transcript text. `file` names the source in error messages.
    ///
    /// The text is read as UTF-8 bytes in one pass (no line or hex Strings are made; a header
    /// or comment becomes a String only when kept), which is most of what `cardscan test`
    /// spends per transcript (docs/performance.md).
    public init(parsing text: String, file: String = "<transcript>") throws(TranscriptError) {
        var text = text
        let result: Result<Transcript, TranscriptError> = text.withUTF8 { buffer in
            do throws(TranscriptError) { return .success(try Transcript(utf8: buffer, file: file)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    private static let magic = Array("# cardscan transcript ".utf8)

    /// What is wrong with a known header's value (docs/transcripts.md §Lines), and how far
    /// into the value; nil when it is right or the key is not one cardscan reads: a replay
    /// that went on with it would read a different card than the one recorded.
    static func check(_ header: Header) -> (reason: String, offset: Int)? {
        func hex(_ text: Substring, at offset: Int) -> (reason: String, offset: Int)? {
            do throws(TerminalHeader.Problem) { _ = try TerminalHeader.hex(text, header: header.key, at: offset) } catch {
                return (error.reason, error.offset)
            }
            return nil
        }
        switch HeaderKey(rawValue: header.key) {
        case .technology?:
            return ["iso7816", "felica", "type2", "classic"].contains(header.value)
                ? nil : ("'# technology:' is iso7816, felica, type2 or classic, not '\(header.value)'", 0)
        case .atr?, .idm?, .pmm?, .systemCode?, .uid?, .pupi?:
            return hex(header.value[...], at: 0)
        case .systems?:
            // System codes of 2 bytes each, separated by spaces, each with the IDm it answers
            // with when that is not the first system's: `0003 FE00=11010410AABBCCDD`.
            var offset = 0
            for word in header.value.split(separator: " ", omittingEmptySubsequences: false) {
                defer { offset += word.utf8.count + 1 }
                if word.isEmpty { continue }
                let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if let wrong = hex(parts[0], at: offset) { return wrong }
                if parts.count == 2, let wrong = hex(parts[1], at: offset + parts[0].utf8.count + 1) { return wrong }
                if parts[0].utf8.count != 4 || (parts.count == 2 && parts[1].utf8.count != 16) {
                    return (
                        "'# systems:' is system codes of 4 hex digits separated by spaces, each maybe with '=' and its IDm (16 hex digits), not '\(word)'",
                        offset
                    )
                }
            }
            return nil
        case .terminal?:
            do throws(TerminalHeader.Problem) { _ = try TerminalHeader.values(header.value[...]) } catch {
                return (error.reason, error.offset)
            }
            return nil
        default: return nil
        }
    }

    init(utf8 b: UnsafeBufferPointer<UInt8>, file: String) throws(TranscriptError) {
        self.init()
        var lineNumber = 0
        var sawMagic = false
        var inHeader = true
        var pending: (pattern: Pattern, line: Int)? = nil
        func fail(_ column: Int, _ reason: String) -> TranscriptError {
            TranscriptError(file: file, line: lineNumber, column: column, reason: reason)
        }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self) }
        let n = b.count
        var next = 0
        // Lines as `split(separator: "\n", omittingEmptySubsequences: false)` gives them: a text
        // ending in a newline has an empty last line.
        while next <= n {
            let start = next
            var end = start
            while end < n, b[end] != 0x0A { end += 1 }
            next = end + 1
            lineNumber += 1
            if end > start, b[end - 1] == 0x0D { end -= 1 }
            var s = start
            while s < end, Self.isSpace(b[s]) { s += 1 }
            if s == end { continue }
            let indent = s - start
            if b[s] == UInt8(ascii: "#") {
                if !sawMagic {
                    try Self.checkMagic(b, s, end, fail)
                    sawMagic = true
                } else if inHeader, let header = try Self.header(b, s, end, column: { $0 - start + 1 }, fail) {
                    headers.append(header)
                }
                continue  // else a comment line
            }
            if !sawMagic { throw fail(1, "the first line must be '\(Transcript.magicLine)'") }
            inHeader = false
            let marker = b[s]
            let (bodyEnd, comment) = Self.splitComment(b, s, end)
            let body = UnsafeBufferPointer(rebasing: b[(s + 1)..<bodyEnd])
            let bodyColumn = indent + 2
            switch marker {
            case UInt8(ascii: ">"):
                if let p = pending {
                    throw TranscriptError(
                        file: file, line: p.line, column: 1, reason: "command has no answer ('<' or '!' line) before line \(lineNumber)")
                }
                let pattern = try Self.parsePattern(body, column: bodyColumn) { fail($0, $1) }
                if pattern.isEmpty { throw fail(bodyColumn, "empty command") }
                pending = (pattern, lineNumber)
            case UInt8(ascii: "<"):
                guard let p = pending else { throw fail(indent + 1, "answer without a command ('>' line) before it") }
                var hidden: [Int] = []
                var bits: [Int: UInt8] = [:]
                let bytes = try Self.parseResponse(body, column: bodyColumn, hidden: &hidden, hiddenBits: &bits) { fail($0, $1) }
                entries.append(
                    Entry(command: p.pattern, outcome: .response(bytes), line: p.line, comment: comment, hidden: hidden, hiddenBits: bits))
                pending = nil
            case UInt8(ascii: "!"):
                let failure = try Self.event(Substring(text(s + 1, bodyEnd)).trimmingSpaces, column: bodyColumn, fail)
                entries.append(
                    Entry(
                        command: pending?.pattern, outcome: .failure(failure),
                        line: pending?.line ?? lineNumber, comment: comment))
                pending = nil
            default:
                let ch = String(decoding: UnsafeBufferPointer(rebasing: b[s..<min(s + Self.utf8Length(b[s]), end)]), as: UTF8.self)
                throw fail(indent + 1, "a line must start with '#', '>', '<' or '!', not '\(ch)'")
            }
        }
        if !sawMagic {
            throw TranscriptError(
                file: file, line: max(lineNumber, 1), column: 1, reason: "empty file: the first line must be '\(Transcript.magicLine)'")
        }
        if let p = pending {
            throw TranscriptError(
                file: file, line: p.line, column: 1, reason: "command has no answer ('<' or '!' line) at the end of the file")
        }
    }

    /// The first line, `# cardscan-transcript 1`, starting at `s`.
    private static func checkMagic(
        _ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ end: Int, _ fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) {
        guard end - s >= magic.count, b[s..<(s + magic.count)].elementsEqual(magic) else {
            throw fail(1, "the first line must be '\(Transcript.magicLine)'")
        }
        var vEnd = end
        while vEnd > s + magic.count, isSpace(b[vEnd - 1]) { vEnd -= 1 }
        guard vEnd - (s + magic.count) == 1, b[s + magic.count] == UInt8(ascii: "1") else {
            let version = String(decoding: UnsafeBufferPointer(rebasing: b[(s + magic.count)..<end]), as: UTF8.self)
            throw fail(24, "unsupported transcript version '\(version)' (this cardscan reads version 1)")
        }
    }

    /// A `# key: value` header line from `s` (its `#`) to `end`, checked; nil when the line is a
    /// comment. `column` turns a buffer position into the line's column.
    private static func header(
        _ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ end: Int, column: (Int) -> Int, _ fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) -> Header? {
        guard let colon = (s..<end).first(where: { b[$0] == UInt8(ascii: ":") }) else { return nil }
        var k0 = s + 1, k1 = colon
        while k0 < k1, isSpace(b[k0]) { k0 += 1 }
        while k1 > k0, isSpace(b[k1 - 1]) { k1 -= 1 }
        var v0 = colon + 1, v1 = end
        while v0 < v1, isSpace(b[v0]) { v0 += 1 }
        while v1 > v0, isSpace(b[v1 - 1]) { v1 -= 1 }
        guard k1 > k0, !(k0..<k1).contains(where: { b[$0] == 0x20 }) else { return nil }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self) }
        let header = Header(text(k0, k1), text(v0, v1))
        if let wrong = check(header) { throw fail(column(v0) + wrong.offset, wrong.reason) }
        return header
    }

    /// Where an exchange line's body ends and its comment (from the first ` #` after the marker
    /// at `s`), trimmed.
    private static func splitComment(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ end: Int) -> (bodyEnd: Int, comment: String?) {
        var k = s + 1
        while k + 1 < end {
            if b[k] == 0x20, b[k + 1] == UInt8(ascii: "#") {
                var c0 = k + 2, c1 = end
                while c0 < c1, isSpace(b[c0]) { c0 += 1 }
                while c1 > c0, isSpace(b[c1 - 1]) { c1 -= 1 }
                return (k, String(decoding: UnsafeBufferPointer(rebasing: b[c0..<c1]), as: UTF8.self))
            }
            k += 1
        }
        return (end, nil)
    }

    /// A `!` line's event: `removed` or `error: NAME`.
    private static func event(
        _ word: Substring, column: Int, _ fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError)
        -> TransportFailure
    {
        if word == "removed" { return .removed }
        guard word.hasPrefix("error:") else { throw fail(column, "unknown event '\(word)': expected 'removed' or 'error: NAME'") }
        let name = word.dropFirst("error:".count).trimmingSpaces
        if name.isEmpty { throw fail(column, "'! error:' needs a name, e.g. '! error: timeout'") }
        return name == "timeout" ? .timeout : .other(String(name))
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// How many bytes the UTF-8 sequence starting with `lead` has (1 for a stray byte).
    static func utf8Length(_ lead: UInt8) -> Int { lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1 }

    /// Parses a byte pattern (`3B 8B .. 01`): hex bytes, `..` for any byte.
    public static func parsePattern(_ text: String) throws(TranscriptError) -> Pattern {
        var text = text
        let result: Result<Pattern, TranscriptError> = text.withUTF8 { buffer in
            do throws(TranscriptError) {
                return .success(try parsePattern(buffer, column: 1) { TranscriptError(file: "", line: 1, column: $0, reason: $1) })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Hex bytes separated by spaces, tabs, colons or nothing; `..` is a wildcard byte.
    static func parsePattern(
        _ t: UnsafeBufferPointer<UInt8>, column: Int, fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) -> Pattern {
        var out: Pattern = []
        out.reserveCapacity(t.count / 2)
        var i = 0
        while i < t.count {
            let c = t[i]
            if c == 0x20 || c == 0x09 || c == 0x3A {
                i += 1
                continue
            }
            if c == 0x2E, i + 1 < t.count, t[i + 1] == 0x2E {
                out.append(nil)
            } else {
                out.append(try byte(t, i, column: column, fail: fail))
            }
            i += 2
        }
        return out
    }

    /// An answer's bytes: hex, `..` for a byte the recording hid (it reads as 00 and its
    /// position goes to `hidden`), or `HH/MM` for a byte whose bits MM it hid (they read as 0,
    /// and are 0 in HH). The status word is never hidden.
    static func parseResponse(
        _ t: UnsafeBufferPointer<UInt8>, column: Int, hidden: inout [Int], hiddenBits: inout [Int: UInt8],
        fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(t.count / 2)
        var i = 0
        while i < t.count {
            let c = t[i]
            if c == 0x20 || c == 0x09 || c == 0x3A {
                i += 1
                continue
            }
            if c == 0x2E, i + 1 < t.count, t[i + 1] == 0x2E {
                hidden.append(out.count)
                out.append(0)
            } else {
                let value = try byte(t, i, column: column, fail: fail)
                if i + 2 < t.count, t[i + 2] == 0x2F {  // HH/MM: the bits MM hidden
                    guard i + 4 < t.count, Hex.nibble(t[i + 3]) != nil, Hex.nibble(t[i + 4]) != nil else {
                        throw fail(column + i + 2, "'/' needs the hidden bits after it, as two hex digits")
                    }
                    let mask = try byte(t, i + 3, column: column, fail: fail)
                    guard mask != 0, mask != 0xFF else {
                        throw fail(
                            column + i + 3,
                            "hidden bits /\(Hex.format([mask])): write a byte with none hidden as HH, a wholly hidden one as '..'")
                    }
                    guard value & mask == 0 else {
                        throw fail(column + i, "\(Hex.format([value]))/\(Hex.format([mask])): the hidden bits must be 0 in the byte")
                    }
                    hiddenBits[out.count] = mask
                    i += 3
                }
                out.append(value)
            }
            i += 2
        }
        let lastHidden = max(hidden.last ?? -1, hiddenBits.keys.max() ?? -1)
        if lastHidden >= 0, lastHidden >= out.count - 2 {
            throw fail(column, "'..' and '/' hide an answer's data, never its status word (the last two bytes)")
        }
        return out
    }

    /// The byte whose two hex digits start at `i`, or why not.
    @inline(__always)
    static func byte(
        _ t: UnsafeBufferPointer<UInt8>, _ i: Int, column: Int, fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) -> UInt8 {
        let c = t[i]
        guard i + 1 < t.count else {
            throw fail(column + i, Hex.nibble(c) == nil ? "'\(character(t, i))' is not hex" : "odd number of hex digits: a byte needs two")
        }
        if let h = Hex.nibble(c), let l = Hex.nibble(t[i + 1]) { return h << 4 | l }
        let bad = Hex.nibble(c) == nil ? i : i + 1
        if t[bad] == 0x20 || t[bad] == 0x3A || t[bad] == 0x09 { throw fail(column + bad, "odd number of hex digits: a byte needs two") }
        throw fail(column + bad, "'\(character(t, bad))' is not hex")
    }

    /// The character starting at byte `i` (a whole UTF-8 sequence), for messages.
    static func character(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: t[i..<min(i + utf8Length(t[i]), t.count)]), as: UTF8.self)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
