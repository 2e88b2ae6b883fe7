import APDU

/// A MIFARE Ultralight or NTAG card as data (`technology: ultralight`, docs/dump-formats.md
/// §3.2): its anticollision answers, its model, what GET_VERSION, READ_SIG and READ_CNT gave,
/// and its pages as READ returns them (`..` for an unknown byte; PWD and PACK read as zeros).
public struct UltralightCardImage: Codable, Equatable, Sendable {
    /// Always `ultralight`.
    public var technology: String
    /// Free text: where the image came from.
    public var note: String?
    /// The UID, 7 bytes.
    public var uid: String
    /// ATQA, most significant byte first (`00 44`).
    public var atqa: String
    /// SAK (`00`).
    public var sak: String
    /// The chip (``Model``).
    public var model: String
    /// GET_VERSION's 8 bytes, when the chip answered it.
    public var version: String?
    /// READ_SIG's 32 bytes, when known.
    public var signature: String?
    /// The three 24-bit counters (NTAG21x: only counter 2 is used), when known.
    public var counters: [Int]?
    /// The pages, 4 bytes each, page 0 first.
    public var pages: [String]
    /// A known password (4 bytes) and its acknowledgement (2), when the source had them.
    public var pwd: String?
    /// The password acknowledgement, 2 bytes.
    public var pack: String?

    /// The chip, and how many pages it has.
    public enum Model: String, Sendable, CaseIterable {
        /// MF0ICU1: 16 pages.
        case ultralight
        /// MF0ICU2: 48 pages (the last 4 hold its key and cannot be read).
        case ultralightC = "ultralight-c"
        /// MF0UL11: 20 pages.
        case ultralightEV1_11 = "ultralight-ev1-11"
        /// MF0UL21: 41 pages.
        case ultralightEV1_21 = "ultralight-ev1-21"
        /// NTAG203: 42 pages.
        case ntag203
        /// NTAG213: 45 pages.
        case ntag213
        /// NTAG215: 135 pages.
        case ntag215
        /// NTAG216: 231 pages.
        case ntag216
        /// A chip of the family not told apart: any number of pages.
        case unknown

        /// The chip's pages, nil for `unknown`.
        public var pageCount: Int? {
            switch self {
            case .ultralight: return 16
            case .ultralightC: return 48
            case .ultralightEV1_11: return 20
            case .ultralightEV1_21: return 41
            case .ntag203: return 42
            case .ntag213: return 45
            case .ntag215: return 135
            case .ntag216: return 231
            case .unknown: return nil
            }
        }

        /// The chip GET_VERSION names (NXP's product type and storage size, bytes 2 and 6).
        public init(version v: [UInt8]) {
            guard v.count == 8 else {
                self = .unknown
                return
            }
            switch (v[2], v[6]) {
            case (0x03, 0x0B): self = .ultralightEV1_11
            case (0x03, 0x0E): self = .ultralightEV1_21
            case (0x04, 0x0F): self = .ntag213
            case (0x04, 0x11): self = .ntag215
            case (0x04, 0x13): self = .ntag216
            default: self = .unknown
            }
        }
    }

    /// An image of these pages.
    public init(
        note: String? = nil, uid: [UInt8], atqa: [UInt8] = [0x00, 0x44], sak: UInt8 = 0, model: Model, version: [UInt8]? = nil,
        signature: [UInt8]? = nil, counters: [Int]? = nil, pages: [[UInt8?]]
    ) {
        technology = "ultralight"
        self.note = note
        self.uid = uid.hexString
        self.atqa = atqa.hexString
        self.sak = [sak].hexString
        self.model = model.rawValue
        self.version = version?.hexString
        self.signature = signature?.hexString
        self.counters = counters
        self.pages = pages.map(patternText)
    }

    /// What the image holds, checked.
    public struct Contents: Sendable, Equatable {
        /// The UID.
        public var uid: [UInt8]
        /// ATQA, most significant byte first.
        public var atqa: [UInt8]
        /// SAK.
        public var sak: UInt8
        /// The chip.
        public var model: Model
        /// GET_VERSION's answer, when known.
        public var version: [UInt8]?
        /// READ_SIG's answer, when known.
        public var signature: [UInt8]?
        /// The counters, when known.
        public var counters: [Int]?
        /// The pages (nil bytes unknown).
        public var pages: [[UInt8?]]
    }

    /// The image's contents, or an error naming the first thing wrong by its place (`pages[3]`).
    public func contents() throws(ImageError) -> Contents {
        guard technology == "ultralight" else { throw ImageError("technology: '\(technology)' is not ultralight") }
        let uidBytes = try imageHex(uid, "uid")
        guard uidBytes.count == 7 else { throw ImageError("uid: \(uidBytes.count) bytes; an Ultralight UID is 7") }
        let atqaBytes = try imageHex(atqa, "atqa")
        guard atqaBytes.count == 2 else { throw ImageError("atqa: \(atqaBytes.count) bytes; ATQA is 2") }
        let sakBytes = try imageHex(sak, "sak")
        guard sakBytes.count == 1 else { throw ImageError("sak: \(sakBytes.count) bytes; SAK is 1") }
        guard let m = Model(rawValue: model) else {
            throw ImageError("model: '\(model)' is not one of \(Model.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard pages.count >= 4, pages.count <= 1024 else { throw ImageError("pages: \(pages.count); an Ultralight has 4 to 1024") }
        if let n = m.pageCount, pages.count != n { throw ImageError("pages: \(pages.count); a \(m.rawValue) has \(n)") }
        var parsed: [[UInt8?]] = []
        for (i, p) in pages.enumerated() {
            let bytes = try imagePattern(p, "pages[\(i)]")
            guard bytes.count == 4 else { throw ImageError("pages[\(i)]: \(bytes.count) bytes; a page is 4") }
            parsed.append(bytes)
        }
        let v = try version.map { t throws(ImageError) in try imageHex(t, "version") }
        if let v, v.count != 8 { throw ImageError("version: \(v.count) bytes; GET_VERSION answers 8") }
        let s = try signature.map { t throws(ImageError) in try imageHex(t, "signature") }
        if let s, s.count != 32 { throw ImageError("signature: \(s.count) bytes; READ_SIG answers 32") }
        if let c = counters, c.count != 3 || c.contains(where: { !(0...0xFF_FFFF).contains($0) }) {
            throw ImageError("counters: three numbers 0…16777215")
        }
        return Contents(
            uid: uidBytes, atqa: atqaBytes, sak: sakBytes[0], model: m, version: v, signature: s, counters: counters, pages: parsed)
    }
}
