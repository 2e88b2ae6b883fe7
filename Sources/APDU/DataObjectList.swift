/// A data object list (DOL, EMV Book 3 §5.4): tags with the length each value is to have,
/// and no values. A card sends one to say which terminal data it wants, in which order
/// (the PDOL in its FCI, tag `9F38`), or how its own records are laid out (the log format,
/// `9F4F`). Pure: no I/O.
public struct DataObjectList: Equatable, Sendable {
    /// One tag of the list and the length its value is to have.
    public struct Entry: Equatable, Sendable {
        /// The data object asked for.
        public let tag: TLVTag
        /// The value's length in bytes.
        public let length: Int
    }

    /// The tag/length pairs, in list order.
    public let entries: [Entry]

    /// The byte count of the values the list asks for, all together.
    public var totalLength: Int { entries.reduce(0) { $0 + $1.length } }

    /// Parses tag/length pairs that fill `bytes` exactly (a length is one byte, EMV Book 3
    /// §5.4; BER's long form is refused). A list ending mid-entry is an error.
    public init(_ bytes: some Collection<UInt8>) throws(BERTLV.ParseError) {
        var slice = ArraySlice(bytes)
        var out: [Entry] = []
        while !slice.isEmpty {
            let tag = try TLVTag.consume(from: &slice)
            let offset = slice.startIndex
            guard let length = slice.popFirst() else { throw .truncated(offset: offset, what: "length") }
            if length >= 0x80 { throw .lengthTooLong(offset: offset) }
            out.append(Entry(tag: tag, length: Int(length)))
        }
        entries = out
    }

    /// A list of the entries given, unchecked.
    public init(entries: [Entry]) { self.entries = entries }

    /// The values `value(tag, length)` gives, each made exactly `length` bytes long (see
    /// ``fit(_:length:numeric:)``), joined in list order: the data a DOL-driven command sends.
    public func values(_ value: (TLVTag, Int) -> (bytes: [UInt8], numeric: Bool)) -> [UInt8] {
        var out: [UInt8] = []
        for e in entries {
            let v = value(e.tag, e.length)
            out += Self.fit(v.bytes, length: e.length, numeric: v.numeric)
        }
        return out
    }

    /// `bytes` made `length` long as EMV Book 3 §5.4 says: a numeric (BCD) value is
    /// right-aligned (leading zero bytes added, or its leftmost bytes dropped); any other
    /// value is left-aligned (zero bytes appended, or its rightmost bytes dropped).
    public static func fit(_ bytes: [UInt8], length: Int, numeric: Bool) -> [UInt8] {
        if bytes.count == length { return bytes }
        if numeric {
            return bytes.count > length ? Array(bytes.suffix(length)) : [UInt8](repeating: 0, count: length - bytes.count) + bytes
        }
        return bytes.count > length ? Array(bytes.prefix(length)) : bytes + [UInt8](repeating: 0, count: length - bytes.count)
    }

    /// `record` cut into the list's values, in order. A record shorter than the list gives
    /// the values it holds in full; bytes past the list are ignored (cards pad records).
    public func split(_ record: [UInt8]) -> [(tag: TLVTag, value: [UInt8])] {
        var out: [(TLVTag, [UInt8])] = []
        var at = 0
        for e in entries {
            guard at + e.length <= record.count else { break }
            out.append((e.tag, Array(record[at..<(at + e.length)])))
            at += e.length
        }
        return out
    }
}
