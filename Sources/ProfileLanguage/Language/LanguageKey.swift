/// One key of the profile language: where it may be written, what kind of value it takes,
/// what it means, and an example. ``LanguageKeys/all`` holds every key; the parser takes the
/// allowed keys of each place from it, and `make schema` writes the JSON Schema
/// (`profiles/profile.schema.json`) and the key tables of docs/profile-format.md from it.
public struct LanguageKey: Sendable {
    /// The key as written in a profile (`read-records`, `bit-range`).
    public let name: String
    /// Where it may be written.
    public let place: Place
    /// What kind of value it takes.
    public let value: ValueKind
    /// What it means, in a sentence or two (the docs' and the JSON Schema's description).
    public let meaning: String
    /// An example of its value, as written in YAML; empty when there is none.
    public let example: String
    /// Whether the key must be given (marked required in the docs and the JSON Schema).
    public let required: Bool

    /// The key `name`, written at `place`, taking a `value`, with its `meaning` and an `example`.
    public init(_ name: String, _ place: Place, _ value: ValueKind, required: Bool = false, _ meaning: String, example: String = "") {
        self.name = name
        self.place = place
        self.value = value
        self.meaning = meaning
        self.example = example
        self.required = required
    }

    /// The places a key can be written: each mapping of the language is one.
    public enum Place: String, Sendable, CaseIterable {
        /// The profile's top level.
        case profile
        /// `detect`: how the card is recognised.
        case detect
        /// A `detect.require` check on an answer.
        case check
        /// A step, with the keys every step has.
        case step
        /// A step's `select`.
        case select
        /// A step's `read-binary`.
        case readBinary = "read-binary"
        /// A step's `read-record`.
        case readRecord = "read-record"
        /// A step's `read-records`.
        case readRecords = "read-records"
        /// A FeliCa step's `poll`.
        case poll
        /// A FeliCa step's `read-blocks`.
        case readBlocks = "read-blocks"
        /// A DESFire step's `desfire-read`.
        case desfireRead = "desfire-read"
        /// An Ultralight step's `read-pages`.
        case readPages = "read-pages"
        /// A Classic step's `read-sector`.
        case readSector = "read-sector"
        /// `read-sector`'s `sector` chosen by a byte of an earlier answer.
        case sectorChoice = "sector-choice"
        /// A Classic step's `ndef-record`.
        case ndefRecord = "ndef-record"
        /// A step's `for-each`.
        case forEach = "for-each"
        /// A step's `records`: how its answer is cut into records.
        case records
        /// A `records.keep` check: which records are kept.
        case recordCheck = "record-check"
        /// A step's `copies`: an answer holding two copies written in turn.
        case copies
        /// `copies`' `counter` given in bits.
        case copyCounter = "copy-counter"
        /// A `command` step's `continue`: asking again for more.
        case `continue`
        /// A `command` step's `data`: the values a card's data object list asks for.
        case data
        /// `read-records`' `transaction-number`.
        case transactionNumber = "transaction-number"
        /// A value reference written as a mapping.
        case reference
        /// A field.
        case field
        /// A field's `when`.
        case condition
        /// `zone-by`: the zone a byte of an answer names.
        case zoneBy = "zone-by"
        /// A field's `negative-if`: a byte that holds the value's sign.
        case negativeIf = "negative-if"
        /// A field's `clock-shift`.
        case clockShift = "clock-shift"
        /// A named type (`types`).
        case type
        /// A layout element.
        case element
        /// A `choose` element's case.
        case choiceCase = "case"
        /// A layout changed from another (`extends`, `replace`).
        case layoutChange = "layout-change"
        /// `trips`.
        case trips
        /// A `trips.more` source.
        case tripSource = "trip-source"
        /// `trips.skip`.
        case tripSkip = "trip-skip"
        /// `trips.pair`: a tap-on and its tap-off as one trip.
        case tripPair = "trip-pair"
        /// `contracts`.
        case contracts
        /// A `contracts.more` source.
        case contractSource = "contract-source"
        /// `contracts.list`.
        case contractList = "contract-list"
        /// `contracts.layout`, when it chooses the layout by a list entry's value.
        case contractLayout = "contract-layout"
        /// An entry of `variants`.
        case variant
        /// An entry of `commands`: a read command the profile declares.
        case command
        /// A `terminal` value given as a number.
        case terminalNumber = "terminal-number"
        /// A layout file's top level (`layouts/NAME.yaml`).
        case layoutFile = "layout-file"
        /// A type file's top level (`types/*.yaml`).
        case typesFile = "types-file"
        /// A lookup table file's top level (`tables/NAME.yaml`).
        case tableFile = "table-file"

