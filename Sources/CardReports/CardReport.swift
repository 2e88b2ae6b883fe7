import ProfileLanguage

/// What a read found, typed: the card's values, its balance, its trips (newest first), its
/// contracts; and what the read could not say (`partial`, `warnings`, `hidden`, `redacted`).
/// ``json`` writes it as the JSON report of docs/report.md (a fixed contract).
public struct CardReport: Equatable, Sendable {
    /// The id of the profile that read the card (`profile`).
    public var profile: String
    /// The card's name (`name`): the profile's, the matching variant's (`variants`), or a card
    /// value's (`name-from`).
    public var name: String
    /// The card's own values (`card`), in the order the profile lists them.
    public var card = CardFields()
    /// What the card holds, in the currency's minor unit.
    public var balance: Money?
    /// The card's currency (ISO 4217): the balance's, and the trips' unless a trip says its own.
    public var currency: String
    /// Newest first.
    public var trips: [Trip] = []
    /// Each application a card's directory listed (a `for-each` read): its card fields. The
    /// first is also `card`.
    public var applications: [CardFields] = []
    /// Fields shown masked (a PAN's middle digits): also in `hidden`; `--show-pan` shows them.
    public var masked: [String] = []
    /// Passes and products, when the profile reads them.
    public var contracts: [Contract] = []
    /// The reports of the card's other applications, each read by its own profile (a dual
    /// card: PASMO beside Edy, a transit purse beside a payment application). This report is
    /// the first found; its `exchanges` count the whole read, theirs their own.
    public var otherApplications: [CardReport] = []
    /// What a reader of the report must know about what the card shows (the profile's
    /// `report-notes`): a balance the operator no longer keeps on the card, a card that keeps
    /// nothing else readable without a key.
    public var notes: [String] = []
    /// Command/response round trips with the card (`exchanges`), GET RESPONSE and detection
    /// probes included.
    public var exchanges = 0
    /// The read stopped early (`partial`): the report holds what was read before.
    public var partial = false
    /// MIFARE Classic sectors the profile reads that were not read because no key the user
    /// has opened them (`locked`): what they hold is not in the report.
    public var locked: [Int] = []
    /// Fields the card held that could not be decoded: left out of the report, named here.
    public var warnings: [ReportWarning] = []
    /// Personal data the card holds that the report leaves out (`card.holderName`), shown
    /// only when the user asks (`--show-personal`).
    public var hidden: [String] = []
    /// Records left out of `trips` and why (`--trace` prints them); not part of the JSON.
    public var skipped: [String] = []
    /// Values a replay could not give because the recording hid bytes they come from
    /// (`card.birthDate`): left out of the report (or, for a masked number, kept masked).
    public var redacted: [String] = []
    /// What the text report calls a value whose profile gives it a `label`, by its place
    /// (`card.maxBalance`, `trips.balanceAfter`, `contracts.tariff`); not part of the JSON.
    public var labels: [String: String] = [:]
    /// What the text report calls the trips (`trips`, `transactions`, `payments`, `events`:
    /// the profile's `trips.called`); nil when the profile reads no log. Not part of the JSON.
    public var tripsCalled: String? = "trips"
    /// The bytes values were decoded from, when the builder was asked to note them
    /// (``ReportBuilder/collects``); not part of the JSON.
    public var fieldBytes: [FieldBytes] = []

    /// A report by profile `profile` (its id), named `name`, in `currency`, with nothing read yet.
    public init(profile: String, name: String, currency: String) {
        self.profile = profile
        self.name = name
        self.currency = currency
    }

    public static func == (a: CardReport, b: CardReport) -> Bool { a.json == b.json }

    /// The JSON report (docs/report.md): keys in the contract's order; `contracts`,
    /// `applications`, `notes`, `warnings`, `hidden`, `redacted` and `otherApplications` only
    /// when not empty.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("profile", .string(profile)),
            ("name", .string(name)),
            ("card", card.json),
        ]
        pairs.append(
            ("balance", balance.map { .object([("amount", .int($0.minorUnits)), ("currency", .string($0.currency))]) } ?? .null))
        pairs.append(("trips", .array(trips.map(\.json))))
        if !contracts.isEmpty { pairs.append(("contracts", .array(contracts.map(\.json)))) }
        if !applications.isEmpty { pairs.append(("applications", .array(applications.map(\.json)))) }
        if !notes.isEmpty { pairs.append(("notes", .array(notes.map { .string($0) }))) }
        pairs.append(("exchanges", .int(exchanges)))
        pairs.append(("partial", .bool(partial)))
        if !locked.isEmpty { pairs.append(("locked", .array(locked.map { .int($0) }))) }
        if !warnings.isEmpty {
            pairs.append(("warnings", .array(warnings.map { .object([("field", .string($0.field)), ("reason", .string($0.reason))]) })))
        }
        if !hidden.isEmpty { pairs.append(("hidden", .array(hidden.map { .string($0) }))) }
        if !redacted.isEmpty { pairs.append(("redacted", .array(redacted.map { .string($0) }))) }
        if !otherApplications.isEmpty { pairs.append(("otherApplications", .array(otherApplications.map(\.json)))) }
        return .object(pairs)
    }
}

/// A field left out of a report because the card's bytes did not decode: which field
/// (`card.number`, `balance`, `trips[3].time`) and why.
public struct ReportWarning: Hashable, Sendable, CustomStringConvertible {
    /// The report path of the field left out (`card.NAME`, `balance`, `trips[N].NAME`,
    /// `contracts[N].NAME`), or `trips` when the records themselves do not split.
    public var field: String
    /// Why the bytes did not decode.
    public var reason: String
    /// A warning that `field` was left out for `reason`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String { "\(field): \(reason)" }
}
