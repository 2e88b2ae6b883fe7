/// An ISO 7816 card described by its file system (docs/lab.md §ISO 7816 card images): what
/// `cardscan dump --image` writes and cardsim serves, the counterpart of a FeliCa card image.
/// One Codable document, so writer and reader cannot drift apart:
///
/// ```json
/// { "technology": "iso7816", "atr": "3B 8F 80 01 …", "iso14443": "b", "cla": ["00", "94"],
///   "files": [ { "fid": "0002", "sfi": 2, "records": ["00 00 …"] },
///              { "aid": "315449432E494341", "fid": "2000", "files": [ … ] } ],
///   "answers": [ { "command": "80 5C 00 02 04", "response": "00 00 2A F8 90 00" } ] }
/// ```
///
/// A node with `files` is a DF (ISO/IEC 7816-4 §7.1: `aid` is its DF name), one with
/// `records` a record EF, one with `binary` a transparent EF. The top-level `files` are the
/// MF's. Hex is kept as text in the document; ``contents()`` checks it and gives bytes.
public struct ISO7816CardImage: Codable, Equatable, Sendable {
    /// `iso7816` (what the file is: cardsim also serves FeliCa images and transcripts).
    public var technology: String
    /// Free text for people; ``contents()`` ignores it.
    public var note: String?
    /// The card's ATR, hex (2 to 33 bytes).
    public var atr: String
    /// `a` (default) or `b`: the ISO/IEC 14443 type a contactless reader sees.
    public var iso14443: String?
    /// The classes the card accepts for ISO 7816 commands (default `00` and `94`).
    public var cla: [String]?
    /// The MF's files.
    public var files: [Node]
    /// Fixed answers to proprietary commands, matched like transcript lines (`..` = any byte).
    public var answers: [FixedAnswer]?

    /// One file of the document: a DF (`files`), a record EF (`records`) or a transparent EF
    /// (`binary`); exactly one of the three is set.
    public struct Node: Codable, Equatable, Sendable {
        /// The file identifier, 2 bytes of hex (`2001`); 3F00, 3FFF and FFFF are refused.
        public var fid: String?
        /// The short EF identifier, 1…30; an EF only.
        public var sfi: Int?
        /// A DF's name (its AID), hex.
        public var aid: String?
        /// A DF's FCI as the card answers SELECT; without it a minimal `6F 84 <name>` is made.
        public var fci: String?
        /// A DF's files.
        public var files: [Node]?
        /// A record EF's records in hex, record 1 first: at most 254, each 1 to 254 bytes.
        public var records: [String]?
        /// A transparent EF's contents in hex, at most 32767 bytes.
        public var binary: String?

        /// A node with the fields given; ``ISO7816CardImage/contents()`` checks them.
        public init(
            fid: String? = nil, sfi: Int? = nil, aid: String? = nil, fci: String? = nil, files: [Node]? = nil,
            records: [String]? = nil, binary: String? = nil
        ) {
            self.fid = fid
            self.sfi = sfi
            self.aid = aid
            self.fci = fci
            self.files = files
            self.records = records
            self.binary = binary
        }
    }

    /// A fixed answer to a command, typically a proprietary one.
    public struct FixedAnswer: Codable, Equatable, Sendable {
        /// The command as a transcript pattern: hex, `..` for any byte; at least 4 bytes.
        public var command: String
        /// The whole answer in hex, status word included.
        public var response: String
        /// A fixed answer from its two texts.
        public init(command: String, response: String) {
            self.command = command
            self.response = response
        }
    }

    /// An image of these contents, bytes written as hex: `typeB` gives `iso14443` `b` (type A
    /// leaves it out), and nil `classes` leaves `cla` out (the default, `00` and `94`).
    public init(
        note: String? = nil, atr: [UInt8], typeB: Bool = false, classes: [UInt8]? = nil, files: [Node], answers: [FixedAnswer]? = nil
    ) {
        technology = "iso7816"
        self.note = note
        self.atr = atr.hexString
        iso14443 = typeB ? "b" : nil
        cla = classes.map { $0.map { [$0].hexString } }
        self.files = files
        self.answers = answers
    }

