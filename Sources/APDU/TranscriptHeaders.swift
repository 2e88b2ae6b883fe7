/// The transcript headers cardscan writes and reads (docs/transcripts.md §Headers), by a
/// typed key instead of a string literal at each use.
extension Transcript {
    /// A header cardscan knows; the raw value is the key as written (`system-code`).
    public enum HeaderKey: String, Sendable, CaseIterable {
        /// `iso7816`, `felica`, `type2` or `classic` (a DESFire card is `iso7816`: its commands are wrapped in APDUs).
        case technology
        /// The card's ATR (ISO 7816 over PC/SC, or a contactless reader's pseudo-ATR).
        case atr
        /// The PC/SC reader name or libnfc connection string the card was read on.
        case reader
        /// `T=0` or `T=1`.
        case `protocol`
        /// When the transcript was recorded (ISO 8601, UTC).
        case recorded
        /// The profile given with the read (replay uses it unless told otherwise).
        case profile
        /// The profile detection chose (informative).
        case detected
        /// FeliCa: the IDm, PMm and system code Polling returned.
        case idm, pmm
        /// FeliCa: the system code Polling returned, 2 bytes of hex (`system-code`).
        case systemCode = "system-code"
        /// FeliCa: further system codes the card answers Polling for (hex, space-separated).
        case systems
        /// ISO 14443-A: the card's UID.
        case uid
        /// ISO 14443-B: the card's PUPI (ISO/IEC 14443-3 §7.9.2, from the ATQB).
        case pupi
        /// Terminal data the read gave the card that changes from read to read (EMV: date 9A,
        /// time 9F21, unpredictable number 9F37), `TAG=HEX` separated by spaces: a replay
        /// sends the same.
        case terminal
    }

    /// The value of the first header named `key`.
    public subscript(header key: HeaderKey) -> String? { self[header: key.rawValue] }

    /// The header `key` as bytes: nil when absent or not hex.
    public func bytes(header key: HeaderKey) -> [UInt8]? {
        self[header: key].flatMap { try? Hex.parse($0) }
    }

    /// `technology` header, `iso7816` when absent.
    public var technology: String { self[header: .technology] ?? "iso7816" }

    /// The `atr` header as bytes, if present and valid hex.
    public var atr: [UInt8]? { bytes(header: .atr) }

    /// The `system-code` header as a number (2 bytes of hex), if present.
    public var systemCode: UInt16? {
        guard let b = bytes(header: .systemCode), b.count == 2 else { return nil }
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    /// The `systems` header: further system codes (`0003 FE00`).
    public var otherSystems: [UInt16] { otherSystemIDms.map(\.code) }

    /// The `systems` header with the IDm each system answers with, when it gives one
    /// (`FE00=11010410AABBCCDD`: a card's second system has an IDm of its own).
    public var otherSystemIDms: [(code: UInt16, idm: [UInt8]?)] {
        (self[header: .systems] ?? "").split(separator: " ").compactMap { word in
            let parts = word.split(separator: "=", maxSplits: 1)
            guard let code = UInt16(parts[0], radix: 16) else { return nil }
            return (code, parts.count == 2 ? try? Hex.parse(parts[1]) : nil)
        }
    }
}

extension Transcript.Header {
    /// A header with a known key.
    public init(_ key: Transcript.HeaderKey, _ value: String) { self.init(key.rawValue, value) }
}
