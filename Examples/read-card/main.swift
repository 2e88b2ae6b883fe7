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
if let number = report.card.number { print("Number: \(number)") }
if let balance = report.balance { print("Balance: \(balance)") }  // Money: ¥57.10
for trip in report.trips {  // newest first
    let when = trip.time?.description ?? "?"  // 2024-03-05T08:30:15+08:00, or a date alone
    let amount = trip.amount?.description ?? ""  // -¥3.00
    print("  \(when)  \(trip.kind ?? "")  \(amount)  \(trip.station ?? "")")
}
for contract in report.contracts {
    print("  \(contract.name ?? "contract") valid until \(contract.validUntil?.description ?? "?")")
}
