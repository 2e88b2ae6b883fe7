import CardReports

/// What tells one card from another in the history: the profile and the first of the card's
/// identifying values the report has — its printed number, a payment card's PAN (masked, with
/// its expiry), a FeliCa IDm, a UID, a serial. Two reads of one card give the same key.
public enum CardKey {
    /// The card values that identify a card, in the order they are looked for.
    static let identifying = ["number", "pan", "idm", "uid", "serial", "asn"]

    /// `shanghai-transit:305419896`, `emv:476173******0010/2028-05`; the profile alone when
    /// the report holds none of the identifying values (every such card is one card then).
    public static func of(_ report: CardReport) -> String {
        for name in identifying {
            guard let value = report.card[name]?.description, !value.isEmpty else { continue }
            if name == "pan", let expiry = report.card["expiry"]?.description { return "\(report.profile):\(value)/\(expiry)" }
            return "\(report.profile):\(value)"
        }
        return report.profile + ":"
    }

    /// The value shown as the card's number in the history: the number, else the first
    /// identifying value.
    public static func number(of report: CardReport) -> String? {
        identifying.lazy.compactMap { report.card[$0]?.description }.first
    }
}

/// What makes two trips of one card the same trip, seen in two reads: its time, its amount,
/// and the card's own sequence number, terminal or station where the trip has one; its kind
/// tells a top-up from a fare at the same moment.
public enum TripIdentity {
    static let distinguishing = ["time", "kind", "amount", "sequence", "terminal", "station", "machine", "device", "validator"]

    /// `time=2024-03-05T08:30:15+08:00|kind=purchase|amount=-300|sequence=12|terminal=110111000001`.
    public static func of(_ trip: Trip) -> String {
        distinguishing.compactMap { k in trip[k].map { "\(k)=\($0.description)" } }.joined(separator: "|")
    }
}
