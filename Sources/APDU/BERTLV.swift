/// A BER-TLV data object (ISO/IEC 7816-4 §5.2, ISO/IEC 8825-1 §8.1): a tag, a definite
/// length and a value; a constructed object's value is itself a sequence of objects.
public struct BERTLV: Hashable, Sendable {
    /// The object's tag.
    public let tag: TLVTag
    /// The raw value bytes (for a constructed object too).
    public let value: [UInt8]
    /// The objects inside a constructed object; empty for a primitive one.
    public let children: [BERTLV]
    /// A tag that says "constructed" over a value that is not BER-TLV (KS X 6924 keeps raw
    /// purse bytes in `B0`): the value is kept as bytes, with no children. A path may end at
    /// such an object but not go through it.
    public let isOpaque: Bool

    /// Deeper nesting than this is refused, so hostile input cannot exhaust the stack.
    public static let maximumDepth = 16

    /// Why bytes are not BER-TLV, or text is not a tag or a tag path. Offsets count bytes from
    /// the start of the parsed input.
    public enum ParseError: UserFacingError, Equatable {
        /// The input ends inside `what` (`tag`, `multi-byte tag`, `length`, `long-form length`),
        /// which starts at `offset`.
        case truncated(offset: Int, what: String)
        /// The tag at `offset` is longer than 4 bytes (its fourth byte says another follows).
        case tagTooLong(offset: Int)
        /// The length at `offset` is `80`, the indefinite form, which ISO 7816 does not allow.
        case indefiniteLength(offset: Int)
        /// The length at `offset` announces more than 4 length bytes (85 or more); a
        /// ``DataObjectList`` also refuses any length of 80 or more with it.
        case lengthTooLong(offset: Int)
        /// The object at `offset` declares `declared` value bytes, but only `available` remain.
        case valueOverrun(offset: Int, declared: Int, available: Int)
        /// The object at `offset` is nested deeper than ``BERTLV/maximumDepth``.
        case tooDeep(offset: Int)
        /// ``BERTLV/parse(_:)`` found `count` bytes after the object, from `offset`.
        case trailingBytes(offset: Int, count: Int)
        /// The text (given) is not one BER-TLV tag in hex.
        case invalidTagText(String)
        /// The text (given) is not a tag path: hex tags separated by `/`.
        case invalidPath(String)

        public var message: String {
            switch self {
            case .truncated(let o, let w): return "BER-TLV truncated at byte \(o): missing \(w)"
            case .tagTooLong(let o): return "BER-TLV tag at byte \(o) is longer than 4 bytes"
            case .indefiniteLength(let o): return "BER-TLV indefinite length (80) at byte \(o) is not allowed in ISO 7816"
            case .lengthTooLong(let o): return "BER-TLV length field at byte \(o) is longer than 4 bytes"
            case .valueOverrun(let o, let d, let a): return "BER-TLV object at byte \(o) declares \(d) value bytes but only \(a) remain"
            case .tooDeep(let o): return "BER-TLV nesting deeper than \(BERTLV.maximumDepth) at byte \(o)"
            case .trailingBytes(let o, let n): return "\(n) trailing byte(s) after the BER-TLV object, from byte \(o)"
            case .invalidTagText(let t): return "'\(t)' is not a BER-TLV tag"
            case .invalidPath(let p): return "'\(p)' is not a tag path (write tags in hex separated by '/', e.g. 6F/A5/9F0C)"
            }
        }
        public var hint: String? {
            switch self {
            case .invalidTagText, .invalidPath: return "tags are 1 to 4 bytes of hex (ISO/IEC 7816-4 §5.2), e.g. 6F, 9F0C"
            default: return "the bytes are not BER-TLV (ISO/IEC 7816-4 §5.2): a trace of the exchanges shows them"
            }
        }
    }

    /// An object from its parts, taken as given: `children` is not checked against `value`.
    public init(tag: TLVTag, value: [UInt8], children: [BERTLV] = [], isOpaque: Bool = false) {
        self.tag = tag
        self.value = value
        self.children = children
        self.isOpaque = isOpaque
    }

