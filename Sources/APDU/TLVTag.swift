/// A BER-TLV tag (ISO/IEC 7816-4 §5.2.2.1, ISO/IEC 8825-1 §8.1.2): one byte, or a first
/// byte with low bits `11111` followed by bytes whose bit 8 says "another follows".
public struct TLVTag: Hashable, Sendable {
    /// The tag's bytes as on the wire: `9F 0C` for tag 9F0C.
    public let bytes: [UInt8]

    /// A tag from its bytes, unchecked; they must not be empty (``isConstructed`` reads the
    /// first).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `9F0C` or `6F` as a tag.
    public init(hex: String) throws {
        let b = try Hex.parse(hex)
        var slice = b[...]
        guard let tag = try? TLVTag.consume(from: &slice), slice.isEmpty else {
            throw BERTLV.ParseError.invalidTagText(hex)
        }
        self = tag
    }

    /// Bit 6 of the first byte: a constructed object holds other objects.
    public var isConstructed: Bool { bytes[0] & 0x20 != 0 }

    /// Pops a tag from the front of `input`.
    static func consume(from input: inout ArraySlice<UInt8>) throws(BERTLV.ParseError) -> TLVTag {
        let offset = input.startIndex
        guard let first = input.popFirst() else { throw .truncated(offset: offset, what: "tag") }
        var tag = [first]
        if first & 0x1F == 0x1F {
            while true {
                guard let next = input.popFirst() else { throw .truncated(offset: offset, what: "multi-byte tag") }
                tag.append(next)
                if tag.count > 4 { throw .tagTooLong(offset: offset) }
                if next & 0x80 == 0 { break }
            }
        }
        return TLVTag(bytes: tag)
    }
}

extension TLVTag: CustomStringConvertible {
    public var description: String { bytes.compactHex }
}
