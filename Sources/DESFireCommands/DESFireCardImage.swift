import APDU

/// A DESFire card as JSON, for cardsim (docs/lab.md §DESFire card images):
///
/// ```json
/// { "technology": "desfire", "uid": "04 11 22 33 44 55 66", "version": "04 01 01 01 00 18 05 …",
///   "list-locked": false,
///   "applications": [ { "aid": "3010F2", "files-locked": false, "files": [
///       { "id": 4, "type": "backup", "read": "free", "data": "…" },
///       { "id": 2, "type": "cyclic-record", "read": "free", "record-size": 48, "records": ["…"] },
///       { "id": 5, "type": "value", "read": "free", "value": 1234, "lower": 0, "upper": 100000, "limited-credit": 0 } ] } ] }
/// ```
///
/// `aid` is the 3 bytes sent after SelectApplication; `read` is `free` or `key`; `records` are
/// in the order ReadRecords (offset 0, count 0) returns them.
public struct DESFireCardImage: Codable, Sendable {
    /// `desfire` (the default); ``contents()`` refuses any other value.
    public var technology: String
    /// Free text about the image; optional, not read by ``contents()``.
    public var note: String?
    /// The ATR a PC/SC reader reports, as hex (2 to 33 bytes); when absent, the one a reader
    /// makes of the ATS (``defaultATR`` for the default ATS).
    public var atr: String?
    /// The answer to REQA, most significant byte first (by default a DESFire's: `03 44` with a
    /// 7-byte UID, `03 04` with a random 4-byte one).
    public var atqa: String?
    /// The answer to SELECT, one byte (`20`, the default: ISO 14443-4 compliant).
    public var sak: String?
    /// The answer to RATS without its length byte TL (`75 77 81 02 80`, the default: a DESFire
    /// EV1's, the bytes libfreefare recognises a DESFire by).
    public var ats: String?
    /// The card's UID as hex: 7 bytes (or 4, a random UID).
    public var uid: String
    /// GetVersion's 28-byte answer as hex (see ``DESFireVersion``).
    public var version: String
    /// Whether GetApplicationIDs needs a key (the card answers `91 AE`); false when absent.
    public var listLocked: Bool?
    /// The applications; each AID at most once, and never `000000` (the card level).
    public var applications: [Application]

    /// One application: its AID, whether its file list needs a key, and its files.
    public struct Application: Codable, Sendable {
        /// The AID as hex, the 3 bytes in the order SelectApplication sends them (`3010F2`).
        public var aid: String
        /// Whether GetFileIDs needs a key in this application (`91 AE`); false when absent.
        public var filesLocked: Bool?
        /// The application's files; each file number at most once.
        public var files: [File]

        /// An application from its AID (hex), file-list lock and files.
        public init(aid: String, filesLocked: Bool? = nil, files: [File]) {
            self.aid = aid
            self.filesLocked = filesLocked
            self.files = files
        }
        enum CodingKeys: String, CodingKey {
            case aid, files
            case filesLocked = "files-locked"
        }
    }

    /// One file: its number, type, whether reading needs a key, and the content its type
    /// calls for (`data`; `record-size` and `records`; or `value` and its limits).
    public struct File: Codable, Sendable {
        /// The file number, 0…31.
        public var id: Int
        /// `standard`, `backup`, `value`, `linear-record` or `cyclic-record`
        /// (``DESFireFileSettings/FileType/name``).
        public var type: String
        /// `free` (read access right E) or `key` (read key 1, write key 0: the card answers `91 AE`).
        public var read: String
        /// Standard and backup files: the content as hex (at most FFFFFF bytes).
        public var data: String?
        /// Record files: one record's size in bytes (1 or more).
        public var recordSize: Int?
        /// Record files: each record as hex, `recordSize` bytes, in the order ReadRecords
        /// (offset 0, count 0) returns them.
        public var records: [String]?
        /// Value files: the value, a signed 32-bit integer.
        public var value: Int?
        /// Value files: the lower limit; 0 when absent.
        public var lower: Int?
        /// Value files: the upper limit; `Int32.max` when absent.
        public var upper: Int?
        /// Value files: the limited-credit value; 0 when absent (limited credit is never enabled).
        public var limitedCredit: Int?

        /// A file with no content yet: set the fields its type needs.
        public init(id: Int, type: String, read: String) {
            self.id = id
            self.type = type
            self.read = read
        }

        enum CodingKeys: String, CodingKey {
            case id, type, read, data, records, value, lower, upper
            case recordSize = "record-size"
            case limitedCredit = "limited-credit"
        }
    }

    enum CodingKeys: String, CodingKey {
        case technology, note, atr, atqa, sak, ats, uid, version, applications
        case listLocked = "list-locked"
    }