    /// Parses exactly one object; bytes after it are an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> BERTLV {
        var slice = ArraySlice(bytes)
        let node = try consume(from: &slice, depth: 0)
        if !slice.isEmpty { throw .trailingBytes(offset: slice.startIndex, count: slice.count) }
        return node
    }

    /// Parses a sequence of objects that fills `bytes` exactly.
    public static func parseAll(_ bytes: some Collection<UInt8>) throws(ParseError) -> [BERTLV] {
        var slice = ArraySlice(bytes)
        var out: [BERTLV] = []
        while !slice.isEmpty { out.append(try consume(from: &slice, depth: 0)) }
        return out
    }

    static func consumeLength(from input: inout ArraySlice<UInt8>) throws(ParseError) -> Int {
        let offset = input.startIndex
        guard let first = input.popFirst() else { throw .truncated(offset: offset, what: "length") }
        if first < 0x80 { return Int(first) }
        if first == 0x80 { throw .indefiniteLength(offset: offset) }
        let count = Int(first & 0x7F)
        if count > 4 { throw .lengthTooLong(offset: offset) }
        var length = 0
        for _ in 0..<count {
            guard let b = input.popFirst() else { throw .truncated(offset: offset, what: "long-form length") }
            length = length << 8 | Int(b)
        }
        return length
    }

    static func consume(from input: inout ArraySlice<UInt8>, depth: Int) throws(ParseError) -> BERTLV {
        let offset = input.startIndex
        if depth > maximumDepth { throw .tooDeep(offset: offset) }
        let tag = try TLVTag.consume(from: &input)
        let length = try consumeLength(from: &input)
        guard input.count >= length else { throw .valueOverrun(offset: offset, declared: length, available: input.count) }
        let valueSlice = input.prefix(length)
        input = input.dropFirst(length)
        var children: [BERTLV] = []
        var opaque = false
        if tag.isConstructed {
            var inner = valueSlice
            do {
                while !inner.isEmpty { children.append(try consume(from: &inner, depth: depth + 1)) }
            } catch {
                // Nesting past the cap is hostile input, refused; any other failure inside
                // means the value is raw bytes under a constructed-looking tag.
                if case .tooDeep = error { throw error }
                children = []
                opaque = true
            }
        }
        return BERTLV(tag: tag, value: Array(valueSlice), children: children, isOpaque: opaque)
    }

    /// A definite length as BER writes it (ISO/IEC 8825-1 §8.1.3): one byte below 128, else
    /// 81 … 84 and the length's bytes.
    public static func lengthBytes(_ n: Int) -> [UInt8] {
        let n = max(0, n)  // no length is negative: never a trap
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var v = n
        while v > 0 {
            bytes.insert(UInt8(v & 0xFF), at: 0)
            v >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// Parses `6F/A5/9F0C` into tags.
    public static func path(_ text: String) throws(ParseError) -> [TLVTag] {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        var tags: [TLVTag] = []
        for part in parts {
            guard let tag = try? TLVTag(hex: String(part)) else { throw .invalidPath(text) }
            tags.append(tag)
        }
        return tags
    }

    /// The first object at `path`, where the first tag names this object itself:
    /// `fci.first(path: "6F/A5/9F0C")` on an FCI whose tag is 6F. The last tag may name an
    /// opaque object (its value bytes are the answer); only the objects a path goes through
    /// need to hold objects.
    public func first(path: [TLVTag]) -> BERTLV? {
        guard let head = path.first, head == tag else { return nil }
        if path.count == 1 { return self }
        let rest = Array(path.dropFirst())
        for child in children { if let hit = child.first(path: rest) { return hit } }
        return nil
    }

    /// The first object at a path written as text (`6F/A5/9F0C`), as for a path of tags; nil
    /// also when the text is not a path.
    public func first(path: String) -> BERTLV? {
        guard let tags = try? BERTLV.path(path) else { return nil }
        return first(path: tags)
    }

    /// An indented dump, one object a line: `6F (52 bytes)` / `  84: A0 00 …`.
    public func prettyPrinted(indent: String = "") -> String {
        if tag.isConstructed && !isOpaque {
            let head = "\(indent)\(tag) (\(value.count) bytes)"
            return ([head] + children.map { $0.prettyPrinted(indent: indent + "  ") }).joined(separator: "\n")
        }
        return "\(indent)\(tag): \(value.hexString)"
    }
}
