import APDU
import CardDumps
import Foundation
import MIFARECommands
import ProfileLanguage

/// The MIFARE Classic keys a user imported (`cardscan keys add`), one JSON file per import in
/// `$XDG_CONFIG_HOME/cardscan/keys/`, each readable by its owner only (mode 0600): a file others
/// may read is refused, since its keys are the user's secrets.
enum ClassicKeyStore {
    static var directory: String {
        ProfileRegistry.userDirectory().replacingOccurrences(of: "/cardscan/profiles", with: "/cardscan/keys")
    }

    /// One stored import as JSON: where it came from, the card it is for, its keys.
    struct Stored: Codable {
        var source: String
        var uid: String?
        var sectors: [String: [String: [String]]]  // "3": {"a": […], "b": […]}
        var dictionary: [String]
        /// Base keys of the `touchngo` transform, as `sectors` (absent in older files).
        var touchngo: [String: [String: [String]]]?

        init(_ keys: ClassicKeys, source: String) {
            self.source = source
            uid = keys.uid?.hexString
            sectors = Self.json(keys.sectors)
            dictionary = keys.dictionary.map(\.hexString)
            touchngo = keys.touchNGo.isEmpty ? nil : Self.json(keys.touchNGo)
        }

        static func json(_ sectors: [Int: ClassicKeys.SectorKeys]) -> [String: [String: [String]]] {
            Dictionary(
                uniqueKeysWithValues: sectors.map {
                    (String($0.key), ["a": $0.value.a.map(\.hexString), "b": $0.value.b.map(\.hexString)])
                })
        }

        static func keys(_ json: [String: [String: [String]]]) -> [Int: ClassicKeys.SectorKeys] {
            var out: [Int: ClassicKeys.SectorKeys] = [:]
            for (s, ab) in json {
                guard let n = Int(s) else { continue }
                var sk = ClassicKeys.SectorKeys()
                sk.a = (ab["a"] ?? []).compactMap { try? Hex.parse($0) }
                sk.b = (ab["b"] ?? []).compactMap { try? Hex.parse($0) }
                out[n] = sk
            }
            return out
        }

        var keys: ClassicKeys {
            var k = ClassicKeys(uid: uid.flatMap { try? Hex.parse($0) })
            k.sectors = Self.keys(sectors)
            k.dictionary = dictionary.compactMap { try? Hex.parse($0) }
            k.touchNGo = Self.keys(touchngo ?? [:])
            return k
        }
    }

    /// A store file others may read.
    struct Exposed: UserFacingError {
        let path: String
        var message: String { "\(path) can be read by other users: cardscan does not use keys others may read" }
        var hint: String? { "chmod 600 \(path)" }
    }

    /// The keys of `file`: a key file, or a dump whose sector trailers hold them.
    static func keys(of file: String) throws -> ClassicKeys {
        let bytes = try TextFile.bytes(file)
        if let format = DumpFormat.detect(bytes),
            format != .metrodroid || String(decoding: bytes.prefix(4096), as: UTF8.self).contains("\"mifareClassic\"")
        {
            let result = try DumpImport.images(bytes, file: file, format: format)
            guard case .classic(let image)? = result.images.first else { throw DumpError(file: file, reason: "not a MIFARE Classic dump") }
            let c = try image.contents()
            var keys = ClassicKeys(uid: c.uid)
            for (n, s) in c.sectors.enumerated() {
                guard let s else { continue }
                var sk = ClassicKeys.SectorKeys()
                if let a = s.keyA { sk.a = [a] }
                if let b = s.keyB { sk.b = [b] }
                if !sk.a.isEmpty || !sk.b.isEmpty { keys.sectors[n] = sk }
            }
            return keys
        }
        return try ClassicKeys.parse(bytes, file: file)
    }

    /// Every stored import, by file name.
    static func load() throws -> [(name: String, stored: Stored)] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let path = directory + "/" + name
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & 0o077 != 0 { throw Exposed(path: path) }
            let stored = try JSONDecoder().decode(Stored.self, from: Data(try TextFile.bytes(path)))
            return (name, stored)
        }
    }

    /// Writes `keys` as a new store file, mode 0600, named after the card or the source.
    static func add(_ keys: ClassicKeys, source: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stem = keys.uid.map { "card-" + $0.compactHex } ?? URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        var path = directory + "/" + stem + ".json"
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = directory + "/\(stem)-\(n).json"
            n += 1
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(Stored(keys, source: source))
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        if let code = TextFile.writeAll(bytes: Array(data) + [0x0A], to: fd) {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code))])
        }
        return path
    }

    /// A key as `keys list` shows it: the first and last byte, the rest `..`.
    static func masked(_ key: [UInt8]) -> String {
        guard key.count == 6 else { return "..." }
        return [key[0]].hexString + " .. .. .. .. " + [key[5]].hexString
    }
}
