import APDU
import Foundation

/// MIFARE Classic keys as the files users have hold them (docs/cards/classic.md §Key files):
/// keys for particular sectors of one card (by UID) or of any card, and a dictionary of keys
/// to try on every sector. Pure: bytes in, keys out; a file that is none of the formats is an
/// error naming the file and the place.
public struct ClassicKeys: Sendable, Equatable {
    /// The card the keys are for; nil: any card.
    public var uid: [UInt8]?
    /// Keys for one sector: key A and key B candidates.
    public struct SectorKeys: Sendable, Equatable {
        /// Key A candidates.
        public var a: [[UInt8]] = []
        /// Key B candidates.
        public var b: [[UInt8]] = []
        /// No keys.
        public init() {}
    }
    /// Keys by sector number.
    public var sectors: [Int: SectorKeys] = [:]
    /// Keys to try on every sector, as A and as B.
    public var dictionary: [[UInt8]] = []
    /// Base keys by sector that Metrodroid's `touchngo` transform turns into a card's own keys
    /// (``touchNGo(_:uid:)``): Touch 'n Go's keys differ per card as a shared key XOR its UID's
    /// pattern, so one file of base keys opens every card.
    public var touchNGo: [Int: SectorKeys] = [:]

    /// No keys.
    public init(uid: [UInt8]? = nil) { self.uid = uid }

    /// How many keys the set holds.
    public var count: Int {
        dictionary.count + (sectors.values.map { $0 } + touchNGo.values.map { $0 }).reduce(0) { $0 + $1.a.count + $1.b.count }
    }

    /// The card key `base` gives a card of UID `uid` (bytes as sent in anticollision; the first
    /// four count) under Metrodroid's `touchngo` transform: base XOR [u1^u2^u3, u1, u2,
    /// (u0+u1+u2+u3 mod 256)^u3, 0, 0]. Nil when the UID is shorter than 4 bytes.
    public static func touchNGo(_ base: [UInt8], uid: [UInt8]) -> [UInt8]? {
        guard uid.count >= 4, base.count == 6 else { return nil }
        let u = Array(uid.prefix(4))
        let sum = UInt8(truncatingIfNeeded: u.reduce(0) { $0 + Int($1) })
        let pattern: [UInt8] = [u[1] ^ u[2] ^ u[3], u[1], u[2], sum ^ u[3], 0, 0]
        return zip(base, pattern).map { $0 ^ $1 }
    }

    /// A key file's formats, told from its name and first bytes.
    public enum Format: String, Sendable, CaseIterable {
        /// Metrodroid's key JSON (`MifareClassic` for one card, `MifareClassicStatic`).
        case metrodroid
        /// One key of 12 hex digits a line, `#` comments (MIFARE Classic Tool `.keys`, Proxmark3 `.dic`).
        case dictionary
        /// Proxmark3's key dump (`hf-mf-UID-key.bin`): every sector's key A, then every key B.
        case proxmark3
        /// Farebot's `.farebotkeys`: key A of sector i at 6·i.
        case farebot
    }

    /// Why a key file was refused.
    public struct Invalid: UserFacingError, Equatable {
        /// The file, then the place and what is wrong.
        public let message: String
        /// Where the formats are described.
        public var hint: String? { "docs/cards/classic.md lists the key files cardscan imports" }
        init(_ file: String, _ place: String?, _ reason: String) {
            message = "\(file): " + (place.map { "\($0): " } ?? "") + reason
        }
    }

    /// The keys in `bytes` (the file `file`).
    public static func parse(_ bytes: [UInt8], file: String) throws(Invalid) -> ClassicKeys {
        let lower = file.lowercased()
        if lower.hasSuffix(".farebotkeys") { return try sixByteKeys(bytes, file: file, proxmark: false) }
        if lower.hasSuffix(".bin") { return try sixByteKeys(bytes, file: file, proxmark: true) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Invalid(file, nil, "binary, and not named .bin (Proxmark3) or .farebotkeys (Farebot)")
        }
        if text.drop(while: \.isWhitespace).hasPrefix("{") { return try metrodroid(bytes, file: file) }
        return try dictionary(text, file: file)
    }

