import APDU

/// A FeliCa card described by its contents (docs/felica.md §Card images): what
/// `cardscan felica --image` writes and `cardsim` serves. One Codable document, so writer and
/// reader cannot drift apart:
///
/// ```json
/// { "technology": "felica", "idm": "01 2E 4C D0 1A 2B 3C 4D", "pmm": "03 01 4B 02 4F 49 93 FF",
///   "systems": [ { "code": "0003", "areas": ["0000 FFFE"], "services": { "008B": ["…16 bytes…"] } } ] }
/// ```
///
/// Hex is kept as text in the document; ``contents()`` checks it and gives bytes.
public struct FeliCaCardImage: Codable, Equatable, Sendable {
    /// `felica` (what the file is: cardsim also serves ISO 7816 transcripts).
    public var technology: String?
    /// Free text about the image; optional, not read by ``contents()``.
    public var note: String?
    /// The IDm as hex, 8 bytes; system n answers with n in the upper nibble of byte 0.
    public var idm: String
    /// The PMm as hex, 8 bytes.
    public var pmm: String
    /// The card's systems, 1 to 16, in system-number order (the first is system 0).
    public var systems: [System]

    /// One system: its code, its areas, and its services with their blocks.
    public struct System: Codable, Equatable, Sendable {
        /// The system code, 2 bytes of hex (`0003`).
        public var code: String
        /// Areas as `CODE END` (`0040 07FF`), when known.
        public var areas: [String]?
        /// Service code (2 bytes of hex) → its blocks (16 bytes each); no blocks: a service
        /// that exists but gave none (it needs a key).
        public var services: [String: [String]]?

        /// A system from its code, areas and services, hex as text.
        public init(code: String, areas: [String]? = nil, services: [String: [String]]) {
            self.code = code
            self.areas = areas
            self.services = services
        }
    }

    /// An image from bytes: IDm and PMm are written as hex, `technology` as `felica`.
    public init(note: String? = nil, idm: [UInt8], pmm: [UInt8], systems: [System]) {
        technology = "felica"
        self.note = note
        self.idm = idm.hexString
        self.pmm = pmm.hexString
        self.systems = systems
    }

    /// What is wrong with an image (the file is named by whoever read it).
    public struct Invalid: UserFacingError, Equatable {
        /// What is wrong (`idm must be hex of 8 bytes`).
        public let reason: String
        /// An error with that reason.
        public init(reason: String) { self.reason = reason }
        public var message: String { reason }
        public var hint: String? { "see docs/felica.md for the card image format" }
    }

    /// The checked contents, in bytes.
    public struct Contents: Sendable {
        /// One system, checked.
        public struct System: Sendable {
            /// The system code.
            public var code: UInt16
            /// The areas: each its area code and end code.
            public var areas: [(code: UInt16, end: UInt16)]
            /// Service code → its blocks, 16 bytes each (none: a service that gave no blocks).
            public var services: [UInt16: [[UInt8]]]
        }
        /// The IDm, 8 bytes.
        public var idm: [UInt8]
        /// The PMm, 8 bytes.
        public var pmm: [UInt8]
        /// The systems, 1 to 16, in system-number order.
        public var systems: [System]
    }

    /// Checks every hex field: IDm and PMm 8 bytes, at least one system, codes 2 bytes,
    /// areas 4 bytes, blocks 16 bytes.
    public func contents() throws(Invalid) -> Contents {
        func hex(_ s: String, _ what: String, count: Int) throws(Invalid) -> [UInt8] {
            guard let b = try? Hex.parse(s), b.count == count else { throw Invalid(reason: "\(what) must be hex of \(count) bytes") }
            return b
        }
        func u16(_ b: [UInt8]) -> UInt16 { UInt16(b[0]) << 8 | UInt16(b[1]) }
        let idmBytes = try hex(idm, "idm", count: 8)
        let pmmBytes = try hex(pmm, "pmm", count: 8)
        guard !systems.isEmpty else { throw Invalid(reason: "systems must be a non-empty list") }
        // IDm's upper nibble numbers a card's systems (§2.3.1): 16 at most.
        guard systems.count <= 16 else { throw Invalid(reason: "systems lists \(systems.count); a card has at most 16") }
        var out: [Contents.System] = []
        for s in systems {
            let code = u16(try hex(s.code, "system code", count: 2))
            var services: [UInt16: [[UInt8]]] = [:]
            for (k, blocks) in s.services ?? [:] {
                let sc = u16(try hex(k, "service code \(k)", count: 2))
                var bytes: [[UInt8]] = []
                for b in blocks { bytes.append(try hex(b, "a block of service \(k)", count: 16)) }
                services[sc] = bytes
            }
            var areas: [(UInt16, UInt16)] = []
            for a in s.areas ?? [] {
                let b = try hex(a, "an area (code and end, e.g. \"0040 07FF\")", count: 4)
                areas.append((u16(Array(b[0..<2])), u16(Array(b[2..<4]))))
            }
            out.append(.init(code: code, areas: areas, services: services))
        }
        return Contents(idm: idmBytes, pmm: pmmBytes, systems: out)
    }
}
