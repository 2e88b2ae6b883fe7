// Reads a transcript exactly as docs/library.md shows, and prints the report as JSON.
import APDU
import CardProfiles
import CardReading
import Foundation

guard CommandLine.arguments.count == 2 else {
    print("usage: read-transcript FILE.apdu")
    exit(64)
}
let file = CommandLine.arguments[1]
let transcript = try Transcript(parsing: try TextFile.read(file), file: file)
let (card, _) = try TranscriptReplay.connection(transcript, file: file)
let outcome = CardReader(registry: .standard()).read(card)
guard let report = outcome.report else {
    print("error: \(outcome.error?.message ?? "nothing read")")
    exit(76)
}
print(report.json.serialized(pretty: true))
