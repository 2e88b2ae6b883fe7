import APDU
import ProfileLanguage

/// Reading one value: where its bytes are (an answer, a record, a BER-TLV object, a layout
/// element), and decoding them by the field's type (``FieldDecoder``).
extension ReportBuilder {
    /// An answer or record as its fields see it: bytes reversed when the step says so, and
    /// decoded once by the step's layout when it has one.
    struct Source {
        var bytes: [UInt8]
        var decoded: BitLayout.Decoded?
        /// The card sent the bytes in the other order (the step's `endian: little`).
        var reversed = false
    }

    /// How the answer of step `name` is read: its bytes reversed or not, and its layout.
    func reading(_ name: String) -> (reverse: Bool, layout: BitLayout?) {
        guard let step = step(name) else { return (false, nil) }
        return (step.reverseBytes, step.layout.flatMap { profile.layouts[$0] })
    }

    func source(_ bytes: [UInt8], _ how: (reverse: Bool, layout: BitLayout?)) -> Source {
        let data = how.reverse ? bytes.reversed() : bytes
        return Source(bytes: data, decoded: how.layout?.decode(data), reversed: how.reverse)
    }

    /// The answers parsed as BER-TLV once per report, for `tag` fields (`Answers.tlvTrees()`).
    final class TLVIndex {
        let answers: Answers
        lazy var trees: [[BERTLV]] = answers.tlvTrees()
        init(_ answers: Answers) { self.answers = answers }
    }

    /// What a field of a record sees besides the answers: the record, and for a contract its
    /// list entry (decoded list, `NAME[i].` prefix) and record number.
    struct Context {
        var record: Source?
        var index: TLVIndex? = nil
        /// The record cut by the trips' `dol` (tag, value), for `tag` fields.
        var dol: [(tag: TLVTag, value: [UInt8])]? = nil
        var entry: (decoded: BitLayout.Decoded, prefix: String)?
        var recordNumber: Int?
        /// The card's and `let` values that are dates, by name: the epochs `epoch: NAME` counts from.
        var epochs: [String: CivilDate] = [:]
    }

    /// The bytes a field decodes, once found.
    struct FieldInput {
        var data: [UInt8]
        var answerName: String
        var decoded: BitLayout.Decoded?
        /// The card sent `data` in the other order.
        var reversed = false
        /// The origin was told already (a Track 2 part's own digits).
        var noted = false
        /// Seconds after midnight from the field's `time-tag`.
        var timeOfDay: Int?
    }

    /// Whether the answers hold what `spec` reads (its answer, record or tag; a layout element
    /// present in its record), whatever its value.
    func holds(_ spec: FieldSpec, _ answers: Answers) -> Bool {
        switch spec.source {
        case .answer(let a, _):
            guard let answer = answers[a] else { return false }
            if case .absent = answer { return false }
            guard case .named(let name)? = spec.bitSource else { return true }
            guard let bytes = answers.data(a) else { return false }
            return source(bytes, reading(a)).decoded?.values[name] != nil
        case .tags(let tags): return answers.tlvValue(tags) != nil
        default: return false
        }
    }

    /// One field's value; `warn` gets the reason when the bytes are there but do not decode.
    /// `origin`, when given, is told the bytes the value came from (``FieldBytes``).
    func value(
        _ spec: FieldSpec, _ answers: Answers, sources: [String: Source], context: Context, warn: (String) -> Void,
        origin: FieldOrigin? = nil
    ) -> FieldValue? {
        if let condition = spec.condition, !condition.holds(in: context.record?.decoded) { return nil }
        var spec = spec
        if let name = spec.layout.epochField {
            // Counted from a date read with the card (a ticket's last day): without it, no date.
            guard let epoch = context.epochs[name] else {
                if !spec.optional { warn("its epoch, \(name), was not read") }
                return nil
            }
            var layout = spec.layout
            layout.epoch = epoch
            spec = FieldSpec(layout)
        }
        switch spec.source {
        case .derived: return nil
        case .constant(let v): return v
        default: break
        }
        var problem: String?
        guard let input = input(spec, answers, sources: sources, context: context, origin: origin, problem: &problem) else {
            if let problem, !spec.optional { warn(problem) }
            return nil
        }
        do throws(FieldDecoder.Failure) {
            let value = try decode(spec, input, context: context, origin: origin)
            if let n = spec.layout.negativeIf, case .int(let v)? = value, v > 0, n.offset < input.data.count,
                input.data[n.offset] & n.mask != 0
            {
                return .int(-v)
            }
            return value
        } catch {
            if !spec.optional { warn(error.reason) }
            return nil
        }
    }

