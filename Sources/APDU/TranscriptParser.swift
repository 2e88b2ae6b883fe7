/// Why a transcript was refused: the file, the 1-based line and column, and what is wrong.
public struct TranscriptError: UserFacingError, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var reason: String
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
    public init(parsing text: String, file: String = "<transcript>") throws(TranscriptError) {
        self.init()
        var lineNumber = 0
        var sawMagic = false
        var inHeader = true
        var pending: (pattern: Pattern, line: Int)? = nil
        func fail(_ column: Int, _ reason: String) -> TranscriptError {
            TranscriptError(file: file, line: lineNumber, column: column, reason: reason)
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            let indent = line.count - trimmed.count
            if trimmed.first == "#" {
                if !sawMagic {
                    guard trimmed.hasPrefix("# cardscan transcript ") else {
                        throw fail(1, "the first line must be '\(Transcript.magicLine)'")
                    }
                    let version = trimmed.dropFirst("# cardscan transcript ".count)
                    guard version == "1" else {
                        throw fail(24, "unsupported transcript version '\(version)' (this cardscan reads version 1)")
                    }
                    sawMagic = true
                    continue
                }
                if inHeader, let colon = trimmed.firstIndex(of: ":") {
                    let key = trimmed[trimmed.index(after: trimmed.startIndex)..<colon].trimmingSpaces
                    let value = trimmed[trimmed.index(after: colon)...].trimmingSpaces
                    if !key.isEmpty, !key.contains(" ") {
                        headers.append(Header(String(key), String(value)))
                        continue
                    }
                }
                continue  // a comment line
            }
            if !sawMagic { throw fail(1, "the first line must be '\(Transcript.magicLine)'") }
            inHeader = false
            let marker = trimmed.first!
            var body = trimmed.dropFirst()
            var comment: String? = nil
            if let hash = body.firstRange(of: " #") {
                comment = String(body[hash.upperBound...].trimmingSpaces)
                body = body[..<hash.lowerBound]
            }
            let bodyColumn = indent + 2
            switch marker {
            case ">":
                if let p = pending {
                    throw TranscriptError(
                        file: file, line: p.line, column: 1, reason: "command has no answer ('<' or '!' line) before line \(lineNumber)")
                }
                let pattern = try Self.parseBytes(body, allowWildcard: true, column: bodyColumn) { fail($0, $1) }
                if pattern.isEmpty { throw fail(bodyColumn, "empty command") }
                pending = (pattern, lineNumber)
            case "<":
                guard let p = pending else { throw fail(indent + 1, "answer without a command ('>' line) before it") }
                let bytes = try Self.parseBytes(body, allowWildcard: false, column: bodyColumn) { fail($0, $1) }
                entries.append(Entry(command: p.pattern, outcome: .response(bytes.map { $0! }), line: p.line, comment: comment))
                pending = nil
            case "!":
                let word = body.trimmingSpaces
                let failure: TransportFailure
                if word == "removed" {
                    failure = .removed
                } else if word.hasPrefix("error:") {
                    let name = word.dropFirst("error:".count).trimmingSpaces
                    if name.isEmpty { throw fail(bodyColumn, "'! error:' needs a name, e.g. '! error: timeout'") }
                    failure = name == "timeout" ? .timeout : .other(String(name))
                } else {
                    throw fail(bodyColumn, "unknown event '\(word)': expected 'removed' or 'error: NAME'")
                }
                entries.append(
                    Entry(
                        command: pending?.pattern, outcome: .failure(failure),
                        line: pending?.line ?? lineNumber, comment: comment))
                pending = nil
            default:
                throw fail(indent + 1, "a line must start with '#', '>', '<' or '!', not '\(marker)'")
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

    /// Parses a byte pattern (`3B 8B .. 01`): hex bytes, `..` for any byte.
    public static func parsePattern(_ text: String) throws(TranscriptError) -> Pattern {
        try parseBytes(Substring(text), allowWildcard: true, column: 1) { TranscriptError(file: "", line: 1, column: $0, reason: $1) }
    }

    /// Hex bytes separated by spaces, colons or nothing; `..` is a wildcard byte.
    static func parseBytes(
        _ text: Substring, allowWildcard: Bool, column: Int,
        fail: (Int, String) -> TranscriptError
    ) throws(TranscriptError) -> Pattern {
        var out: Pattern = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let c = utf8[i]
            if c == 0x20 || c == 0x09 || c == 0x3A {
                i += 1
                continue
            }
            guard i + 1 < utf8.count else {
                throw fail(
                    column + i,
                    Hex.nibble(c) == nil ? "'\(Character(Unicode.Scalar(c)))' is not hex" : "odd number of hex digits: a byte needs two")
            }
            let d = utf8[i + 1]
            if c == 0x2E && d == 0x2E {
                guard allowWildcard else { throw fail(column + i, "'..' is only allowed in commands ('>' lines)") }
                out.append(nil)
            } else if let h = Hex.nibble(c), let l = Hex.nibble(d) {
                out.append(h << 4 | l)
            } else {
                let bad = Hex.nibble(c) == nil ? i : i + 1
                let ch = Character(Unicode.Scalar(utf8[bad]))
                if ch == " " || ch == ":" { throw fail(column + bad, "odd number of hex digits: a byte needs two") }
                throw fail(column + bad, "'\(ch)' is not hex")
            }
            i += 2
        }
        return out
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