    /// What is wrong with an image (the file is named by whoever read it).
    public struct Invalid: UserFacingError, Equatable {
        /// What is wrong, after its place in the document: `files[1].sfi: 31 is outside 1…30`.
        public let reason: String
        /// A problem described by `reason`.
        public init(reason: String) { self.reason = reason }
        public var message: String { reason }
        public var hint: String? { "see docs/lab.md for the ISO 7816 card image format" }
    }

    /// The checked contents, in bytes.
    public struct Contents: Sendable {
        /// The ATR, 2 to 33 bytes.
        public var atr: [UInt8]
        /// Whether the card is ISO/IEC 14443 type B (else type A).
        public var typeB: Bool
        /// The CLA bytes the card accepts for ISO 7816 commands; never empty.
        public var classes: [UInt8]
        /// The MF, holding the image's top-level files.
        public var root: File
        /// The fixed answers: a command pattern (nil for any byte) and the whole response.
        public var answers: [(command: Transcript.Pattern, response: [UInt8])]
    }

    /// One file of the checked image.
    public struct File: Sendable {
        /// What a file is.
        public enum Kind: Sendable {
            /// A DF: its DF name (AID), the FCI the image gives for it, and its files.
            case directory(name: [UInt8]?, fci: [UInt8]?, children: [File])
            /// A record EF's records, record 1 first.
            case records([[UInt8]])
            /// A transparent EF's contents.
            case binary([UInt8])
        }
        /// The file identifier (3F00 for the MF), or nil when the image gives none.
        public var fid: UInt16?
        /// The short EF identifier (1…30); nil for a DF or when none is given.
        public var sfi: UInt8?
        /// What the file is, with its contents.
        public var kind: Kind

        /// A DF's files; empty for an EF.
        public var children: [File] {
            if case .directory(_, _, let c) = kind { return c }
            return []
        }
        /// A DF's name (AID); nil for an EF or a DF without one.
        public var dfName: [UInt8]? {
            if case .directory(let n, _, _) = kind { return n }
            return nil
        }
    }

    /// The image's contents in bytes, or ``Invalid`` naming the first thing wrong by its place
    /// in the document (`files[1].files[0].records[2]: …`).
    public func contents() throws(Invalid) -> Contents {
        func fail(_ s: String) -> Invalid { Invalid(reason: s) }
        func bytes(_ text: String, _ at: String) throws(Invalid) -> [UInt8] { try Self.hex(text, at) }
        guard technology == "iso7816" else { throw fail("technology: '\(technology)' is not iso7816") }
        let atrBytes = try bytes(atr, "atr")
        guard (2...33).contains(atrBytes.count) else { throw fail("atr: \(atrBytes.count) bytes; an ATR has 2 to 33") }
        let typeB: Bool
        switch iso14443 ?? "a" {
        case "a", "A": typeB = false
        case "b", "B": typeB = true
        case let other: throw fail("iso14443: '\(other)' is neither a nor b")
        }
        var classes: [UInt8] = []
        for (i, c) in (cla ?? ["00", "94"]).enumerated() {
            let b = try bytes(c, "cla[\(i)]")
            guard b.count == 1 else { throw fail("cla[\(i)]: '\(c)' is not one byte") }
            classes.append(b[0])
        }
        guard !classes.isEmpty else { throw fail("cla: empty; leave it out for the default 00 and 94") }

        var top: [File] = []
        for (i, n) in files.enumerated() { top.append(try Self.node(n, "files[\(i)]")) }
        try Self.checkUnique(top, "files")
        var fixed: [(Transcript.Pattern, [UInt8])] = []
        for (i, a) in (answers ?? []).enumerated() {
            let pattern: Transcript.Pattern
            do { pattern = try Transcript.parsePattern(a.command) } catch {
                throw fail("answers[\(i)].command: \(error.reason)")
            }
            guard pattern.count >= 4 else { throw fail("answers[\(i)].command: a command APDU has at least 4 bytes") }
            let r = try bytes(a.response, "answers[\(i)].response")
            guard r.count >= 2 else { throw fail("answers[\(i)].response: a response ends with a 2-byte status word") }
            fixed.append((pattern, r))
        }
        return Contents(
            atr: atrBytes, typeB: typeB, classes: classes,
            root: File(fid: 0x3F00, sfi: nil, kind: .directory(name: nil, fci: nil, children: top)), answers: fixed)
    }