    /// An image from its fields, hex as text; `technology` defaults to `desfire`.
    public init(
        technology: String = "desfire", note: String? = nil, atr: String? = nil, atqa: String? = nil, sak: String? = nil,
        ats: String? = nil, uid: String, version: String, listLocked: Bool? = nil, applications: [Application]
    ) {
        self.technology = technology
        self.note = note
        self.atr = atr
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.uid = uid
        self.version = version
        self.listLocked = listLocked
        self.applications = applications
    }

    /// A contactless DESFire EV1 through a PC/SC reader (PC/SC part 3: ATS historical byte 80).
    public static let defaultATR: [UInt8] = [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80]
    /// A DESFire EV1's ATQA with a 7-byte UID, `03 44`, most significant byte first (with a
    /// 4-byte random UID, the UID-size bits say single: `03 04`).
    public static let defaultATQA: [UInt8] = [0x03, 0x44]
    /// A DESFire EV1's SAK, `20`.
    public static let defaultSAK: UInt8 = 0x20
    /// A DESFire EV1's ATS without TL: FSCI 5 (64-byte frames), TA1 `77`, TB1 `81`, TC1 `02`,
    /// historical byte `80`.
    public static let defaultATS: [UInt8] = [0x75, 0x77, 0x81, 0x02, 0x80]

    /// What is wrong with an image, by its place in the document.
    public struct Invalid: UserFacingError, Equatable {
        /// What is wrong and where (`applications[0].aid: …`).
        public let reason: String
        /// An error with that reason.
        public init(reason: String) { self.reason = reason }
        public var message: String { reason }
        public var hint: String? { "see docs/lab.md for the DESFire card image format" }
    }

    /// The checked contents, in bytes.
    public struct Contents: Sendable {
        /// The ATR (made from the ATS when the image gives none).
        public var atr: [UInt8]
        /// ATQA, most significant byte first.
        public var atqa: [UInt8] = DESFireCardImage.defaultATQA
        /// SAK.
        public var sak: UInt8 = DESFireCardImage.defaultSAK
        /// ATS without TL.
        public var ats: [UInt8] = DESFireCardImage.defaultATS
        /// The UID, 7 bytes (or 4).
        public var uid: [UInt8]
        /// GetVersion's answer, parsed.
        public var version: DESFireVersion
        /// Whether GetApplicationIDs needs a key (false when the image does not say).
        public var listLocked: Bool
        /// Each application's AID, whether its file list needs a key, and its files: number,
        /// settings (plain communication) and content.
        public var applications:
            [(aid: DESFireAID, filesLocked: Bool, files: [(number: DESFireFileNumber, settings: DESFireFileSettings, content: Content)])]
    }

    /// A file's content, by kind of file.
    public enum Content: Sendable {
        /// A standard or backup data file's bytes.
        case data([UInt8])
        /// A record file's records, in the order ReadRecords (offset 0, count 0) returns them.
        case records([[UInt8]])
        /// A value file's value.
        case value(Int32)
    }

    /// The image's contents, or ``Invalid`` naming the first thing wrong (`applications[0].files[1].records[2]: …`).
    public func contents() throws(Invalid) -> Contents {
        func fail(_ s: String) -> Invalid { Invalid(reason: s) }
        func bytes(_ text: String, _ at: String) throws(Invalid) -> [UInt8] { try Self.hex(text, at) }
        guard technology == "desfire" else { throw fail("technology: '\(technology)' is not desfire") }
        let uidBytes = try bytes(uid, "uid")
        guard uidBytes.count == 7 || uidBytes.count == 4 else {
            throw fail("uid: \(uidBytes.count) bytes; a DESFire UID is 7 (or a random 4)")
        }
        let answers = try Self.answers(self, singleUID: uidBytes.count == 4)
        let atrBytes = try atr.map { a throws(Invalid) in try bytes(a, "atr") } ?? answers.atr
        guard (2...33).contains(atrBytes.count) else { throw fail("atr: \(atrBytes.count) bytes; an ATR has 2 to 33") }
        let versionBytes = try bytes(self.version, "version")
        let version: DESFireVersion
        do { version = try DESFireVersion(versionBytes) } catch { throw fail("version: \(error.message)") }
        var apps:
            [(aid: DESFireAID, filesLocked: Bool, files: [(number: DESFireFileNumber, settings: DESFireFileSettings, content: Content)])] =
                []
        for (i, app) in applications.enumerated() {
            let at = "applications[\(i)]"
            let aid: DESFireAID
            do { aid = try DESFireAID(hex: app.aid) } catch { throw fail("\(at).aid: \(error.message)") }
            guard aid != .picc else { throw fail("\(at).aid: 000000 is the card level, not an application") }
            guard !apps.contains(where: { $0.aid == aid }) else { throw fail("\(at).aid: \(aid) is listed twice") }
            var files: [(number: DESFireFileNumber, settings: DESFireFileSettings, content: Content)] = []
            for (j, f) in app.files.enumerated() {
                let fat = "\(at).files[\(j)]"
                let number: DESFireFileNumber
                do { number = try DESFireFileNumber(f.id) } catch { throw fail("\(fat).id: \(error.message)") }
                guard !files.contains(where: { $0.number == number }) else { throw fail("\(fat).id: file \(f.id) is listed twice") }
                let free: Bool
                switch f.read {
                case "free": free = true
                case "key": free = false
                default: throw fail("\(fat).read: '\(f.read)' is neither free nor key")
                }
                let (settings, content) = try Self.file(f, free: free, fat)
                files.append((number, settings, content))
            }
            apps.append((aid, app.filesLocked ?? false, files))
        }
        return Contents(
            atr: atrBytes, atqa: answers.atqa, sak: answers.sak, ats: answers.ats, uid: uidBytes, version: version,
            listLocked: listLocked ?? false, applications: apps)
    }

