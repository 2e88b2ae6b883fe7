/// A path of BER-TLV tags from an outer object inward, written `6F/A5/9F0C` (the FCI's
/// proprietary template, ISO/IEC 7816-4 §5.3.3). Parse it once; search with
/// `BERTLV.first(path:)`.
public struct TLVPath: Hashable, Sendable, CustomStringConvertible {
    /// The tags, outermost first.
    public let tags: [TLVTag]

    /// Parses `6F/A5/9F0C`: hex tags separated by `/`. Throws
    /// ``BERTLV/ParseError/invalidPath(_:)`` when a part is not exactly one tag.
    public init(_ text: String) throws(BERTLV.ParseError) {
        tags = try BERTLV.path(text)
    }

    public var description: String { tags.map(\.description).joined(separator: "/") }
}

extension BERTLV {
    /// The first object at `path` (its first tag names this object itself).
    public func first(path: TLVPath) -> BERTLV? { first(path: path.tags) }
}
