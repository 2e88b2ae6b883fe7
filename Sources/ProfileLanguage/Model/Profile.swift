import APDU

/// A card profile: everything cardscan needs to recognise and read one kind of card,
/// loaded from a data file (docs/profile-format.md). Nothing here sends bytes.
public struct Profile: Sendable {
    public var id: String
    public var name: String
    public var region: String?
    /// ISO 4217 code of the purse.
    public var currency: String
    public var technology: Technology
    public var detect: Detection
    public var steps: [Step]
    /// Report `card` keys, in file order.
    public var card: [NamedField]
    public var balance: FieldSpec?
    public var trips: TripSpec?
    /// `name-from: KEY`: the report's `name` is the value of that `card` field when it has one
    /// (Intercode: the network's name), else `name`.
    public var nameFrom: String?
    /// Passes and products (report `contracts`).
    public var contracts: ContractSpec?
    /// Sentences every report of this profile carries in `notes` (`report-notes`): what a
    /// reader of the report must know about what the card shows (ORCA's stale balance; a
    /// card that keeps nothing else readable without a key).
    public var reportNotes: [String] = []
    /// Members of a card family told apart by the services only their issuer creates
    /// (FeliCa: Suica, PASMO, ICOCA … share system 0003). Empty: the report keeps `name`.
    public var variants: [Variant] = []
    /// The classes ISO 7816 commands are sent with, in order of preference: a card that
    /// answers `6E 00` (class not supported) is asked again in the next, and that class is kept
    /// for the rest of the read (Calypso: `[0x00, 0x94]`). Commands written out in a `command`
    /// step keep their own class unless it is 00.
    public var classes: [UInt8] = [0x00]
    /// Bit-packed record layouts by name (docs/profile-format.md §Bit-packed records); a
    /// step's `layout` decodes its answer (or each record) with one.
    public var layouts: [String: BitLayout] = [:]
    /// Read commands the profile declares itself (`commands`), sent only once the user has
    /// trusted the file (``TrustedProfiles``).
    public var commands: [CommandPolicy.Entry] = []
    /// The values a terminal gives a card that asks for data in a DOL (`terminal`, by tag;
    /// a tag not listed gets zeros), for `dol` steps (EMV's GET PROCESSING OPTIONS).
    public var terminal: [TLVTag: TerminalValue] = [:]
    /// Where the profile came from (file path, or `built-in:NAME`).
    public var source: String

    /// Every step, those under a `for-each` too, in file order.
    public var allSteps: [Step] {
        guard steps.contains(where: { if case .each = $0.action { return true } else { return false } }) else { return steps }
        return steps.flatMap { s -> [Step] in
            if case .each(let e) = s.action { return [s] + e.steps }
            return [s]
        }
    }

    /// The `for-each` step, when the profile has one.
    public var eachStep: EachStep? {
        for s in steps { if case .each(let e) = s.action { return e } }
        return nil
    }

    public enum Technology: String, Sendable, CaseIterable {
        case iso7816, felica, desfire

        /// The card technology a profile of this kind reads: DESFire commands travel in
        /// ISO 7816-4 APDUs, so a DESFire profile is tried on ISO 7816 cards.
        public var carrier: Technology { self == .desfire ? .iso7816 : self }
    }

    /// The answer of step `name` as its layout decodes it (bytes reversed first when the step
    /// says so); nil when the step has no layout.
    /// With `until`, only as far as that value.
    public func decode(_ bytes: [UInt8], of name: String, until: String? = nil) -> BitLayout.Decoded? {
        guard let step = allSteps.first(where: { $0.name == name }), let layout = step.layout.flatMap({ layouts[$0] }) else { return nil }
        return layout.decode(step.reverseBytes ? bytes.reversed() : bytes, until: until)
    }

    /// One member of the family: its name, and services whose presence on the card marks it.
    /// The card is asked which exist (Request Service, JIS X 6319-4 §7.4.3: key version FFFF
    /// means "no such node"); exactly one variant with a service present names the card.
    public struct Variant: Sendable {
        public var name: String
        public var services: [UInt16]
        public var line: Int
    }

    public struct NamedField: Sendable {
        public var name: String
        public var spec: FieldSpec
        public init(name: String, spec: FieldSpec) {
            self.name = name
            self.spec = spec
        }
    }