    /// ATQA, SAK and ATS, checked, the defaults where absent, and the ATR a reader makes of the ATS.
    private static func answers(_ image: Self, singleUID: Bool) throws(Invalid) -> (atqa: [UInt8], sak: UInt8, ats: [UInt8], atr: [UInt8]) {
        let atqa = try image.atqa.map { a throws(Invalid) in try hex(a, "atqa") } ?? (singleUID ? [0x03, 0x04] : defaultATQA)
        guard atqa.count == 2 else { throw Invalid(reason: "atqa: \(atqa.count) bytes; ATQA is 2") }
        let sak = try image.sak.map { a throws(Invalid) in try hex(a, "sak") } ?? [defaultSAK]
        guard sak.count == 1 else { throw Invalid(reason: "sak: \(sak.count) bytes; SAK is 1") }
        let ats = try image.ats.map { a throws(Invalid) in try hex(a, "ats") } ?? defaultATS
        guard ats.count < 254, let historical = ISO14443Answers.historicalBytes(ats: ats) else {
            throw Invalid(reason: "ats: \(ats.hexString) is shorter than its T0 says (T0, then the TA1, TB1 and TC1 it announces)")
        }
        return (atqa, sak[0], ats, ISO14443Answers.atr(historicalBytes: historical))
    }

    /// `text` as hex bytes, or ``Invalid`` at `at`.
    private static func hex(_ text: String, _ at: String) throws(Invalid) -> [UInt8] {
        do { return try Hex.parse(text) } catch { throw Invalid(reason: "\(at): \(error.message)") }
    }

    /// One file's settings (plain communication; free or keyed reading) and content, checked.
    private static func file(_ f: File, free: Bool, _ fat: String) throws(Invalid) -> (DESFireFileSettings, Content) {
        // Free: read E; a key: key 1 reads, key 0 writes (neither is given to anyone).
        let access = DESFireFileSettings.AccessRights(free ? 0xE0 : 0x00, free ? 0xE0 : 0x10)
        let settings: DESFireFileSettings
        let content: Content
        switch f.type {
        case "standard", "backup":
            guard let d = f.data else { throw Invalid(reason: "\(fat): a \(f.type) file needs 'data'") }
            let b = try Self.hex(d, "\(fat).data")
            guard b.count <= 0xFF_FFFF else { throw Invalid(reason: "\(fat).data: too long") }
            settings = .init(
                type: f.type == "standard" ? .standard : .backup, communication: .plain, access: access, sizes: .data(size: b.count)
            )
            content = .data(b)
        case "linear-record", "cyclic-record":
            guard let size = f.recordSize, (1...0xFF_FFFF).contains(size) else {
                throw Invalid(reason: "\(fat): a record file needs 'record-size' (1 or more)")
            }
            var list: [[UInt8]] = []
            for (k, r) in (f.records ?? []).enumerated() {
                let b = try Self.hex(r, "\(fat).records[\(k)]")
                guard b.count == size else { throw Invalid(reason: "\(fat).records[\(k)]: \(b.count) bytes, not the record size \(size)") }
                list.append(b)
            }
            settings = .init(
                type: f.type == "linear-record" ? .linearRecord : .cyclicRecord, communication: .plain, access: access,
                sizes: .records(recordSize: size, maxRecords: max(list.count, 1), currentRecords: list.count))
            content = .records(list)
        case "value":
            guard let v = f.value, let value = Int32(exactly: v) else {
                throw Invalid(reason: "\(fat): a value file needs 'value' (a 32-bit integer)")
            }
            let lower = Int32(exactly: f.lower ?? 0) ?? 0, upper = Int32(exactly: f.upper ?? Int(Int32.max)) ?? .max
            settings = .init(
                type: .value, communication: .plain, access: access,
                sizes: .value(
                    lower: lower, upper: upper, limitedCredit: Int32(exactly: f.limitedCredit ?? 0) ?? 0,
                    limitedCreditEnabled: false))
            content = .value(value)
        default:
            throw Invalid(reason: "\(fat).type: '\(f.type)' is not standard, backup, value, linear-record or cyclic-record")
        }
        return (settings, content)
    }
}