    /// `text` as hex bytes, or ``Invalid`` at `at`.
    private static func hex(_ text: String, _ at: String) throws(Invalid) -> [UInt8] {
        do { return try Hex.parse(text) } catch { throw Invalid(reason: "\(at): \(error.message)") }
    }

    /// One node of the image's file tree, checked.
    private static func node(_ n: Node, _ at: String) throws(Invalid) -> File {
        var fid: UInt16? = nil
        if let f = n.fid {
            let b = try hex(f, "\(at).fid")
            guard b.count == 2 else { throw Invalid(reason: "\(at).fid: '\(f)' is not 2 bytes") }
            fid = UInt16(b[0]) << 8 | UInt16(b[1])
            guard fid != 0x3FFF, fid != 0xFFFF, fid != 0x3F00 else {
                throw Invalid(reason: "\(at).fid: \(f) is reserved (ISO/IEC 7816-4 §7.1.1: 3F00 is the MF, 3FFF and FFFF are not file ids)")
            }
        }
        if let s = n.sfi, !(1...30).contains(s) { throw Invalid(reason: "\(at).sfi: \(s) is outside 1…30") }
        let kinds = [n.files != nil, n.records != nil, n.binary != nil].filter { $0 }.count
        guard kinds == 1 else { throw Invalid(reason: "\(at): a file has exactly one of files (a DF), records or binary (an EF)") }
        if let children = n.files {
            guard n.sfi == nil else { throw Invalid(reason: "\(at).sfi: a DF has no short file identifier") }
            var name: [UInt8]? = nil
            if let a = n.aid {
                name = try hex(a, "\(at).aid")
                guard (1...16).contains(name!.count) else { throw Invalid(reason: "\(at).aid: a DF name is 1 to 16 bytes") }
            }
            let fci = try n.fci.map { t throws(Invalid) in try hex(t, "\(at).fci") }
            var files: [File] = []
            for (i, c) in children.enumerated() { files.append(try node(c, "\(at).files[\(i)]")) }
            try checkUnique(files, at)
            return File(fid: fid, sfi: nil, kind: .directory(name: name, fci: fci, children: files))
        }
        guard n.aid == nil, n.fci == nil else { throw Invalid(reason: "\(at): aid and fci belong to a DF (a node with files)") }
        if let rs = n.records {
            guard rs.count <= 254 else { throw Invalid(reason: "\(at).records: \(rs.count) records; READ RECORD numbers 1…254") }
            var records: [[UInt8]] = []
            for (i, r) in rs.enumerated() {
                let b = try hex(r, "\(at).records[\(i)]")
                guard (1...254).contains(b.count) else {
                    throw Invalid(reason: "\(at).records[\(i)]: \(b.count) bytes; a record has 1 to 254")
                }
                records.append(b)
            }
            return File(fid: fid, sfi: n.sfi.map(UInt8.init), kind: .records(records))
        }
        let b = try hex(n.binary ?? "", "\(at).binary")
        guard b.count <= 0x7FFF else { throw Invalid(reason: "\(at).binary: \(b.count) bytes; READ BINARY offsets stop at 32767") }
        return File(fid: fid, sfi: n.sfi.map(UInt8.init), kind: .binary(b))
    }

    /// Each file id and short file identifier once among the files of one DF.
    private static func checkUnique(_ files: [File], _ at: String) throws(Invalid) {
        var fids = Set<UInt16>(), sfis = Set<UInt8>()
        for f in files {
            if let x = f.fid, !fids.insert(x).inserted {
                throw Invalid(reason: "\(at): file id \([UInt8(x >> 8), UInt8(x & 0xFF)].hexString) twice")
            }
            if let s = f.sfi, !sfis.insert(s).inserted { throw Invalid(reason: "\(at): SFI \(s) twice") }
        }
    }
}
