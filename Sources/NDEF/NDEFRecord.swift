import APDU

/// An NDEF record (NFC Forum NDEF 1.0 §3.2): type name format, type, optional id, payload.
/// Chunked records are joined when a message is parsed, so a record here is always whole.
public struct NDEFRecord: Hashable, Sendable {
    /// Type Name Format (NDEF §3.2.6).
    public enum TNF: UInt8, Sendable, CaseIterable {
        case empty = 0, wellKnown = 1, media = 2, absoluteURI = 3, external = 4, unknown = 5, unchanged = 6, reserved = 7
    }

    public var tnf: TNF
    public var type: [UInt8]
    public var id: [UInt8]
    public var payload: [UInt8]

    public init(tnf: TNF, type: [UInt8], id: [UInt8] = [], payload: [UInt8]) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
    }

    public var typeString: String { String(decoding: type, as: UTF8.self) }
}

/// Why NDEF bytes were refused.
public enum NDEFError: UserFacingError, Equatable, Sendable {
    case truncated(offset: Int, what: String)
    case lengthPastEnd(offset: Int, declared: Int, available: Int)
    case missingMessageBegin
    case recordAfterMessageEnd(offset: Int)
    case missingMessageEnd
    case chunkWithoutEnd
    case invalidChunk(offset: Int, reason: String)
    case invalidEmptyRecord(offset: Int)
    case malformedPayload(String)
    case emptyMessage
    case tooLarge(Int)

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
        }
    }

    public var hint: String? {
        switch self {
        case .tooLarge: return "shorten the message"
        case .emptyMessage: return nil
        default: return "the tag's NDEF data is not well formed (NFC Forum NDEF 1.0 §3); writing a new message replaces it"
        }
    }

    /// The message alone (no hint), for use inside other messages.
    public var description: String { message }
}
