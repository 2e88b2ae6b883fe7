/// An NDEF message: one or more records, the first with MB, the last with ME (NDEF §3.1).
public struct NDEFMessage: Hashable, Sendable {
    /// The records, in order; ``encoded`` sets MB on the first and ME on the last.
    public var records: [NDEFRecord]

    /// A message of `records`, in that order; nothing is checked.
    public init(records: [NDEFRecord]) { self.records = records }

    static let mb: UInt8 = 0x80, me: UInt8 = 0x40, cf: UInt8 = 0x20, sr: UInt8 = 0x10, il: UInt8 = 0x08

    /// Parses a whole message, joining chunked records (NDEF §3.2.3); anything after the
    /// ME record, a length past the end, or a chunk without its end is an error.
    public init(parsing bytes: [UInt8]) throws(NDEFError) {
        var s = bytes[...]
        var records: [NDEFRecord] = []
        var chunk: NDEFRecord? = nil
        var first = true
        var ended = false
        while !s.isEmpty {
            let offset = s.startIndex
            if ended { throw .recordAfterMessageEnd(offset: offset) }
            let header = s.popFirst()!
            if first && header & Self.mb == 0 { throw .missingMessageBegin }
            if !first && header & Self.mb != 0 { throw .invalidChunk(offset: offset, reason: "MB set on a record that is not the first") }
            first = false
            guard let typeLength = s.popFirst() else { throw .truncated(offset: offset, what: "type length") }
            var payloadLength = 0
            if header & Self.sr != 0 {
                guard let l = s.popFirst() else { throw .truncated(offset: offset, what: "payload length") }
                payloadLength = Int(l)
            } else {
                guard s.count >= 4 else { throw .truncated(offset: offset, what: "4-byte payload length") }
                payloadLength = s.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                s = s.dropFirst(4)
            }
            var idLength = 0
            if header & Self.il != 0 {
                guard let l = s.popFirst() else { throw .truncated(offset: offset, what: "id length") }
                idLength = Int(l)
            }
            let total = Int(typeLength) + idLength + payloadLength
            guard s.count >= total else { throw .lengthPastEnd(offset: offset, declared: total, available: s.count) }
            let type = Array(s.prefix(Int(typeLength)))
            s = s.dropFirst(Int(typeLength))
            let id = Array(s.prefix(idLength))
            s = s.dropFirst(idLength)
            let payload = Array(s.prefix(payloadLength))
            s = s.dropFirst(payloadLength)
            let tnfRaw = header & 0x07
            let tnf = NDEFRecord.TNF(rawValue: tnfRaw)!
            if tnf == .empty, !(type.isEmpty && id.isEmpty && payload.isEmpty) { throw .invalidEmptyRecord(offset: offset) }
            if header & Self.me != 0 { ended = true }
            if var c = chunk {
                // A middle or final chunk: TNF 6 (unchanged), no type, no id.
                guard tnf == .unchanged, type.isEmpty, id.isEmpty else {
                    throw .invalidChunk(offset: offset, reason: "a following chunk must have TNF 6 and no type or id")
                }
                c.payload += payload
                if header & Self.cf == 0 {
                    records.append(c)
                    chunk = nil
                } else {
                    chunk = c
                }
            } else {
                if tnf == .unchanged { throw .invalidChunk(offset: offset, reason: "TNF 6 (unchanged) outside a chunked record") }
                let record = NDEFRecord(tnf: tnf, type: type, id: id, payload: payload)
                if header & Self.cf != 0 { chunk = record } else { records.append(record) }
            }
        }
        if chunk != nil { throw .chunkWithoutEnd }
        if records.isEmpty { throw .emptyMessage }
        if !ended { throw .missingMessageEnd }
        self.records = records
    }

    /// Refuses a message NDEF cannot encode: a record's type or id longer than 255 bytes.
    public func checkEncodable() throws(NDEFError) {
        for r in records {
            if r.type.count > 255 { throw .fieldTooLong(field: "type", count: r.type.count) }
            if r.id.count > 255 { throw .fieldTooLong(field: "id", count: r.id.count) }
        }
    }

    /// The bytes of the message: short records where the payload fits in 255 bytes. A type or
    /// id longer than 255 bytes (``checkEncodable()`` refuses them) is cut to 255, never a trap.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        for (i, r) in records.enumerated() {
            var header = r.tnf.rawValue
            if i == 0 { header |= Self.mb }
            if i == records.count - 1 { header |= Self.me }
            let short = r.payload.count < 256
            if short { header |= Self.sr }
            if !r.id.isEmpty { header |= Self.il }
            out.append(header)
            let type = r.type.prefix(255), id = r.id.prefix(255)
            out.append(UInt8(type.count))
            if short {
                out.append(UInt8(r.payload.count))
            } else {
                let n = r.payload.count
                out += [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            }
            if !id.isEmpty { out.append(UInt8(id.count)) }
            out += type + id + r.payload
        }
        return out
    }
}