        /// How the docs name the place (a section of docs/profile-format.md).
        public var title: String {
            switch self {
            case .profile: return "Top level"
            case .detect: return "`detect`"
            case .check: return "`detect.require` checks"
            case .step: return "Steps"
            case .select, .readBinary, .readRecord, .readRecords, .poll, .readBlocks, .desfireRead, .readPages, .readSector, .ndefRecord,
                .forEach:
                return "`\(rawValue)`"
            case .sectorChoice: return "`read-sector`'s `sector` chosen by a byte"
            case .records: return "A step's `records`"
            case .recordCheck: return "`records`' `keep` checks"
            case .copies: return "A step's `copies`"
            case .copyCounter: return "`copies`' `counter` in bits"
            case .continue: return "A `command` step's `continue`"
            case .data: return "A `command` step's `data`"
            case .transactionNumber: return "`read-records`' `transaction-number`"
            case .reference: return "Value references"
            case .field: return "Fields"
            case .condition: return "A field's `when`"
            case .zoneBy: return "`zone-by`"
            case .negativeIf: return "A field's `negative-if`"
            case .clockShift: return "A field's `clock-shift`"
            case .type: return "Types"
            case .element: return "Layout elements"
            case .choiceCase: return "A `choose` element's cases"
            case .layoutChange: return "A layout changed from another"
            case .trips: return "`trips`"
            case .tripSource: return "`trips.more` sources"
            case .tripSkip: return "`trips.skip`"
            case .tripPair: return "`trips.pair`"
            case .contracts: return "`contracts`"
            case .contractSource: return "`contracts.more` sources"
            case .contractList: return "`contracts.list`"
            case .contractLayout: return "`contracts.layout`"
            case .variant: return "`variants`"
            case .command: return "`commands`"
            case .terminalNumber: return "`terminal` numbers"
            case .layoutFile: return "Layout files"
            case .typesFile: return "Type files"
            case .tableFile: return "Table files"
            }
        }
    }

    /// What a key's value is: enough to check it, to write its JSON Schema and to document it.
    public indirect enum ValueKind: Sendable {
        /// Any text.
        case text
        /// A name of the profile's own (a step's answer, a field, a layout): letters, digits, `-`, `_`.
        case name
        /// A whole number, decimal or `0x` hex, within the range.
        case integer(ClosedRange<Int>)
        /// `true` or `false` (`yes` and `no` too).
        case boolean
        /// Bytes in hex (`A0 00 00`, `A00000`), of a byte count within the range.
        case hex(ClosedRange<Int>)
        /// A BER-TLV tag in hex (`5A`, `9F4D`).
        case tag
        /// One of these words.
        case choice([String])
        /// A date, `YYYY-MM-DD`.
        case date
        /// A date, `YYYY-MM-DD`, or the name of a card or `let` value that is one.
        case dateOrName
        /// A UTC offset (`+08:00`) or a time zone name (`Europe/Paris`).
        case zone
        /// Bits of a value, `LOW-HIGH`, bit 0 the least significant.
        case bitRange
        /// A number, a range `0-2`, or a list of them.
        case values
        /// A number or a text: a constant.
        case scalar
        /// A value reference: an answer name, `ANSWER:TAG/PATH`, or a mapping (place ``Place/reference``).
        case reference
        /// A number within the range, or a value reference giving it.
        case numberOrReference(ClosedRange<Int>)
        /// A number within the range, or a mapping of the place.
        case numberOr(ClosedRange<Int>, Place)
        /// A number in the range, or the one word given (`record: last`).
        case numberOrWord(ClosedRange<Int>, String)
        /// A mapping whose keys are listed at the place.
        case mapping(Place)
        /// A list of values of the kind.
        case list(ValueKind)
        /// One value of the kind, or a list of them.
        case oneOrList(ValueKind)
        /// A mapping from names (or codes) the profile chooses to values of the kind.
        case named(ValueKind)
        /// A code map: numbers (decimal or 0x) to words.
        case codeMap
        /// A list of steps.
        case steps
        /// A list of layout elements, or a change of another layout (place ``Place/layoutChange``).
        case layout
        /// A list of layout elements (place ``Place/element``).
        case elements
        /// Text, or a mapping of the place (a terminal value: a word or bytes, or a number).
        case textOr(Place)
        /// A field, or a name: `{ … }` or a mapping (place ``Place/field``).
        case field
    }
}
