/// An XML element of a card dump, with the line it starts on.
struct XMLElement {
    let name: String
    let attributes: [(String, String)]
    var children: [XMLElement] = []
    /// The character data directly inside, entities decoded, white space kept.
    var text = ""
    let line: Int

    subscript(attribute: String) -> String? { attributes.first { $0.0 == attribute }?.1 }

    /// The children named `name`, in order.
    func all(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The first child named `name`.
    func first(_ name: String) -> XMLElement? { children.first { $0.name == name } }
}

/// The XML that card dumps are written in (docs/dump-formats.md §5), read into a tree: elements,
/// attributes, character data and CDATA, the five named entities and character references;
/// comments, processing instructions and the declaration skipped. A document type declaration
/// is refused (no entity is ever expanded from one), and so is nesting deeper than
/// ``maximumDepth``. Errors name the line.
struct XMLTree {
    static let maximumDepth = 32

    private let b: [UInt8]
    private var at = 0
    private let file: String
    private var lineAt = (position: 0, line: 1)

    /// The document's root element.
    static func parse(_ bytes: [UInt8], file: String) throws(DumpError) -> XMLElement {
        var tree = XMLTree(b: bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { tree.at = 3 }
        try tree.misc()
        guard tree.peek("<") else { throw tree.fail("no element: an XML dump starts with `<`") }
        let root = try tree.parseElement(depth: 0)
        try tree.misc()
        guard tree.at == bytes.count else { throw tree.fail("text after the root element </\(root.name)>") }
        return root
    }

    private init(b: [UInt8], file: String) {
        self.b = b
        self.file = file
    }

    private mutating func line() -> Int {
        var (p, n) = lineAt
        if at < p { (p, n) = (0, 1) }
        while p < at && p < b.count {
            if b[p] == 0x0A { n += 1 }
            p += 1
        }
        lineAt = (p, n)
        return n
    }

    private mutating func fail(_ reason: String) -> DumpError { DumpError(file: file, place: "line \(line())", reason: reason) }

    private func peek(_ s: String) -> Bool { b[at...].starts(with: s.utf8) }

    private mutating func skipSpace() { while at < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[at]) { at += 1 } }

    /// Moves past `end`, or fails with `what` left open.
    private mutating func skip(past end: String, _ what: String) throws(DumpError) {
        let e = Array(end.utf8)
        while at < b.count {
            if b[at...].starts(with: e) {
                at += e.count
                return
            }
            at += 1
        }
        throw fail("\(what) never ends (no `\(end)`)")
    }

    /// White space, comments, processing instructions; a DOCTYPE is refused.
    private mutating func misc() throws(DumpError) {
        while true {
            skipSpace()
            if peek("<?") {
                try skip(past: "?>", "a processing instruction")
            } else if peek("<!--") {
                try skip(past: "-->", "a comment")
            } else if peek("<!") {
                throw fail("a document type declaration: card dumps have none, and cardscan reads none")
            } else {
                return
            }
        }
    }

    private mutating func name() throws(DumpError) -> String {
        let start = at
        while at < b.count, !([0x20, 0x09, 0x0A, 0x0D, 0x3D, 0x3E, 0x2F, 0x3C, 0x22, 0x27] as [UInt8]).contains(b[at]) { at += 1 }
        guard at > start else { throw fail("a name expected") }
        return String(decoding: b[start..<at], as: UTF8.self)
    }

    private mutating func parseElement(depth: Int) throws(DumpError) -> XMLElement {
        guard depth < Self.maximumDepth else { throw fail("elements nested deeper than \(Self.maximumDepth)") }
        let line = line()
        at += 1  // <
        let tag = try name()
        var attributes: [(String, String)] = []
        while true {
            skipSpace()
            guard at < b.count else { throw fail("<\(tag) never ends") }
            if peek("/>") {
                at += 2
                return XMLElement(name: tag, attributes: attributes, line: line)
            }
            if peek(">") {
                at += 1
                break
            }
            let key = try name()
            skipSpace()
            guard peek("=") else { throw fail("attribute \(key) of <\(tag)> has no value") }
            at += 1
            skipSpace()
            guard at < b.count, b[at] == 0x22 || b[at] == 0x27 else { throw fail("attribute \(key) of <\(tag)>: a quoted value expected") }
            let quote = b[at]
            at += 1
            let start = at
            while at < b.count, b[at] != quote { at += 1 }
            guard at < b.count else { throw fail("attribute \(key) of <\(tag)> never ends") }
            guard !attributes.contains(where: { $0.0 == key }) else { throw fail("attribute \(key) of <\(tag)> is given twice") }
            attributes.append((key, try decode(b[start..<at])))
            at += 1
        }
        var element = XMLElement(name: tag, attributes: attributes, line: line)
        try content(of: &element, depth: depth)
        return element
    }

    /// Children and text up to and past the element's end tag.
    private mutating func content(of element: inout XMLElement, depth: Int) throws(DumpError) {
        while true {
            let start = at
            while at < b.count, b[at] != 0x3C { at += 1 }
            element.text += try decode(b[start..<at])
            guard at < b.count else { throw fail("<\(element.name)> (line \(element.line)) is never closed") }
            if peek("</") {
                at += 2
                let end = try name()
                guard end == element.name else { throw fail("</\(end)> closes <\(element.name)> (line \(element.line))") }
                skipSpace()
                guard peek(">") else { throw fail("</\(end) never ends") }
                at += 1
                return
            } else if peek("<![CDATA[") {
                at += 9
                let s = at
                try skip(past: "]]>", "a CDATA section")
                element.text += String(decoding: b[s..<(at - 3)], as: UTF8.self)
            } else if peek("<!--") {
                try skip(past: "-->", "a comment")
            } else if peek("<?") {
                try skip(past: "?>", "a processing instruction")
            } else {
                element.children.append(try parseElement(depth: depth + 1))
            }
        }
    }

    /// Character data with its entities and character references decoded.
    private mutating func decode(_ raw: ArraySlice<UInt8>) throws(DumpError) -> String {
        guard raw.contains(0x26) else { return String(decoding: raw, as: UTF8.self) }
        var out = ""
        var rest = raw[...]
        while let amp = rest.firstIndex(of: 0x26) {
            out += String(decoding: rest[..<amp], as: UTF8.self)
            guard let semi = rest[amp...].prefix(12).firstIndex(of: 0x3B) else { throw fail("an & that starts no entity") }
            let entity = String(decoding: rest[(amp + 1)..<semi], as: UTF8.self)
            let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
            if let s = named[entity] {
                out += s
            } else if entity.hasPrefix("#"),
                let n = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()),
                let scalar = Unicode.Scalar(n)
            {
                out.unicodeScalars.append(scalar)
            } else {
                throw fail("&\(entity); is not an entity XML defines")
            }
            rest = rest[(semi + 1)...]
        }
        return out + String(decoding: rest, as: UTF8.self)
    }
}
