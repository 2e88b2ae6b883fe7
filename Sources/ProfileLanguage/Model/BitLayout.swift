import APDU

/// A bit-packed record layout (EN 1545 style, as Calypso and many DESFire transit cards
/// write their records): the record is an MSB-first bit stream, read element by element.
/// Positions are not fixed — a presence bitmap says which of its fields follow — so a field
/// is named, not placed (docs/profile-format.md §Bit-packed records).
public struct BitLayout: Sendable {
    /// The layout's name (`layouts` key; steps and `trips` name it with `layout`).
    public var name: String
    /// The elements, in record order.
    public let elements: [Element]
    /// The line that defines it, for problems found after parsing.
    public var line: Int

    /// How many values a record has at most (outside repeats), to size the result once.
    let valueCount: Int
    /// Every name's width (the first of a name that appears twice), worked out once: the
    /// validator asks for each field of each profile.
    private let widthByName: [String: Int]
    /// Every typed value's type (the first of a name that appears twice).
    private let settingsByName: [String: FieldSettings]

    /// The layout `name` of `elements`, defined at `line`.
    public init(name: String, elements: [Element], line: Int) {
        self.name = name
        self.elements = elements
        self.line = line
        let all = Self.widths(elements, prefix: "")
        valueCount = min(all.count, 256)
        widthByName = Dictionary(all.map { ($0.name, $0.bits) }, uniquingKeysWith: { first, _ in first })
        settingsByName = Dictionary(
            Self.values(elements, prefix: "").compactMap { e in e.element.settings.map { (e.name, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The type of value `name` (`list[2].x` as `list[].x`), when its element has one.
    public func settings(of name: String) -> FieldSettings? { settingsByName[Self.general(name)] }

    /// One element of a layout. A struct rather than an enum with payloads: Swift packs an
    /// enum's case into spare bits of its payload pointers, which LeakSanitizer cannot follow,
    /// and the fuzzer must see no false leaks (docs/reliability.md).
    public struct Element: Sendable {
        /// What an element is: a value, a bitmap, a repeat, a sequence, unused bits or a choice.
        public enum Kind: Sendable {
            /// A named value (`name`, with its `type` or `bits`).
            case value
            /// Presence bits, then the elements they mark present (`bitmap`).
            case bitmap
            /// A count, then that many copies of the elements (`repeat`).
            case repeated
            /// Elements one after the other (`sequence`).
            case sequence
            /// Bits nobody reads (`unused`).
            case skip
            /// Elements chosen by an earlier value (`choose`).
            case choice
        }
        /// What the element is.
        public var kind: Kind
        /// `value`: its name; `repeated`: the name of the copies.
        public var name: String = ""
        /// `value`: its type (`type: en1545-date`), which says how a field reading it decodes.
        public var settings: FieldSettings?
        /// `value`, `skip`: the width; `bitmap`: the presence bits.
        public var bits: Int = 0
        /// `repeated`: the count's width, or the earlier field that holds the count.
        public var countBits: Int?
        /// `repeated`: the earlier value that holds the count (`count-from`), when `countBits` is nil.
        public var countFrom: String?
        /// `bitmap`, `repeated`, `sequence`: what they contain; `choice`: what follows when
        /// no case matches.
        public var elements: [Element] = []
        /// `choice`: the earlier value that decides, and what follows for which of its values.
        public var chooseBy: String?
        /// `choice`: the cases, in order; the first whose values hold the deciding value is taken.
        public var cases: [Case] = []

        /// One case of a `choice`: the values that take it, and the elements that then follow.
        public struct Case: Sendable {
            /// The deciding values that take the case (`values`: numbers and ranges).
            public var values: [ClosedRange<UInt64>]
            /// The elements that then follow (`fields`).
            public var elements: [Element]
            /// A case taken by `values`, followed by `elements`.
            public init(values: [ClosedRange<UInt64>], elements: [Element]) {
                self.values = values
                self.elements = elements
            }
        }

        /// `bits` bits, an unsigned number (or a bit string when longer than 64), named; with a
        /// type, it decodes as the type says.
        public static func value(name: String, bits: Int, settings: FieldSettings? = nil) -> Element {
            Element(kind: .value, name: name, settings: settings, bits: bits)
        }
        /// EN 1545 `Bitmap`: `bits` presence bits, the lowest for the first element; then only
        /// the present elements follow, in order.
        public static func bitmap(bits: Int, elements: [Element]) -> Element {
            var e = Element(kind: .bitmap, bits: bits, elements: elements)
            e.childNames = elements.map { BitLayout.widths([$0], prefix: "").map(\.name) }
            return e
        }
        /// `bitmap`: the names each element stands for, worked out once (a bitmap that leaves
        /// an element out marks them absent on every record).
        public var childNames: [[String]] = []
        /// A counted repeat: the count is the next `countBits` bits, or the value of an earlier
        /// field (`countFrom`); then that many copies of `elements`, named `NAME[i].FIELD`.
        public static func repeated(name: String, countBits: Int?, countFrom: String?, elements: [Element]) -> Element {
            Element(kind: .repeated, name: name, countBits: countBits, countFrom: countFrom, elements: elements)
        }
        /// Elements one after the other (EN 1545 `Container`).
        public static func sequence(_ elements: [Element]) -> Element { Element(kind: .sequence, elements: elements) }
        /// Bits that carry nothing the profile reads.
        public static func skip(_ bits: Int) -> Element { Element(kind: .skip, bits: bits) }
        /// What follows depends on an earlier value (MOBIB: the record's version): the first
        /// case whose values hold it, else `otherwise` (which may be empty).
        public static func choice(by name: String, cases: [Case], otherwise: [Element]) -> Element {
            Element(kind: .choice, elements: otherwise, chooseBy: name, cases: cases)
        }
    }

    /// What a layout found in one record: its named values, and, when the record ended before
    /// the layout did, why (fields not reached are then missing, and named as such).
    public struct Decoded: Sendable {
        /// The values read, by full name (`NAME[i].FIELD` in a repeat, `NAME.count` a repeat's count).
        public var values: [String: BitValue] = [:]
        /// What bitmaps left out: the value names of each absent element, under the prefix it
        /// had. Kept as the layout's own lists and searched only when a field is missing
        /// (hashing every absent name into a set was 3 % of a Calypso replay).
        var absentGroups: [(prefix: String, names: [String])] = []
        /// Why decoding stopped short (the record ended, a repeat over the limit, a choice without its value); nil when nothing went wrong.
        public var problem: String?

        /// Whether a bitmap said `name` is not in the record (its absence is no problem).
        public func isAbsent(_ name: String) -> Bool {
            absentGroups.contains { g in
                name.hasPrefix(g.prefix) && g.names.contains { $0 == name.dropFirst(g.prefix.count) }
            }
        }
    }

    /// At most this many repeats of one element (a count read from a card is not trusted).
    public static let repeatLimit = 255

    /// Decodes `record` (whole bytes, MSB first). With `until`, stops as soon as that value is
    /// read (detection needs one field of a record: the network id comes early).
    public func decode(_ record: [UInt8], until: String? = nil) -> Decoded {
        var reader = BitReader(record)
        var out = Decoded()
        out.values.reserveCapacity(until == nil ? valueCount : 4)
        do { try decode(elements, prefix: "", &reader, &out, until: until) } catch { out.problem = error.reason }
        return out
    }

    private func decode(
        _ elements: [Element], prefix: String, _ r: inout BitReader, _ out: inout Decoded, until: String? = nil
    ) throws(BitReader.Failure) {
        for e in elements {
            if let until, out.values[until] != nil { return }
            try decode(e, prefix: prefix, &r, &out, until: until)
        }
    }

    private func decode(
        _ e: Element, prefix: String, _ r: inout BitReader, _ out: inout Decoded, until: String?
    ) throws(BitReader.Failure) {
        switch e.kind {
        case .value:
            let name = prefix.isEmpty ? e.name : prefix + e.name
            out.values[name] = try r.read(e.bits, for: name)
        case .skip:
            _ = try r.read(e.bits, for: "skipped bits")
        case .sequence:
            try decode(e.elements, prefix: prefix, &r, &out, until: until)
        case .bitmap:
            let map = try r.read(e.bits, for: "a presence bitmap").integer ?? 0
            // What the bitmap leaves out is known now, even if the record ends early.
            for i in e.elements.indices where map >> UInt64(i) & 1 == 0 {
                out.absentGroups.append((prefix, e.childNames[i]))
            }
            for i in e.elements.indices where map >> UInt64(i) & 1 == 1 {
                if let until, out.values[until] != nil { return }
                try decode(e.elements[i], prefix: prefix, &r, &out, until: until)
            }
        case .repeated:
            let name = e.name
            var count: UInt64 = 0
            if let countBits = e.countBits { count = try r.read(countBits, for: "the count of \(prefix + name)").integer ?? 0 }
            if let countFrom = e.countFrom { count = out.values[prefix + countFrom]?.integer ?? 0 }
            guard count <= UInt64(Self.repeatLimit) else {
                throw BitReader.Failure(reason: "\(prefix + name) repeats \(count) times, more than \(Self.repeatLimit)")
            }
            out.values[prefix + name + ".count"] = BitValue(integer: count, width: 16)
            for i in 0..<Int(count) { try decode(e.elements, prefix: "\(prefix)\(name)[\(i)].", &r, &out) }
        case .choice:
            let by = prefix + (e.chooseBy ?? "")
            guard let value = out.values[by]?.integer else {
                throw BitReader.Failure(reason: "the layout goes on by '\(by)', which the record does not hold")
            }
            let taken = e.cases.first { $0.values.contains { $0.contains(value) } }?.elements ?? e.elements
            try decode(taken, prefix: prefix, &r, &out, until: until)
        }
    }

    /// Every name the layout can produce (copies in a repeat as `NAME[].FIELD`), with its
    /// width in bits, for load-time checks.
    public var widths: [(name: String, bits: Int)] { Self.widths(elements, prefix: "") }

    /// The width of `name` (`list[2].x` is looked up as `list[].x`); nil when the layout has
    /// no such value.
    public func width(of name: String) -> Int? { widthByName[Self.general(name)] }

    /// `list[2].x` → `list[].x`: the digits between brackets dropped.
    static func general(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "[")) else { return name }
        var general: [UInt8] = []
        var inBrackets = false
        for c in name.utf8 {
            if c == UInt8(ascii: "[") { inBrackets = true } else if c == UInt8(ascii: "]") { inBrackets = false }
            if inBrackets, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { continue }
            general.append(c)
        }
        return String(decoding: general, as: UTF8.self)
    }

    /// Every value element with its full name (copies in a repeat as `NAME[].FIELD`).
    static func values(_ elements: [Element], prefix: String) -> [(name: String, element: Element)] {
        elements.flatMap { e -> [(name: String, element: Element)] in
            switch e.kind {
            case .value: return [(prefix + e.name, e)]
            case .skip: return []
            case .sequence, .bitmap: return values(e.elements, prefix: prefix)
            case .choice: return values(e.cases.flatMap(\.elements) + e.elements, prefix: prefix)
            case .repeated: return values(e.elements, prefix: prefix + e.name + "[].")
            }
        }
    }

    static func widths(_ elements: [Element], prefix: String) -> [(name: String, bits: Int)] {
        elements.flatMap { e -> [(name: String, bits: Int)] in
            switch e.kind {
            case .value: return [(prefix + e.name, e.bits)]
            case .skip: return []
            case .sequence, .bitmap: return widths(e.elements, prefix: prefix)
            case .choice: return widths(e.cases.flatMap(\.elements) + e.elements, prefix: prefix)
            case .repeated: return [(prefix + e.name + ".count", 16)] + widths(e.elements, prefix: prefix + e.name + "[].")
            }
        }
    }
}

/// Some bits of a record: right-aligned in whole bytes (big-endian), and how many they are.
/// Up to 64 bits are kept as a number (no array: a record decodes without allocating one per
/// value); longer ones (a name in 5-bit letters) as bytes.
public struct BitValue: Hashable, Sendable {
    private var small: UInt64
    private var large: [UInt8]?
    /// How many bits.
    public private(set) var width: Int
    /// Where the bits were in their record (bit 0 the top bit of byte 0), when they were read
    /// from one; -1 for a value made otherwise (a repeat's count). Not part of the value: two
    /// values with the same bits are equal wherever they were.
    public internal(set) var offset = -1

    public static func == (a: BitValue, b: BitValue) -> Bool { a.width == b.width && a.small == b.small && a.large == b.large }
    public func hash(into h: inout Hasher) {
        h.combine(width)
        h.combine(small)
        h.combine(large)
    }

    /// The bytes of the record the bits lie in (nil when not read from a record).
    public var byteRange: Range<Int>? { offset < 0 ? nil : (offset / 8)..<((offset + width + 7) / 8) }

    /// `width` bits, right-aligned in `bytes` (big-endian): up to 64 kept as the number the last 8 bytes make, more as `bytes`.
    public init(bytes: [UInt8], width: Int) {
        self.width = width
        if width <= 64 {
            small = bytes.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
            large = nil
        } else {
            small = 0
            large = bytes
        }
    }

    /// The low `width` bits of `integer`.
    public init(integer: UInt64, width: Int) {
        self.width = width
        small = width >= 64 ? integer : integer & ((1 << UInt64(width)) - 1)
        large = width > 64 ? BitValue.bytes(of: integer, width: width) : nil
    }

    private static func bytes(of integer: UInt64, width: Int) -> [UInt8] {
        let n = (width + 7) / 8
        return (0..<n).reversed().map { $0 >= 8 ? 0 : UInt8(truncatingIfNeeded: integer >> UInt64(8 * $0)) }
    }

    /// The bits right-aligned in whole bytes, big-endian.
    public var bytes: [UInt8] { large ?? BitValue.bytes(of: small, width: width) }

    /// The bits as an unsigned number, when they fit 64 bits.
    public var integer: UInt64? { width <= 64 ? small : nil }

    /// The bits, first (most significant) first.
    public var bits: [Bool] {
        let b = bytes
        let skip = b.count * 8 - width
        return (skip..<(b.count * 8)).map { b[$0 / 8] >> UInt8(7 - $0 % 8) & 1 == 1 }
    }
}

/// Reads an MSB-first bit stream: bit 0 is the top bit of byte 0.
public struct BitReader {
    /// Why bits could not be read: which bits, and what the record holds.
    public struct Failure: UserFacingError, Equatable {
        /// Which bits could not be read, and why.
        public var reason: String
        public var message: String { reason }
        public var hint: String? { "check the layout's widths and counts against the card's record (docs/profile-format.md)" }
    }

    /// The bytes the bits are read from.
    public let data: [UInt8]
    /// The next bit to read (bit 0 the top bit of byte 0).
    public private(set) var position = 0

    /// A reader at bit 0 of `data`.
    public init(_ data: [UInt8]) { self.data = data }

    /// The next `count` bits (1 or more) as a right-aligned value.
    public mutating func read(_ count: Int, for what: @autoclosure () -> String) throws(Failure) -> BitValue {
        let value = try Self.slice(data, at: position, count: count, for: what())
        position += count
        return value
    }

    /// `count` bits from bit `offset` of `data`; a failure names the bits `what` and the data
    /// `record`.
    public static func slice(
        _ data: [UInt8], at offset: Int, count: Int, for what: @autoclosure () -> String,
        in record: @autoclosure () -> String = "the record"
    ) throws(Failure) -> BitValue {
        guard count > 0, offset >= 0 else { throw Failure(reason: "\(what()): \(count) bits at bit \(offset) is not a bit range") }
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow else { throw Failure(reason: "\(what()): bit \(offset) is past any record") }
        guard end <= data.count * 8 else {
            throw Failure(reason: "\(what()) needs bits \(offset)…\(end - 1) but \(record()) has \(data.count * 8)")
        }
        if count <= 64 {
            // Up to 9 bytes hold the bits: gather them big-endian, then shift and mask.
            var acc: UInt128 = 0
            for i in (offset / 8)...((end - 1) / 8) { acc = acc << 8 | UInt128(data[i]) }
            acc >>= UInt128(7 - (end - 1) % 8)
            let value = UInt64(truncatingIfNeeded: acc) & (count == 64 ? .max : (1 << UInt64(count)) - 1)
            var v = BitValue(integer: value, width: count)
            v.offset = offset
            return v
        }
        var out = [UInt8](repeating: 0, count: (count + 7) / 8)
        // Fill from the last bit backwards so the value ends up right-aligned.
        for i in 0..<count {
            let source = end - 1 - i
            if data[source / 8] >> UInt8(7 - source % 8) & 1 == 1 {
                out[out.count - 1 - i / 8] |= 1 << UInt8(i % 8)
            }
        }
        var v = BitValue(bytes: out, width: count)
        v.offset = offset
        return v
    }
}
