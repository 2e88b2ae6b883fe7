import CardReports
import Testing

/// What the text report calls a value whose profile gives no `label`: its name in words.
@Suite struct FieldLabelTests {
    @Test(arguments: [
        ("numberBase", "Number base"), ("pinTriesLeft", "PIN tries left"), ("lastOnlineAtc", "Last online ATC"),
        ("balanceAfter", "Balance after"), ("transferUntil", "Transfer until"), ("saleDate", "Sale date"), ("idm", "IDm"),
        ("aid", "AID"), ("maxBalance", "Max balance"), ("perPaymentLimit", "Per payment limit"), ("zones", "Zones"),
        ("valueA", "Value a"), ("area-type", "Area type"), ("route2", "Route 2"), ("SAM", "SAM"), ("cardType", "Card type"),
    ])
    func aNameInWords(_ name: String, _ words: String) {
        #expect(FieldLabel.words(name) == words)
    }

    /// A profile's `label` wins; places without one fall back to the words.
    @Test func aProfileLabelWins() {
        var r = CardReport(profile: "x", name: "X", currency: "EUR")
        r.labels = ["card.stored": "Stored (raw)"]
        #expect(r.label("card.stored") == "Stored (raw)")
        #expect(r.label("trips.balanceAfter") == "Balance after")
        #expect(r.label("contracts.tariff") == "Tariff")
    }
}
