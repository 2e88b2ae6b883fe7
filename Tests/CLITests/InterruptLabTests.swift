import Foundation
import LabSupport
import Testing

/// Ctrl-C during `--record`, through the real pcscd: the read stops at its next command, the
/// report of what was read is printed, the transcript is written with `! error: interrupted`
/// last (the personal data in it hidden, as in any recording), and cardscan exits 130.
@Suite struct InterruptLabTests {
    @Test func ctrlCKeepsWhatWasRead() throws {
        try Lab.exclusive {
            // 300 ms an answer: the interrupt comes after about 8 commands of Navigo's 11.
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/navigo-image.json", options: ["--latency-ms", "300"])
            defer { card.stop() }
            let file = NSTemporaryDirectory() + "interrupted-\(UUID().uuidString).apdu"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Lab.shell([
                "/bin/sh", "-c",
                "\"$CARDSCAN_BIN/cardscan\" --record '\(file)' --timeout 5 & pid=$!; sleep 2.5; kill -INT $pid; wait $pid; echo \"exit $?\"",
            ])
            #expect(r.stdout.hasSuffix("exit 130\n"), "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.hasPrefix("Navigo (Île-de-France)  (navigo)  [partial read]"), "\(r.stdout)")
            #expect(r.stderr.contains("error: the read was interrupted (Ctrl-C): what was read before is kept"), "\(r.stderr)")
            let transcript = try String(contentsOfFile: file, encoding: .utf8)
            let lines = transcript.split(separator: "\n")
            #expect(lines.last == "! error: interrupted", "\(transcript)")
            #expect(lines.count > 12, "the exchanges before the interrupt are kept")
            let replay = try Lab.cardscan(["replay", file, "--show-personal"])
            #expect(replay.status == 74, "\(replay.stderr)")
            #expect(replay.stderr.contains("the read was interrupted (Ctrl-C) when it was recorded"), "\(replay.stderr)")
            #expect(!replay.stdout.contains("1990-02-15"), "the birth date is not kept in the recording")
        }
    }

    /// Ctrl-C while cardscan waits for a card ends it at once, exit 130.
    @Test func ctrlCWhileWaitingEndsAtOnce() throws {
        try Lab.exclusive {
            let r = try Lab.shell([
                "/bin/sh", "-c", "\"$CARDSCAN_BIN/cardscan\" --timeout 30 & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo \"exit $?\"",
            ])
            #expect(r.stdout.hasSuffix("exit 130\n"), "\(r.stdout)\(r.stderr)")
        }
    }
}
