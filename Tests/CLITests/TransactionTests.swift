import APDU
import CardProfiles
import CardReading
import Foundation
import LabSupport
import PCSCTransport
import Testing

/// Every profile read over PC/SC runs inside one PC/SC transaction: a second real client on
/// the same reader (pyscard, selecting another application in a loop, with no transaction)
/// cannot slip its SELECT between cardscan's SELECT and the reads that depend on it. The
/// card is a multi-application card (`cardsim --multi-app`): a foreign SELECT really does
/// leave the transit application, and reads then answer 6A 82.
@Suite(.serialized) struct TransactionTests {
    static let transcript = Lab.fixture("shanghai-transit/full-read.apdu")

    /// Starts the rival client; returns a function that stops it and gives (answered, refused).
    func startRival(seconds: Int = 120) throws -> () -> (Int, Int) {
        let tag = UUID().uuidString
        let stop = NSTemporaryDirectory() + "rival-stop-\(tag)", count = NSTemporaryDirectory() + "rival-count-\(tag)"
        let log = open(NSTemporaryDirectory() + "rival-\(tag).log", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(log) }
        let rival = try Subprocess(
            ["/usr/bin/python3", Lab.root + "/Tests/LabSupport/rival_client.py", Lab.readers[0], stop, count, String(seconds)],
            environment: Lab.childEnvironment(), stdout: log, stderr: log)
        return {
            #expect(FileManager.default.createFile(atPath: stop, contents: nil), "could not tell the rival to stop: \(stop)")
            _ = rival.wait(timeout: 10)
            defer {
                try? FileManager.default.removeItem(atPath: stop)
                try? FileManager.default.removeItem(atPath: count)
            }
            let numbers = ((try? String(contentsOfFile: count, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : (-1, -1)
        }
    }

    /// 100 reads by the cardscan binary while the rival selects away: every one complete and
    /// equal to the recorded card's expected report.
    @Test func aSecondClientCannotBreakARead() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.transcript, options: ["--multi-app"])
            defer { card.stop() }
            let expected = try JSONValue(parsing: TextFile.read(Lab.fixture("shanghai-transit/full-read.expected.json")))
            let stopRival = try startRival()
            var good = 0
            var failures: [String] = []
            let start = Date()
            for _ in 0..<100 {
                let r = try Lab.cardscan(["--profile", "shanghai-transit", "--json", "--timeout", "5"])
                let diffs = (try? JSONValue(parsing: r.stdout)).map { ReportDiff.compare(expected: expected, actual: $0) }
                if r.status == 0, diffs?.isEmpty == true {
                    good += 1
                } else if failures.count < 3 {
                    failures.append("\(r.status) \(r.stderr)")
                }
            }
            let seconds = Date().timeIntervalSince(start)
            let (answered, refused) = stopRival()
            print(
                "transaction test: \(good)/100 reads correct in \(String(format: "%.1f", seconds)) s; rival SELECTs answered \(answered), refused during cardscan's transactions \(refused)"
            )
            #expect(good == 100, "\(failures)")
            #expect(answered > 100, "the rival client did not really run (answered \(answered))")
        }
    }

    /// The control: the same reads through the library without a transaction do break, so
    /// the test above can fail.
    @Test func withoutATransactionTheRivalBreaksReads() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.transcript, options: ["--multi-app"])
            defer { card.stop() }
            let registry = ProfileRegistry(directories: [.init(path: Lab.root + "/profiles", isBuiltIn: true)])
            let profile = try registry.resolve("shanghai-transit")
            let stopRival = try startRival()
            var broken = 0
            for _ in 0..<100 {
                let pcsc = try PCSCContext().connect(to: Lab.readers[0])
                let plain = CardConnection(card: .iso7816(.init(atr: pcsc.atr)), channel: pcsc, reader: pcsc.reader, atr: pcsc.atr)
                let outcome = CardReader(registry: registry, profile: profile).read(plain)
                if outcome.error != nil || outcome.report?.trips.count != 10 { broken += 1 }
                pcsc.disconnect()
            }
            let (answered, _) = stopRival()
            print("without a transaction: \(broken)/100 reads broken by the rival (\(answered) rival SELECTs answered)")
            #expect(broken > 0)
        }
    }

    /// A card that goes silent mid-read: `--apdu-timeout` ends the read (exit 74, the partial
    /// report printed) although it runs inside a transaction, whose end must not wait for the
    /// blocked transmit.
    @Test func aSilentCardEndsTheReadInsideItsTransaction() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.transcript, options: ["--mute-after", "3"])
            defer { card.stop() }
            let start = Date()
            let r = try Lab.cardscan(["--profile", "shanghai-transit", "--json", "--timeout", "5", "--apdu-timeout", "1"], timeout: 20)
            let took = Date().timeIntervalSince(start)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stdout.contains("\"partial\": true"), "\(r.stdout)")
            #expect(took < 5, "took \(took) s")
        }
    }
}
