// Waits for one card on any reader (or the one $CARDSCAN_READER names), reads it with cardscan's profiles,
// and prints its name, balance and trips. docs/library.md walks through it.
import CardProfiles
import CardReading
import Foundation

let readers = try PCSCReaders()  // pcscd, and the reader to use
print("Hold a card on \(try readers.chosenReader() ?? "a reader")…")
guard let card = try readers.waitForCard(timeout: .seconds(30)) else {
    print("No card within 30 s.")
    exit(75)
}
let outcome = CardReader(registry: .standard()).read(card)  // detection among all profiles
guard let report = outcome.report else {
    print("Not read: \(outcome.error?.message ?? "no profile knows this card")")
    exit(76)
}
print("\(report.name)\(report.partial ? " (partial)" : "")")
if let balance = report.money { print("Balance: \(balance)") }
for trip in report.trips {
    let fields = Dictionary(trip, uniquingKeysWith: { a, _ in a })
    let amount = fields["amount"]?.intValue.map { "\(Money(minorUnits: $0, currency: report.currency))" } ?? ""
    print("  \(fields["time"]?.description ?? "?")  \(fields["kind"]?.description ?? "")  \(amount)")
}
