/// The trip log: which answer holds the records, how to decode each, which to skip.
public struct TripSpec: Sendable {
    /// `from`: the answer whose records are trips.
    public var from: String
    /// `layout`: decode the records with this layout instead of their step's (the purse file's
    /// last refill, read with its own layout).
    public var layout: String?
    /// `fields`: the trip's keys, in order.
    public var fields: [Profile.NamedField]
    /// `skip.unused`: skip records whose bytes are all 00 or all FF (unused slots).
    public var skipUnused: Bool = true
    /// `skip.zero`: skip a record when every one of these fields decodes to zero.
    public var skipZero: [String] = []
    /// Kinds whose `amount` is a credit (positive); others are charges (negative).
    /// Empty: `amount` is taken as already signed.
    public var creditKinds: [String] = []
    /// `called`: what the text report calls the log's entries (`trips`, `payments`, …).
    public var called = "trips"
    /// `order`: the order trips are reported in (default `as-read`).
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
    /// `pair`: a tap-on and the tap-off after it, one trip (``TripPairing``).
    public var pair: TripPairing?
    /// `dol`: the records are laid out by a data object list the card gives (EMV's log
    /// format `9F4F`): each record is its values in list order, read by `tag` fields.
    public var dol: ValueReference?
    /// Where in the file it is written (`trips`, `trips.more[0]`), for messages.
    public var path = "trips"
    /// The line it is written at, for problems found after parsing.
    public var line: Int

    /// `order`: the order trips are reported in.
    public enum Order: String, Sendable, CaseIterable {
        /// As the card gave the records (the default).
        case asRead = "as-read"
        /// The card's order, reversed.
        case reverse
        /// Sorted by `time`, newest first.
        case byTime = "by-time"
    }
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
    /// `layout: NAME`: the records' layout instead of their step's.
    public var layout: String?
    /// Choose each record's layout by a value of its list entry.
    public var layoutBy: LayoutChoice?
    /// `fields`: the contract's keys, in order.
    public var fields: [Profile.NamedField]
    /// More contracts from other answers, each with its own layout and fields, listed after
    /// these (`more`: HSL's period passes beside its value ticket).
    public var more: [ContractSpec] = []
    /// Where in the file it is written (`contracts`, `contracts.more[0]`), for messages.
    public var path = "contracts"
    /// The line it is written at, for problems found after parsing.
    public var line: Int

    /// `list: { from: best, repeat: entries, pointer: pointer }`: the answer `from`, decoded by
    /// its layout, has a repeat `repeat` whose copies each hold `pointer`, a record number
    /// (1 = the first record) of the contracts' answer. Fields read an entry's values as
    /// `entry.NAME`.
    public struct List: Sendable {
        /// `from`: the answer holding the list (bit-packed: its step has a layout).
        public var from: String
        /// `repeat`: the repeat of that layout whose copies are the entries.
        public var repeatName: String
        /// `pointer`: the value of an entry holding its record number (1 = the first).
        public var pointer: String
    }

    /// `layout: { by: entry.tariff, bit-range: 4-11, cases: { 0xFF: contract-ff }, otherwise: contract }`.
    public struct LayoutChoice: Sendable {
        /// `by`: the list entry's value that chooses, written `entry.NAME`.
        public var field: String
        /// `bit-range`: choose by these bits of it (bit 0 the least significant).
        public var bitRange: ClosedRange<Int>?
        /// `cases`: layout names by value.
        public var cases: [Int: String]
        /// `otherwise`: the layout when no case holds the value; nil: none.
        public var otherwise: String?
    }
}

/// `trips.pair`: a trip's tap-on and its tap-off, two records on the card, become one trip.
/// In time order, a row whose `kind` is one of `first` and the row after it, one of `second`,
/// pair when they agree on every field of `same` and, with `within`, are at most that many
/// minutes apart. The trip is the first row with `endTime` (the second's `time`) and
/// `endStation` (its `station`), its `amount` the two amounts added (a fare charged at the tap-on,
/// its unused part given back at the tap-off) or, with `amount: second`, the second's. Rows that
/// do not pair stay as they are.
public struct TripPairing: Sendable, Equatable {
    /// `first`: the kinds a trip's first row has (a tap-on).
    public var first: [String]
    /// `second`: the kinds its second row has (a tap-off).
    public var second: [String]
    /// `same`: fields both rows must give, equal (a journey number, a mode).
    public var same: [String] = []
    /// `within`: at most this many minutes between them.
    public var within: Int?
    /// `amount: second`: the trip's amount is the second row's (a check-in holds a deposit the
    /// check-out settles: the OV-chipkaart, Gautrain), not the two added.
    public var amountFromSecond = false
    /// A pairing of `first` rows with the `second` rows after them.
    public init(first: [String], second: [String]) {
        self.first = first
        self.second = second
    }
}
