import APDU

/// A card profile: everything cardscan needs to recognise and read one kind of card,
/// loaded from a data file (docs/profile-format.md). Nothing here sends bytes.
public struct Profile: Sendable {
    /// `id`: the profile's unique id (lower-case letters, digits and `-`).
    public var id: String
    /// `name`: the card's name, shown to users and in the report.
    public var name: String
    /// `region`: where the card is used (ISO 3166), for people.
    public var region: String?
    /// ISO 4217 code of the purse.
    public var currency: String
    /// `technology`: what the card speaks, and so which steps the profile has.
    public var technology: Technology
    /// `detect`: how the card is recognised.
    public var detect: Detection
    /// `steps`: the commands, in order.
    public var steps: [Step]
    /// Report `card` keys, in file order.
    public var card: [NamedField]
    /// Private fields (`let`): worked out like card fields for other fields to use, never
    /// reported (Opal's number is a serial and a check digit added).
    public var privateFields: [NamedField] = []
    /// The card's time zone (`zone`): the dates and times it keeps are local time there.
    public var zone: CivilZone?
    /// `zone-by`: a card that names its region reads in that region's zone (``ZoneChoice``).
    public var zoneBy: ZoneChoice?
    /// `balance`: the purse, one field giving a number, reported in ``currency``.
    public var balance: FieldSpec?
    /// `trips`: how the trip log is read.
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

    /// What a card speaks (`technology`).
    public enum Technology: String, Sendable, CaseIterable {
        /// ISO 7816 APDUs (the default).
        case iso7816
        /// FeliCa frames.
        case felica
        /// MIFARE DESFire commands, carried in ISO 7816 APDUs.
        case desfire
        /// MIFARE Ultralight and NTAG pages (NFC Forum Type 2 tags), read with READ.
        case ultralight
        /// MIFARE Classic sectors, opened with the user's keys.
        case classic

        /// The card technology a profile of this kind reads: DESFire commands travel in
        /// ISO 7816-4 APDUs, so a DESFire profile is tried on ISO 7816 cards.
        public var carrier: Technology { self == .desfire ? .iso7816 : self }
    }

    /// The answer of step `name` as its layout decodes it (bytes reversed first when the step
    /// says the card stores them least significant first); nil when the step has no layout.
    /// With `until`, only as far as that value.
    public func decode(_ bytes: [UInt8], of name: String, until: String? = nil) -> BitLayout.Decoded? {
        guard let step = allSteps.first(where: { $0.name == name }), let layout = step.layout.flatMap({ layouts[$0] }) else { return nil }
        return layout.decode(step.reverseBytes ? bytes.reversed() : bytes, until: until)
    }

    /// One member of the family: its name, and services whose presence on the card marks it.
    /// The card is asked which exist (Request Service, JIS X 6319-4 §7.4.3: key version FFFF
    /// means "no such node"); exactly one variant with a service present names the card.
    public struct Variant: Sendable {
        /// `name`: the variant's name, which names the report.
        public var name: String
        /// `services`: FeliCa service codes only this variant's issuer creates.
        public var services: [UInt16]
        /// The variant's line, for problems found after parsing.
        public var line: Int
    }

    /// A field and its name: a `card` key, a `let` name, or a key of a trip or a contract.
    public struct NamedField: Sendable {
        /// The field's name.
        public var name: String
        /// How its value is read.
        public var spec: FieldSpec
        /// The field `name`, read as `spec` says.
        public init(name: String, spec: FieldSpec) {
            self.name = name
            self.spec = spec
        }
    }

    /// Cheap recognition: ATR patterns rank the profile first; `require` checks bytes
    /// already read; `priority` breaks ties (lower first).
    public struct Detection: Sendable {
        /// `atr`: ATR patterns, nil standing for any byte (`..`).
        public var atr: [[UInt8?]] = []
        /// `require`: checks on the answers read so far; all must hold.
        public var require: [Requirement] = []
        /// `priority`: lower is tried earlier (default 100).
        public var priority: Int = 100
        /// Index of the last step detection needs (computed at load time; -1: none).
        public var lastStep: Int = 0
    }

    /// `answer[offset…] & mask == equals`; with `equals` empty, the step must have succeeded.
    /// With `field`: the value the answer's layout decoded, `& fieldMask == fieldValue`
    /// (Calypso: the environment's network id chooses the network's profile).
    public struct Requirement: Sendable {
        /// `from`: the answer checked (a step's `as`).
        public var answer: String
        /// `offset`: where the checked bytes start (default 0).
        public var offset: Int
        /// `equals`: the bytes the answer must hold there; empty: the step must only have succeeded.
        /// With `one-of`, the first of the byte strings it allows.
        public var equals: [UInt8]
        /// `one-of`: every byte string the answer may hold there (all of `equals`' length); empty
        /// with `equals` alone.
        public var oneOf: [[UInt8]] = []
        /// `mask`: ANDed with the answer's bytes before comparing.
        public var mask: [UInt8]?
        /// `field`: a value of the answer's layout, checked instead of bytes.
        public var field: String?
        /// With `field`: the number the value must be (`equals`).
        public var fieldValue: UInt64 = 0
        /// With `field`: ANDed with the value before comparing (`mask`).
        public var fieldMask: UInt64?
        /// Check record N of a records answer (1 = the first the card gave).
        public var record: Int?
        /// `key-md5`: a MIFARE Classic answer: the key that opened its sector has one of these
        /// digests (lower-case hex MD5 of `salt` ‖ key ‖ `salt`). Empty: no such check.
        public var keyDigests: [String] = []
        /// `salt`: with `key-md5`, the text around the key.
        public var salt = ""
        /// The check's line, for problems found after parsing.
        public var line: Int
    }
}