    /// The bytes `spec` reads, or nil (with the `problem` when it is one) when there are none.
    private func input(
        _ spec: FieldSpec, _ answers: Answers, sources: [String: Source], context: Context, origin: FieldOrigin?,
        problem: inout String?
    ) -> FieldInput? {
        switch spec.source {
        case .record:
            guard let record = context.record else { return nil }
            return FieldInput(data: record.bytes, answerName: "record", decoded: record.decoded, reversed: record.reversed)
        case .answer(let a, let tlvPath):
            var input = FieldInput(data: [], answerName: a)
            if let n = spec.record {
                // One record of a records answer (the first the card gave is 1).
                guard case .records(let list)? = answers[a] else { return nil }
                guard let record = n < 0 ? list.last : (n <= list.count ? list[n - 1] : nil) else {
                    // `record: last` of no record kept: no value.
                    if n > 0 { problem = "answer '\(a)' has \(list.count) record(s): no record \(n)" }
                    return nil
                }
                // The record as the trips see it: reversed, decoded by its step's layout.
                let seen = source(record, reading(a))
                input.data = seen.bytes
                input.decoded = seen.decoded
                input.reversed = seen.reversed
            } else {
                guard let raw = answers.data(a) else { return nil }  // not read (optional, partial)
                input.data = sources[a]?.bytes ?? raw
                input.decoded = sources[a]?.decoded
                input.reversed = sources[a]?.reversed ?? false
            }
            if let tlvPath {
                guard let node = try? BERTLV.parse(input.data), let hit = node.first(path: tlvPath) else {
                    problem = "answer '\(a)' has no BER-TLV object at \(tlvPath)"
                    return nil
                }
                input.data = hit.value
            } else if let n = spec.slice, let number = context.recordNumber {
                // The contract's own part of the answer: n bytes at n·(number − 1).
                let (start, o1) = n.multipliedReportingOverflow(by: number - 1)
                guard !o1, start >= 0, start + n <= input.data.count else {
                    problem = "answer '\(a)' has \(input.data.count) bytes: no \(n)-byte slice for record \(number)"
                    return nil
                }
                input.data = Array(input.data[start..<(start + n)])
            }
            return input
        case .tags(let tags):
            guard let v = Self.tagged(tags, answers, context) else { return nil }  // the card does not have it
            var input = FieldInput(data: v, answerName: "tag " + tags.map(\.description).joined(separator: "/"))
            if spec.type == .track2, let origin {  // only the part's digits
                if let used = FieldDecoder.track2Bytes(spec.track2Part, v) { origin(v, used.positions, used.masks) }
                input.noted = true
            }
            if let timeTag = spec.timeTag, let t = Self.tagged([timeTag], answers, context) {
                let hms = t.map { Int($0 >> 4) * 10 + Int($0 & 0x0F) }
                guard t.count == 3, t.allSatisfy({ $0 >> 4 <= 9 && $0 & 0x0F <= 9 }) else {
                    problem = "the time \(timeTag) is \(t.hexString), not BCD hhmmss"
                    return nil
                }
                guard hms[0] < 24, hms[1] < 60, hms[2] < 60 else {
                    problem = "the time \(timeTag) is \(t.hexString), not a time of day"
                    return nil
                }
                input.timeOfDay = hms[0] * 3600 + hms[1] * 60 + hms[2]
            }
            return input
        case .derived, .constant:
            return nil
        }
    }