    /// Cheap recognition: ATR patterns rank the profile first; `require` checks bytes
    /// already read; `order` breaks ties (lower first).
    public struct Detection: Sendable {
        public var atr: [[UInt8?]] = []
        public var require: [Requirement] = []
        public var order: Int = 100
        /// Index of the last step detection needs (computed at load time; -1: none).
        public var lastStep: Int = 0
    }

    /// `answer[offset…] & mask == equals`; with `equals` empty, the step must have succeeded.
    /// With `field`: the value the answer's layout decoded, `& fieldMask == fieldValue`
    /// (Calypso: the environment's network id chooses the network's profile).
    public struct Requirement: Sendable {
        public var answer: String
        public var offset: Int
        public var equals: [UInt8]
        public var mask: [UInt8]?
        public var field: String?
        public var fieldValue: UInt64 = 0
        public var fieldMask: UInt64?
        /// Check record N of a records answer (1 = the first the card gave).
        public var record: Int?
        public var line: Int
    }
}

/// One step of a profile: a command (or a loop of them) whose answer gets a name.
public struct Step: Sendable {
    public var name: String
    public var action: Action
    /// Status words (besides 9000) that end this step normally (e.g. 6A83 for records).
    public var end: [StatusWord]
    /// When the card answers an error, the answer is absent instead of the read failing.
    public var optional: Bool
    /// Take this step's answer from a BER-TLV object of an earlier answer when it is there
    /// (e.g. EF 0x15 inside the FCI at `app:6F/A5/9F0C`), and send nothing.
    public var useIfPresent: (answer: String, tlvPath: TLVPath)?
    /// The ``BitLayout`` (by name) that decodes this step's answer, or each of its records.
    public var layout: String?
    /// Reverse the bytes of the answer (or of each record) before any field reads it (Opal
    /// stores its record least significant byte first).
    public var reverseBytes = false
    /// `continue: { unit: 16, times: 1 }`: after a `command` step's answer, send the command
    /// again with its one data byte set to the records received so far (bytes ÷ unit), and
    /// append the answer; at most `times` times, ending early on an error or an empty answer
    /// (CEPAS history: the first answer holds the newest 15 records, the next starts there).
    public var continuation: (unit: Int, times: Int)?
    /// `record-size`: how a DESFire `read: records` step splits the records (with `read: auto`
    /// the file's settings say it).
    public var recordSizeHint: Int?
    /// `copies: { size: 48, sequence: 0 }`: the answer holds two copies of `size` bytes, each
    /// with a sequence byte at `sequence`; the newer (the later by serial-number arithmetic
    /// mod 256, RFC 1982; a tie keeps the first) becomes the answer. Cards that write a record
    /// alternately to two places, so a torn write leaves the other intact (Tampere).
    public var copies: (size: Int, sequenceOffset: Int)?
    /// `slots: { offset: 4, length: 12, count: 3 }`: records packed in one answer — `count`
    /// of `length` bytes from `offset` — become a records answer (contracts, trips).
    public var slots: (offset: Int, length: Int, count: Int)?
    /// `only-if: REF`: sent only when an earlier answer holds that value (EMV's log format is
    /// asked for only when the card has a log entry `9F4D`); otherwise its answer is absent
    /// and nothing is sent.
    public var onlyIf: ValueReference?
    public var line: Int

    /// What the step sends, in its technology's terms: one ``StepRunner`` per technology
    /// runs its own kind of step, and a new technology adds a case here and a runner.
    public enum Action: Sendable {
        case iso7816(ISO7816Step)
        case felica(FeliCaStep)
        case desfire(DESFireStep)
        /// Steps run once for each entry of a list an earlier answer holds (``EachStep``).
        case each(EachStep)

        public var technology: Profile.Technology {
            switch self {
            case .iso7816, .each: return .iso7816
            case .felica: return .felica
            case .desfire: return .desfire
            }
        }
    }

    /// The byte count this step's data is known to have, for load-time bounds checks.
    public var declaredLength: Int? {
        if let slots { return slots.length }
        if let copies { return copies.size }
        switch action {
        case .iso7816(let a): return a.declaredLength
        case .felica(let a): return a.declaredLength
        case .desfire(let a): return a.declaredLength
        case .each: return nil
        }
    }

