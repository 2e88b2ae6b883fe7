import APDU

/// A bit-packed record layout (EN 1545 style, as Calypso and many DESFire transit cards
/// write their records): the record is an MSB-first bit stream, read element by element.
/// Positions are not fixed — a presence bitmap says which of its fields follow — so a field
/// is named, not placed (docs/profile-format.md §Bit-packed records).
public struct BitLayout: Sendable {
    public var name: String
    public var elements: [Element]
    public var line: Int

    public init(name: String, elements: [Element], line: Int) {
        self.name = name
        self.elements = elements
        self.line = line
    }

    public indirect enum Element: Sendable {
        /// `bits` bits, an unsigned number (or a bit string when longer than 64), named.
        case value(name: String, bits: Int)
        /// EN 1545 `Bitmap`: `bits` presence bits, the lowest for the first element; then only
        /// the present elements follow, in order.
        case bitmap(bits: Int, elements: [Element])
        /// A counted repeat: the count is the next `countBits` bits, or the value of an earlier
        /// field (`countFrom`); then that many copies of `elements`, named `NAME[i].FIELD`.
        case repeated(name: String, countBits: Int?, countFrom: String?, elements: [Element])
        /// Elements one after the other (EN 1545 `Container`).
        case sequence([Element])
        /// Bits that carry nothing the profile reads.
        case skip(Int)
    }

    /// What a layout found in one record: its named values, and, when the record ended before
    /// the layout did, why (fields not reached are then missing, and named as such).
    public struct Decoded: Sendable {
        public var values: [String: BitValue] = [:]
        /// Names a bitmap said are not in the record (their absence is no problem).
        public var absent: Set<String> = []
        public var problem: String?
    }

    /// At most this many repeats of one element (a count read from a card is not trusted).
    public static let repeatLimit = 255

    /// Decodes `record` (whole bytes, MSB first).
    public func decode(_ record: [UInt8]) -> Decoded {
        var reader = BitReader(record)
        var out = Decoded()
        do { try decode(elements, prefix: "", &reader, &out) } catch { out.problem = error.reason }
        return out
    }

    private func decode(_ elements: [Element], prefix: String, _ r: inout BitReader, _ out: inout Decoded) throws(BitReader.Failure) {
        for e in elements {
            switch e {
            case .value(let name, let bits):
                out.values[prefix + name] = try r.read(bits, for: prefix + name)
            case .skip(let bits):
                _ = try r.read(bits, for: "skipped bits")
            case .sequence(let inner):
                try decode(inner, prefix: prefix, &r, &out)
            case .bitmap(let bits, let inner):
                let map = try r.read(bits, for: "a presence bitmap").integer ?? 0
                // What the bitmap leaves out is known now, even if the record ends early.
                for (i, element) in inner.enumerated() where map >> UInt64(i) & 1 == 0 {
                    for (name, _) in Self.widths([element], prefix: prefix) { out.absent.insert(name) }
                }
                for (i, element) in inner.enumerated() where map >> UInt64(i) & 1 == 1 {
                    try decode([element], prefix: prefix, &r, &out)
                }
            case .repeated(let name, let countBits, let countFrom, let inner):
                var count: UInt64 = 0
                if let countBits { count = try r.read(countBits, for: "the count of \(prefix + name)").integer ?? 0 }
                if let countFrom { count = out.values[prefix + countFrom]?.integer ?? 0 }
                guard count <= UInt64(Self.repeatLimit) else {
                    throw BitReader.Failure(reason: "\(prefix + name) repeats \(count) times, more than \(Self.repeatLimit)")
                }
                out.values[prefix + name + ".count"] = BitValue(integer: count, width: 16)
                for i in 0..<Int(count) { try decode(inner, prefix: "\(prefix)\(name)[\(i)].", &r, &out) }
            }
        }
    }

    /// Every name the layout can produce (copies in a repeat as `NAME[].FIELD`), with its
    /// width in bits, for load-time checks.
    public var widths: [(name: String, bits: Int)] { Self.widths(elements, prefix: "") }

    /// The width of `name` (`list[2].x` is looked up as `list[].x`); nil when the layout has
    /// no such value.
    public func width(of name: String) -> Int? {
        let general = name.replacing(/\[[0-9]+\]/, with: "[]")
        return widths.first { $0.name == general }?.bits
    }

    static func widths(_ elements: [Element], prefix: String) -> [(name: String, bits: Int)] {
        elements.flatMap { e -> [(name: String, bits: Int)] in
            switch e {
            case .value(let name, let bits): return [(prefix + name, bits)]
            case .skip: return []
            case .sequence(let inner), .bitmap(_, let inner): return widths(inner, prefix: prefix)
            case .repeated(let name, _, _, let inner):
                return [(prefix + name + ".count", 16)] + widths(inner, prefix: prefix + name + "[].")
            }
        }
    }
}

/// Some bits of a record: right-aligned in whole bytes (big-endian), and how many they are.
public struct BitValue: Hashable, Sendable {
    public var bytes: [UInt8]
    public var width: Int

    public init(bytes: [UInt8], width: Int) {
        self.bytes = bytes
        self.width = width
    }

    public init(integer: UInt64, width: Int) {
        let n = (width + 7) / 8
        bytes = (0..<n).reversed().map { UInt8(truncatingIfNeeded: integer >> UInt64(8 * $0)) }
        self.width = width
    }

    /// The bits as an unsigned number, when they fit 64 bits.
    public var integer: UInt64? {
        guard width <= 64 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The bits, first (most significant) first.
    public var bits: [Bool] {
        let skip = bytes.count * 8 - width
        return (skip..<(bytes.count * 8)).map { bytes[$0 / 8] >> UInt8(7 - $0 % 8) & 1 == 1 }
    }
}

/// Reads an MSB-first bit stream: bit 0 is the top bit of byte 0.
public struct BitReader {
    public struct Failure: Error, Equatable { public var reason: String }

    public let data: [UInt8]
    public private(set) var position = 0

    public init(_ data: [UInt8]) { self.data = data }

    /// The next `count` bits (1 or more) as a right-aligned value.
    public mutating func read(_ count: Int, for what: String) throws(Failure) -> BitValue {
        let value = try Self.slice(data, at: position, count: count, for: what)
        position += count
        return value
    }

    /// `count` bits from bit `offset` of `data`.
    public static func slice(_ data: [UInt8], at offset: Int, count: Int, for what: String) throws(Failure) -> BitValue {
        guard count > 0, offset >= 0 else { throw Failure(reason: "\(what): \(count) bits at bit \(offset) is not a bit range") }
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow else { throw Failure(reason: "\(what): bit \(offset) is past any record") }
        guard end <= data.count * 8 else {
            throw Failure(reason: "\(what) needs bits \(offset)…\(end - 1) but the record has \(data.count * 8)")
        }
        var out = [UInt8](repeating: 0, count: (count + 7) / 8)
        // Fill from the last bit backwards so the value ends up right-aligned.
        for i in 0..<count {
            let source = end - 1 - i
            if data[source / 8] >> UInt8(7 - source % 8) & 1 == 1 {
                out[out.count - 1 - i / 8] |= 1 << UInt8(i % 8)
            }
        }
        return BitValue(bytes: out, width: count)
    }
}