    /// `input` decoded as `spec` says: whole bytes, a bit range, or a layout element (with the
    /// time element that goes with a date).
    private func decode(
        _ spec: FieldSpec, _ input: FieldInput, context: Context, origin: FieldOrigin?
    ) throws(FieldDecoder.Failure)
        -> FieldValue?
    {
        let note = ByteNoting(data: input.data, reversed: input.reversed, origin: input.noted ? nil : origin)
        switch spec.bitSource {
        case nil:
            note(spec.offset..<(spec.offset + max(0, spec.length ?? (input.data.count - spec.offset))))
            return try FieldDecoder.decode(spec, from: input.data, answer: input.answerName, timeOfDay: input.timeOfDay)
        case .position(let offset, let length)?:
            let bits: BitValue
            do throws(BitReader.Failure) {
                bits = try BitReader.slice(input.data, at: offset, count: length, for: "the field", in: "answer '\(input.answerName)'")
            } catch { throw FieldDecoder.Failure(reason: error.reason) }
            note(bits)
            return try FieldDecoder.decode(spec, bits: bits)
        case .named(var name)?:
            var decoded = input.decoded
            var fromEntry = false
            if name.hasPrefix("entry.") {
                guard let entry = context.entry else { return nil }
                decoded = entry.decoded
                name = entry.prefix + name.dropFirst("entry.".count)
                fromEntry = true
            }
            guard let decoded else { return nil }
            guard let bits = decoded.values[name] else {
                // Not in the record: absent from its bitmap (nothing to say), or past its end.
                if let problem = decoded.problem, !decoded.isAbsent(name) {
                    throw FieldDecoder.Failure(reason: "\(name) not read: \(problem)")
                }
                return nil
            }
            if !fromEntry { note(bits) }
            let time = spec.timeField.flatMap { decoded.values[$0] }
            if !fromEntry, let time { note(time) }
            return try FieldDecoder.decode(spec, bits: bits, minutes: time?.integer.map { Self.seconds($0, spec.timeFieldKind) })
        }
    }

    /// A time element's value in seconds after midnight: minutes of the day, an hour (top 5 of
    /// 11 bits) and a minute (low 6), or seconds. A value whose seconds Int cannot hold (an
    /// element up to 64 bits wide) is no time of day: -1, not a trap.
    static func seconds(_ m: UInt64, _ kind: FieldSpec.TimeFieldKind) -> Int {
        switch kind {
        case .minutes: return m <= UInt64(Int.max / 60) ? Int(m) * 60 : -1
        case .packedTime:
            return m & 0x3F < 60 && m >> 6 < UInt64(Int.max / 3600) ? (Int(m >> 6) * 60 + Int(m & 0x3F)) * 60 : -1
        case .seconds: return Int(exactly: m) ?? -1
        }
    }

    /// The value of the first object with one of `tags`: in a record laid out by a DOL, that
    /// record's; in another record, the record's own BER-TLV; else any answer's.
    static func tagged(_ tags: [TLVTag], _ answers: Answers, _ context: Context) -> [UInt8]? {
        if let dol = context.dol {
            for t in tags { if let hit = dol.first(where: { $0.tag == t }) { return hit.value } }
            return nil
        }
        if let record = context.record {
            guard let nodes = try? BERTLV.parseAll(record.bytes) else { return nil }
            for t in tags { if let hit = Answers.find(t, in: nodes) { return hit.value } }
            return nil
        }
        if let index = context.index { return Answers.tlvValue(tags, in: index.trees) }
        return answers.tlvValue(tags)
    }
}

/// Tells a field's origin which bytes of its data the value comes from (and which of their
/// bits), in the card's own order.
private struct ByteNoting {
    let data: [UInt8]
    let reversed: Bool
    let origin: FieldOrigin?

    func callAsFunction(_ used: Range<Int>, masks: [UInt8]? = nil) {
        guard let origin else { return }
        let kept = used.clamped(to: data.indices)
        let bits = masks.map { m in kept.map { m[$0 - used.lowerBound] } } ?? Array(repeating: 0xFF, count: kept.count)
        if reversed {
            origin(data.reversed(), kept.map { data.count - 1 - $0 }.reversed(), bits.reversed())
        } else {
            origin(data, Array(kept), bits)
        }
    }

    func callAsFunction(_ bits: BitValue) {
        guard origin != nil, bits.offset >= 0 else { return }
        let span = FieldBytes.bitSpan(offset: bits.offset, count: bits.width)
        self(span.positions, masks: span.masks)
    }
}
