import APDU

/// An NDEF record (NFC Forum NDEF 1.0 §3.2): type name format, type, optional id, payload.
/// Chunked records are joined when a message is parsed, so a record here is always whole.
public struct NDEFRecord: Hashable, Sendable {
    /// Type Name Format (NDEF §3.2.6).
    public enum TNF: UInt8, Sendable, CaseIterable {
        /// 0: Empty; no type, id or payload (a parsed one with any of them is refused).
        case empty = 0
        /// 1: NFC Forum well-known type (RTD), e.g. `T` Text, `U` URI, `Sp` Smart Poster.
        case wellKnown = 1
        /// 2: Media type; the type is a MIME type such as `text/plain` (RFC 2046).
        case media = 2
        /// 3: Absolute URI; the type is a URI (RFC 3986).
        case absoluteURI = 3
        /// 4: NFC Forum external type; the type is `domain:name`.
        case external = 4
        /// 5: Unknown; the payload's type is not given.
        case unknown = 5
        /// 6: Unchanged; a middle or final chunk. Parsing joins chunks, so a parsed record never has it.
        case unchanged = 6
        /// 7: Reserved by NDEF; a record with it is kept as read.
        case reserved = 7
    }

    /// How ``type`` is to be read: the low 3 bits of the record header.
    public var tnf: TNF
    /// The type field's bytes, read as ``tnf`` says (`T`, `text/plain`, …); its length is
    /// one byte on the wire.
    public var type: [UInt8]
    /// The record identifier (a URI, NDEF §3.2.5); empty when the record has none (IL clear).
    public var id: [UInt8]
    /// The payload bytes, whole (chunks joined).
    public var payload: [UInt8]

    /// A record of these fields; an empty `id` means none.
    public init(tnf: TNF, type: [UInt8], id: [UInt8] = [], payload: [UInt8]) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// ``type`` decoded as UTF-8 (invalid bytes become U+FFFD).
    public var typeString: String { String(decoding: type, as: UTF8.self) }
}

/// Why NDEF bytes were refused.
public enum NDEFError: UserFacingError, Equatable, Sendable {
    /// The bytes end before `what` (a length field, a header) could be read; `offset` is a
    /// byte index in the input (in a message, where the record starts).
    case truncated(offset: Int, what: String)
    /// A length (a record's type + id + payload, a TLV's, CCLEN) declares `declared` bytes
    /// where only `available` remain; `offset` is a byte index in the input.
    case lengthPastEnd(offset: Int, declared: Int, available: Int)
    /// The first record lacks the MB (message begin) flag.
    case missingMessageBegin
    /// A record starts at byte `offset`, after the one with the ME (message end) flag.
    case recordAfterMessageEnd(offset: Int)
    /// The bytes end without a record with the ME (message end) flag.
    case missingMessageEnd
    /// A chunked record (CF set) has no final chunk (CF clear) before the bytes end.
    case chunkWithoutEnd
    /// A chunk breaks NDEF §3.2.3 at byte `offset` (TNF 6 outside a chunked record, a
    /// following chunk with a type or id, MB on a later record); `reason` says which.
    case invalidChunk(offset: Int, reason: String)
    /// An empty (TNF 0) record at byte `offset` has a type, id or payload.
    case invalidEmptyRecord(offset: Int)
    /// Bytes that do not hold what they should (a Text or URI payload, a Type 2 capability
    /// container, a Type 3 attribute block, a Type 4 CC), or a tag that is not read/write
    /// (``NDEFStatus/check(writing:)``); the string says why.
    case malformedPayload(String)
    /// The input holds no record at all (it is empty).
    case emptyMessage
    /// The encoded message, this many bytes, is larger than the tag's capacity.
    case tooLarge(Int)
    /// A record's type or id (`field`) is `count` bytes: NDEF gives each a 1-byte length.
    case fieldTooLong(field: String, count: Int)
    /// The tag is not writable (`access`: read-only, or of a version this reader cannot write).
    case notWritable(access: String)

    public var message: String {
        switch self {
        case .truncated(let o, let w): return "NDEF truncated at byte \(o): missing \(w)"
        case .lengthPastEnd(let o, let d, let a): return "NDEF record at byte \(o) declares \(d) byte(s) but only \(a) remain"
        case .missingMessageBegin: return "the first record lacks the MB (message begin) flag"
        case .recordAfterMessageEnd(let o): return "a record at byte \(o) follows the ME (message end) flag"
        case .missingMessageEnd: return "the last record lacks the ME (message end) flag"
        case .chunkWithoutEnd: return "a chunked record has no final chunk"
        case .invalidChunk(let o, let r): return "invalid chunk at byte \(o): \(r)"
        case .invalidEmptyRecord(let o): return "an empty (TNF 0) record at byte \(o) has a type, id or payload"
        case .malformedPayload(let r): return "malformed record payload: \(r)"
        case .emptyMessage: return "no NDEF records"
        case .tooLarge(let n): return "the message (\(n) bytes) does not fit"
        case .fieldTooLong(let f, let n): return "a record's \(f) is \(n) bytes; NDEF allows at most 255"
        case .notWritable(let a): return "the tag is \(a)"
        }
    }

    public var hint: String? {
        switch self {
        case .tooLarge: return "shorten the message"
        case .fieldTooLong: return "shorten the MIME type (or the record id) to 255 bytes"
        case .notWritable: return "a read-only tag cannot be written again (NFC Forum Type 2/3/4 Tag: the lock is permanent)"
        case .emptyMessage: return nil
        default: return "the tag's NDEF data is not well formed (NFC Forum NDEF 1.0 §3); writing a new message replaces it"
        }
    }

    /// The message alone (no hint), for use inside other messages.
    public var description: String { message }
}
