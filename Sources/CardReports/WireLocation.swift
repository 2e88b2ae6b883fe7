import ProfileLanguage

/// Finds the bytes report values came from (``FieldBytes``) among the answers a card gave on the
/// wire, so that a transcript or a trace can hide them, and a replay can tell that a value came
/// from bytes a recording hid.
///
/// A value's bytes are found by content, not by bookkeeping: the answers' data are joined in the
/// order they came (so a record split over chained frames is whole again), and the value's unit
/// (the record, answer or object it was read from, as the card sent it) is looked for there. A
/// unit not found whole (a FeliCa read's blocks, with frame headers between them) is looked for
/// in windows around the bytes used, of at least 4 bytes. Every place a unit is found counts: a
/// copy of the same record elsewhere (an FCI repeating a file) holds the same data.
public struct WireLocation {
    /// Each answer's bytes as they count here: its data (ISO 7816: without the status word).
    private let stream: [UInt8]
    /// For each byte of `stream`, its answer and position in that answer.
    private let origin: [(answer: Int, position: Int)]

    /// Bytes of context a window keeps on each side of the bytes used.
    static let context = 8
    /// The shortest window looked for: shorter ones would be found by chance.
    static let shortestWindow = 4

    /// `answers`: each answer as it came (nil for a failed round trip); `statusWordLength`: the
    /// trailing bytes of each that are not data (2 for ISO 7816, 0 for FeliCa frames).
    public init(answers: [[UInt8]?], statusWordLength: Int) {
        var stream: [UInt8] = []
        var origin: [(Int, Int)] = []
        for (i, a) in answers.enumerated() {
            guard let a, a.count > statusWordLength else { continue }
            let data = a.prefix(a.count - statusWordLength)
            stream += data
            origin += data.indices.map { (i, $0) }
        }
        self.stream = stream
        self.origin = origin
    }

    /// A place a value's byte is: its answer, its position there, and the bits the value uses.
    public typealias Place = (answer: Int, position: Int, mask: UInt8)

    /// Where `bytes` are found: every place each of them is. Empty when they are found nowhere.
    public func places(of bytes: FieldBytes) -> [[Place]] {
        var found: [[Place]] = []
        for start in occurrences(of: bytes.unit[...]) {
            found.append(bytes.positions.indices.map { k in place(start + bytes.positions[k], bytes.masks[k]) })
        }
        if !found.isEmpty || bytes.positions.isEmpty { return found }
        // Not whole: windows around each run of the bytes used.
        let mask = Dictionary(zip(bytes.positions, bytes.masks), uniquingKeysWith: |)
        var partial: [Place] = []
        for run in Self.runs(bytes.positions) {
            guard let (lo, hits) = window(around: run, in: bytes.unit) else { return [] }
            for start in hits { partial += run.map { place(start + $0 - lo, mask[$0] ?? 0xFF) } }
        }
        return [partial]
    }

    /// The first window around `run` found in the stream, and where: context on both sides,
    /// then on one side only (a frame's header may sit on the other), narrower each time.
    private func window(around run: Range<Int>, in unit: [UInt8]) -> (start: Int, hits: [Int])? {
        for context in [Self.context, 4, 2, 0] {
            for (left, right) in [(context, context), (0, context), (context, 0)] {
                var lo = max(0, run.lowerBound - left), hi = min(unit.count, run.upperBound + right)
                // Too short to be told apart from chance: widened, on the sides asked for first.
                while hi - lo < Self.shortestWindow, (lo > 0 && left > 0) || (hi < unit.count && right > 0) {
                    if lo > 0, left > 0 { lo -= 1 }
                    if hi < unit.count, right > 0 { hi += 1 }
                }
                guard hi - lo >= Self.shortestWindow else { continue }
                let hits = occurrences(of: unit[lo..<hi])
                if !hits.isEmpty { return (lo, hits) }
            }
        }
        return nil
    }

    private func place(_ streamIndex: Int, _ mask: UInt8) -> Place {
        (origin[streamIndex].answer, origin[streamIndex].position, mask)
    }

    /// The bits of each answer that hold any of `values`' bits (answer → position → bits), and
    /// the values found nowhere, which a caller hides some other way.
    public func hiding(_ values: [FieldBytes]) -> (masks: [Int: [Int: UInt8]], notFound: [FieldBytes]) {
        var out: [Int: [Int: UInt8]] = [:]
        var notFound: [FieldBytes] = []
        for v in values {
            let found = places(of: v)
            if found.isEmpty, !v.positions.isEmpty { notFound.append(v) }
            for place in found { for p in place { out[p.answer, default: [:]][p.position, default: 0] |= p.mask } }
        }
        return (out, notFound)
    }

    /// Whether `value` came only from bits that are hidden (`hidden`: answer → position → the
    /// bits a recording hid): found somewhere, and every place it is found uses a hidden bit.
    public func isRedacted(_ value: FieldBytes, hidden: [Int: [Int: UInt8]]) -> Bool {
        let found = places(of: value)
        return !found.isEmpty
            && found.allSatisfy { place in place.contains { (hidden[$0.answer]?[$0.position] ?? 0) & $0.mask != 0 } }
    }

    /// The starts of every place `needle` is in the stream, not overlapping.
    private func occurrences(of needle: ArraySlice<UInt8>) -> [Int] {
        guard !needle.isEmpty, needle.count <= stream.count else { return [] }
        var out: [Int] = []
        var i = 0
        let first = needle.first!
        while i <= stream.count - needle.count {
            if stream[i] == first, stream[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }

    /// Ascending positions as runs of consecutive ones.
    static func runs(_ positions: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for p in positions {
            if let last = out.last, last.upperBound == p { out[out.count - 1] = last.lowerBound..<(p + 1) } else { out.append(p..<(p + 1)) }
        }
        return out
    }
}
