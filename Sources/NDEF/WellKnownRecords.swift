/// The NFC Forum well-known record types cardscan reads and writes: Text (RTD-Text 1.0),
/// URI (RTD-URI 1.0), Smart Poster (RTD-SP 1.0); and MIME and external types.
public enum NDEFPayload: Hashable, Sendable {
    /// A Text record (TNF 1, type `T`): the text and its IANA language code (`en`, …); read
    /// from UTF-8 or UTF-16, written as UTF-8.
    case text(String, language: String)
    /// A URI record (TNF 1, type `U`): the whole URI, its identifier code expanded.
    case uri(String)
    /// A Smart Poster (TNF 1, type `Sp`): its payload, an NDEF message of its own.
    case smartPoster(NDEFMessage)
    /// A media-type record (TNF 2): its MIME type and the payload as it is.
    case mime(type: String, data: [UInt8])
    /// An external-type record (TNF 4): its type (`domain:name`) and the payload as it is.
    case external(type: String, data: [UInt8])
    /// Any other record, kept whole.
    case other(NDEFRecord)

    /// URI identifier codes (RTD-URI §3.2.2, table 3): code → prefix.
    public static let uriPrefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:", "ftp://anonymous:anonymous@",
        "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://", "dav://", "news:", "telnet://", "imap:",
        "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://",
        "irdaobex://", "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// Decodes a record's payload by its type.
    public init(_ r: NDEFRecord) throws(NDEFError) {
        switch (r.tnf, r.type) {
        case (.wellKnown, [0x54]):  // "T"
            guard let status = r.payload.first else { throw .malformedPayload("an empty Text record") }
            let langLength = Int(status & 0x3F)
            guard r.payload.count >= 1 + langLength else { throw .malformedPayload("the language code runs past the payload") }
            let language = String(decoding: r.payload[1..<(1 + langLength)], as: UTF8.self)
            let body = Array(r.payload[(1 + langLength)...])
            if status & 0x80 != 0 {
                guard body.count % 2 == 0 else { throw .malformedPayload("UTF-16 text with an odd byte count") }
                var units = stride(from: 0, to: body.count, by: 2).map { UInt16(body[$0]) << 8 | UInt16(body[$0 + 1]) }
                if units.first == 0xFFFE {
                    units = units.dropFirst().map { $0 >> 8 | $0 << 8 }
                } else if units.first == 0xFEFF {
                    units.removeFirst()
                }
                self = .text(String(decoding: units, as: UTF16.self), language: language)
            } else {
                self = .text(String(decoding: body, as: UTF8.self), language: language)
            }
        case (.wellKnown, [0x55]):  // "U"
            guard let code = r.payload.first else { throw .malformedPayload("an empty URI record") }
            guard Int(code) < Self.uriPrefixes.count else { throw .malformedPayload("URI identifier code \(code) is reserved") }
            self = .uri(Self.uriPrefixes[Int(code)] + String(decoding: r.payload.dropFirst(), as: UTF8.self))
        case (.wellKnown, [0x53, 0x70]):  // "Sp"
            self = .smartPoster(try NDEFMessage(parsing: r.payload))
        case (.media, _):
            self = .mime(type: r.typeString, data: r.payload)
        case (.external, _):
            self = .external(type: r.typeString, data: r.payload)
        default:
            self = .other(r)
        }
    }

    /// The record for this payload. A Text record's language code has a 6-bit length (NFC
    /// Forum Text RTD 1.0 §3.2.1): one longer than 63 bytes is cut there; `cardscan ndef write`
    /// refuses such a code before anything is written.
    public var record: NDEFRecord {
        switch self {
        case .text(let s, let lang):
            let l = Array(lang.utf8).prefix(63)
            return NDEFRecord(tnf: .wellKnown, type: [0x54], payload: [UInt8(l.count)] + l + Array(s.utf8))
        case .uri(let uri):
            var best = 0
            for (i, p) in Self.uriPrefixes.enumerated() where i > 0 && uri.hasPrefix(p) && p.count > Self.uriPrefixes[best].count {
                best = i
            }
            return NDEFRecord(
                tnf: .wellKnown, type: [0x55], payload: [UInt8(best)] + Array(uri.utf8.dropFirst(Self.uriPrefixes[best].utf8.count)))
        case .smartPoster(let m):
            return NDEFRecord(tnf: .wellKnown, type: [0x53, 0x70], payload: m.encoded)
        case .mime(let type, let data):
            return NDEFRecord(tnf: .media, type: Array(type.utf8), payload: data)
        case .external(let type, let data):
            return NDEFRecord(tnf: .external, type: Array(type.utf8), payload: data)
        case .other(let r):
            return r
        }
    }
}
