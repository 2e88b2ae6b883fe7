import APDU

/// The shipped known-commands file read line by line, without the YAML library (whose start-up
/// cost was a tenth of a `cardscan replay`): ``CommandCatalog/parse(_:file:)`` tries this first.
extension CommandCatalog {
    /// The lists of a known-commands file written the way cardscan ships it — comments, the
    /// keys `read-only:` and `changing:`, and entries of exactly `  - command: "CLA INS"`, then
    /// `    name:` and `    source:` with plain or simply double-quoted values — or nil for
    /// anything else (which the YAML path reads, or rejects with its line).
    static func canonicalLists(_ text: String) -> (reads: [CommandPolicy.Entry], changing: [CommandPolicy.Entry])? {
        // Bytes, not Strings: Foundation's trimming and substring calls cost 2 ms of a replay.
        typealias Line = ArraySlice<UInt8>
        let source = Array(text.utf8)
        var reads: [CommandPolicy.Entry] = [], changing: [CommandPolicy.Entry] = []
        var list: Int? = nil  // 0 read-only, 1 changing
        var pending: (command: [UInt8], name: String?, source: String?)? = nil
        var seenLists = Set<Int>()
        var entriesInList = 0
        // Only spaces separate here: a tab, any other control character, or a Unicode line or
        // paragraph separator (NEL, LS, PS) sends the file to the YAML path, which knows what
        // YAML makes of them.
        guard
            !source.contains(where: { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }),
            !text.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" })
        else { return nil }
        func trim(_ l: Line) -> Line {
            var l = l
            while l.first == 0x20 { l = l.dropFirst() }
            while l.last == 0x20 { l = l.dropLast() }
            return l
        }
        func contains(_ l: Line, _ needle: [UInt8]) -> Bool {
            guard l.count >= needle.count else { return false }
            return (l.startIndex...(l.endIndex - needle.count)).contains { l[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        func string(_ l: Line) -> String { String(decoding: l, as: UTF8.self) }
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let indicators = Array("[]{}&*!|>'%@`#,?:-\"".utf8)
        func value(_ raw: Line) -> String? {
            let v = trim(raw)
            if v.first == quote {
                let inner = v.dropFirst().dropLast()
                guard v.count > 2, v.last == quote, !inner.contains(where: { $0 == quote || $0 == backslash }) else { return nil }
                return string(inner)
            }
            guard let first = v.first, !indicators.contains(first), !contains(v, Array(": ".utf8)), !contains(v, Array(" #".utf8)),
                v.last != UInt8(ascii: ":")
            else { return nil }
            return string(v)
        }
        func flush() -> Bool {
            guard let p = pending else { return true }
            guard let name = p.name, let source = p.source, let l = list, p.command.count == 2 else { return false }
            let e = CommandPolicy.Entry(cla: p.command[0], ins: p.command[1], name: name, source: source)
            if l == 0 { reads.append(e) } else { changing.append(e) }
            pending = nil
            return true
        }
        func after(_ prefix: String, in line: Line) -> Line? {
            line.starts(with: prefix.utf8) ? line.dropFirst(prefix.utf8.count) : nil
        }
        for line in source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let trimmed = trim(line)
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            if line.elementsEqual("read-only:".utf8) || line.elementsEqual("changing:".utf8) {
                guard flush(), list == nil || entriesInList > 0 else { return nil }  // an empty list: YAML's to judge
                list = line.first == UInt8(ascii: "r") ? 0 : 1
                entriesInList = 0
                guard seenLists.insert(list!).inserted else { return nil }
            } else if let rest = after("  - command: ", in: line) {
                guard flush(), list != nil, let v = value(rest), let command = try? Hex.parse(v) else { return nil }
                pending = (command, nil, nil)
                entriesInList += 1
            } else if let rest = after("    name: ", in: line), let p = pending, p.name == nil, let v = value(rest) {
                pending?.name = v
            } else if let rest = after("    source: ", in: line), let p = pending, p.source == nil, let v = value(rest) {
                pending?.source = v
            } else {
                return nil
            }
        }
        guard flush(), !seenLists.isEmpty, entriesInList > 0 else { return nil }
        return (reads, changing)
    }
}