    /// `.keys` / `.dic`: a key a line, `#` starts a comment (also after a key).
    static func dictionary(_ text: String, file: String) throws(Invalid) -> ClassicKeys {
        var keys = ClassicKeys()
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            guard line.count == 12, let key = try? Hex.parse(line) else {
                throw Invalid(file, "line \(i + 1)", "'\(line.prefix(24))' is not a key (12 hex digits)")
            }
            if !keys.dictionary.contains(key) { keys.dictionary.append(key) }
        }
        guard !keys.dictionary.isEmpty else { throw Invalid(file, nil, "no key in it") }
        return keys
    }

    /// Proxmark3's key dump (A keys, then B keys; FF…FF where unknown) or Farebot's (A keys).
    static func sixByteKeys(_ bytes: [UInt8], file: String, proxmark: Bool) throws(Invalid) -> ClassicKeys {
        let per = proxmark ? 12 : 6
        guard !bytes.isEmpty, bytes.count % per == 0, bytes.count / per <= 40 else {
            throw Invalid(file, nil, "\(bytes.count) bytes: \(proxmark ? "12 a sector (key A and B)" : "6 a sector"), 40 sectors at most")
        }
        var keys = ClassicKeys()
        let n = bytes.count / per
        for s in 0..<n {
            var k = SectorKeys()
            k.a = [Array(bytes[(s * 6)..<(s * 6 + 6)])]
            if proxmark {
                let b = Array(bytes[((n + s) * 6)..<((n + s) * 6 + 6)])
                k.b = [b]
            }
            keys.sectors[s] = k
        }
        if proxmark, let name = file.split(separator: "/").last, name.lowercased().hasPrefix("hf-mf-") {
            let part = name.dropFirst(6).split(separator: "-").first.map(String.init) ?? ""
            keys.uid = try? Hex.parse(part)
        }
        return keys
    }

    /// Metrodroid: `{"KeyType": "MifareClassic", "TagId": UID, "keys": [{"type": "KeyA", "key": …,
    /// "sector": N}]}` (sector optional: the list's index), or `MifareClassicStatic` (any card).
    static func metrodroid(_ bytes: [UInt8], file: String) throws(Invalid) -> ClassicKeys {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw Invalid(file, nil, "not a JSON object")
        }
        var keys = ClassicKeys()
        switch object["KeyType"] as? String {
        case "MifareClassic"?:
            guard let tag = object["TagId"] as? String, let uid = try? Hex.parse(tag) else {
                throw Invalid(file, "TagId", "the card's UID in hex is missing")
            }
            keys.uid = uid
        case "MifareClassicStatic"?: break
        default: throw Invalid(file, "KeyType", "not MifareClassic or MifareClassicStatic")
        }
        guard let list = object["keys"] as? [[String: Any]] else { throw Invalid(file, "keys", "a list of keys is missing") }
        for (i, entry) in list.enumerated() {
            let at = "keys[\(i)]"
            let transform = entry["transform"] as? String ?? "none"
            guard transform == "none" || transform == "touchngo" else {
                throw Invalid(file, "\(at).transform", "'\(transform)': cardscan knows the transforms none and touchngo")
            }
            guard let hex = entry["key"] as? String, let key = try? Hex.parse(hex), key.count == 6 else {
                throw Invalid(file, "\(at).key", "12 hex digits expected")
            }
            let sector = (entry["sector"] as? Int) ?? i
            guard (0..<40).contains(sector) else { throw Invalid(file, "\(at).sector", "\(sector) is not a sector (0–39)") }
            var k = (transform == "none" ? keys.sectors[sector] : keys.touchNGo[sector]) ?? SectorKeys()
            if (entry["type"] as? String) == "KeyB" { k.b.append(key) } else { k.a.append(key) }
            if transform == "none" { keys.sectors[sector] = k } else { keys.touchNGo[sector] = k }
        }
        return keys
    }
}
