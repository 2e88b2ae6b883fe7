import Foundation

/// `zone-by: { from, offset, zones }`: the card names its region, and its dates and times are
/// local time there (Zolotaya Korona's cards, from Samara to Kamchatka): the byte at `offset` of
/// answer `from` is looked up in `zones`; a value they lack keeps the profile's `zone`.
public struct ZoneChoice: Sendable {
    /// `from`: the answer holding the byte.
    public var answer: String
    /// `offset`: its place.
    public var offset: Int
    /// `zones`: the time zone each value names.
    public var zones: [Int: TimeZone]
    /// The zone the byte at `offset` of `answer` names.
    public init(answer: String, offset: Int, zones: [Int: TimeZone]) {
        self.answer = answer
        self.offset = offset
        self.zones = zones
    }

    /// The zone the answers name, or nil (the answer absent or short, or a value not listed).
    public func zone(in answers: Answers) -> TimeZone? {
        guard let data = answers.data(answer), offset < data.count else { return nil }
        return zones[Int(data[offset])]
    }
}

extension Profile {
    /// The profile with every date and time it reads in local time in `zone` instead of its own
    /// (``ZoneChoice``): the fields that carry the profile's zone get this one.
    public func rezoned(_ zone: TimeZone) -> Profile {
        func moved(_ spec: FieldSpec) -> FieldSpec {
            guard spec.layout.timeZone != nil || spec.layout.zoneMinutes != nil else { return spec }
            var layout = spec.layout
            layout.timeZone = zone
            layout.zoneMinutes = zone.secondsFromGMT() / 60
            return FieldSpec(layout)
        }
        func moved(_ fields: [NamedField]) -> [NamedField] { fields.map { NamedField(name: $0.name, spec: moved($0.spec)) } }
        func moved(_ t: TripSpec) -> TripSpec {
            var t = t
            t.fields = moved(t.fields)
            t.more = t.more.map(moved)
            return t
        }
        func moved(_ c: ContractSpec) -> ContractSpec {
            var c = c
            c.fields = moved(c.fields)
            c.more = c.more.map(moved)
            return c
        }
        var p = self
        p.zone = .named(zone)
        p.zoneBy = nil
        p.card = moved(card)
        p.privateFields = moved(privateFields)
        p.balance = balance.map(moved)
        p.trips = trips.map(moved)
        p.contracts = contracts.map(moved)
        return p
    }
}