    /// Whether the answer is a list of records (read in `trips`) rather than one block of bytes.
    public var isRecords: Bool {
        if slots != nil { return true }
        switch action {
        case .iso7816(let a): return a.isRecords
        case .felica(let a): return a.isRecords
        case .desfire(let a): return a.isRecords
        case .each: return false
        }
    }
}

extension Step {
    /// The answer as the profile reads it: the newer of two `copies`, cut into `slots`.
    package func shaped(_ answer: Answer) -> Answer {
        guard copies != nil || slots != nil, case .data(var d) = answer else { return answer }
        if let c = copies, d.count >= 2 * c.size, c.sequenceOffset < c.size {
            let first = d[c.sequenceOffset], second = d[c.size + c.sequenceOffset]
            let secondIsNewer = first &- second > 0x80  // serial-number arithmetic mod 256
            d = Array(d[(secondIsNewer ? c.size : 0)..<(secondIsNewer ? 2 * c.size : c.size)])
        }
        guard let s = slots else { return .data(d) }
        var records: [[UInt8]] = []
        for i in 0..<s.count {
            let start = s.offset + i * s.length
            guard start + s.length <= d.count else { break }
            records.append(Array(d[start..<(start + s.length)]))
        }
        return .records(records)
    }
}

/// An ISO 7816 step: one command APDU, the first of several SELECTs the card accepts, or a
/// loop of READ RECORDs.
public enum ISO7816Step: Sendable {
    /// One command. `retryLength`: a READ RECORD whose Le-00 answer comes back empty is asked
    /// again with this Le (some Calypso cards, docs/cards/calypso.md).
    case command(CommandAPDU, retryLength: Int? = nil)
    /// SELECTs tried in order until one succeeds (DF names, then a path to fall back on).
    case select([CommandAPDU])
    case readRecords(RecordReads)
    /// READ RECORD of each range in turn (the records a file locator lists), stopping at the
    /// first the card refuses: nothing is probed that the card did not list.
    case recordRanges([RecordRange])
    /// A step built from earlier answers just before it runs (``DependentStep``).
    case dependent(DependentStep)

    public struct RecordRange: Sendable, Equatable {
        public var sfi: UInt8
        public var first: UInt8
        public var last: UInt8
    }

    /// READ RECORD `first…last` (last nil: until an `end` status), record `length` bytes (nil:
    /// Le 00); `tryAllFirst` asks for "all records from P1" once and falls back; `retryLength`
    /// as for ``command(_:retryLength:)``.
    /// Whether the step reads the current EF rather than naming its file (READ RECORD or
    /// READ BINARY without a short EF identifier, ISO/IEC 7816-4 §11.3.3, §11.4.3).
    public var readsCurrentFile: Bool {
        switch self {
        case .command(let c, _):
            if c.ins == 0xB2 || c.ins == 0xB3 { return c.p2 >> 3 == 0 }
            if c.ins == 0xB0 || c.ins == 0xB1 { return c.p1 & 0x80 == 0 }
            return false
        case .select, .recordRanges, .dependent: return false
        case .readRecords(let r): return r.sfi == nil
        }
    }

    public struct RecordReads: Sendable {
        public var sfi: UInt8?
        public var first: UInt8
        public var last: UInt8?
        public var length: Int?
        public var tryAllFirst = false
        public var retryLength: Int?
        /// `sequence: { offset, length }`: where each record keeps its transaction number
        /// (big-endian). A record numbered 1 is the card's first transaction: nothing older
        /// exists, so no READ RECORD is sent after it (PBOC's log: a card with exactly its
        /// first ten transactions costs no eleventh command).
        public var sequence: (offset: Int, length: Int)?
    }

    var declaredLength: Int? {
        switch self {
        case .command(let c, let retry): return c.ins == 0xB0 || c.ins == 0xB2 || c.cla == 0x80 ? (c.le == 256 ? retry : c.le) : nil
        case .select, .recordRanges, .dependent: return nil
        case .readRecords(let r): return r.length ?? r.retryLength
        }
    }

    var isRecords: Bool {
        switch self {
        case .readRecords, .recordRanges, .dependent(.locatedRecords), .dependent(.records): return true
        default: return false
        }
    }
}

/// A FeliCa step (JIS X 6319-4): Polling for a system, or Read Without Encryption.
public enum FeliCaStep: Sendable {
    /// Polling for a system code; the answer is IDm (8) + PMm (8) + system code (2).
    case poll(systemCode: UInt16)
    /// Read Without Encryption of `count` blocks of `service` from `first`, at most
    /// `perCommand` blocks a command; the blocks are records when `records` is set.
    case readBlocks(service: UInt16, first: UInt16, count: Int, perCommand: Int, records: Bool)

    var declaredLength: Int? {
        switch self {
        case .poll: return 18
        case .readBlocks(_, _, let count, _, let records): return records ? 16 : count * 16
        }
    }

    var isRecords: Bool { if case .readBlocks(_, _, _, _, true) = self { return true } else { return false } }
}

/// The trip log: which answer holds the records, how to decode each, which to skip.
public struct TripSpec: Sendable {
    public var from: String
    /// Split the answer into records of this many bytes (needed when `from` names a single
    /// command whose answer holds several records, e.g. CEPAS history).
    public var recordLength: Int?
    public var fields: [Profile.NamedField]
    /// Skip records whose bytes are all 00 or all FF (unused slots).
    public var skipEmpty: Bool = true
    /// Skip a record when every one of these fields decodes to zero.
    public var skipWhenZero: [String] = []
    /// Kinds whose `amount` is a credit (positive); others are charges (negative).
    /// Empty: `amount` is taken as already signed.
    public var creditKinds: [String] = []
    public var order: Order = .asRead
    /// Answers holding records that pair with `from`'s by position (`join`): record i of each
    /// joins record i of `from`, and a trip field with `from: NAME` reads it (Snapper keeps a
    /// trip's taps in one file and its fare in another).
    public var join: [String] = []
    /// More records that are trips too, each from its own answer with its own fields (`more`:
    /// Clipper's refills beside its trips). Their rows are merged with `from`'s by time, and
    /// derived fields then see the merged order (`older.balanceAfter` of a trip may be a
    /// top-up's).
    public var more: [TripSpec] = []
    /// `dol`: the records are laid out by a data object list the card gives (EMV's log
    /// format `9F4F`): each record is its values in list order, read by `tag` fields.
    public var dol: ValueReference?
    /// Where in the file it is written (`trips`, `trips.more[0]`), for messages.
    public var path = "trips"
    public var line: Int

    public enum Order: String, Sendable, CaseIterable { case asRead = "as-read", reverse, byTime = "by-time" }
}

/// The card's contracts (passes, products): which records hold them, in which order, and
/// how each becomes a report entry (docs/profile-format.md §Contracts).
///
/// Calypso keeps a *contract list* (EN 1545 "best contracts") whose entries point at contract
/// records and say which layout each record has; a counter file holds one counter per
/// contract, found by the contract's record number (`slice`).
public struct ContractSpec: Sendable {
    /// The answer whose records are the contracts.
    public var from: String
    /// Take the contracts in the order of a list's entries, each naming its record.
    public var list: List?
    /// Choose each record's layout by a value of its list entry.
    public var layoutBy: LayoutChoice?
    public var fields: [Profile.NamedField]
    /// More contracts from other answers, each with its own layout and fields, listed after
    /// these (`more`: HSL's period passes beside its value ticket).
    public var more: [ContractSpec] = []
    /// Where in the file it is written (`contracts`, `contracts.more[0]`), for messages.
    public var path = "contracts"
    public var line: Int

    /// `list: { from: best, repeat: entries, pointer: pointer }`: the answer `from`, decoded by
    /// its layout, has a repeat `repeat` whose copies each hold `pointer`, a record number
    /// (1 = the first record) of the contracts' answer. Fields read an entry's values as
    /// `entry.NAME`.
    public struct List: Sendable {
        public var from: String
        public var repeatName: String
        public var pointer: String
    }

    /// `layout: { by: entry.tariff, bits: 4-11, cases: { 0xFF: contract-ff }, default: contract }`.
    public struct LayoutChoice: Sendable {
        public var field: String
        public var bits: ClosedRange<Int>?
        public var cases: [Int: String]
        public var defaultLayout: String?
    }
}
