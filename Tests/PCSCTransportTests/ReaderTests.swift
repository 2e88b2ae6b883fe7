import APDU
import Foundation
import LabSupport
import PCSCTransport
import Synchronization
import Testing

@Suite struct ReaderSelectionTests {
    let names = ["Virtual PCD 00 00", "Virtual PCD 00 01", "ACS ACR122U 00 00"]

    @Test func byIndexNameAndSubstring() throws {
        #expect(try ReaderSelection.select("1", from: names) == "Virtual PCD 00 01")
        #expect(try ReaderSelection.select("Virtual PCD 00 00", from: names) == "Virtual PCD 00 00")
        #expect(try ReaderSelection.select("acr122", from: names) == "ACS ACR122U 00 00")
    }

    @Test func ambiguousAndMissingAreClearErrors() {
        #expect(throws: ReaderSelectionError.ambiguous("Virtual", matches: ["Virtual PCD 00 00", "Virtual PCD 00 01"])) {
            try ReaderSelection.select("Virtual", from: names)
        }
        #expect(ReaderSelectionError.ambiguous("Virtual", matches: ["A", "B"]).message == "'Virtual' matches 2 readers: A, B")
        #expect(throws: ReaderSelectionError.notFound("Gemalto", available: names)) { try ReaderSelection.select("Gemalto", from: names) }
        #expect(ReaderSelectionError.notFound("x", available: names).hint?.contains("0 Virtual PCD 00 00") == true)
        #expect(throws: ReaderSelectionError.noReaders) { try ReaderSelection.select("0", from: []) }
    }

    @Test func errorCodesMapBothWays() {
        #expect(PCSCError.Code(rawValue: 0x8010_0069) == .removedCard)
        #expect(PCSCError.Code.removedCard.name == "SCARD_W_REMOVED_CARD")
        #expect(PCSCError.Code(rawValue: 0x8010_0099) == .unknown(0x8010_0099))
        #expect(PCSCError(rawCode: 0x8010_001D, function: "SCardEstablishContext").hint?.contains("pcscd") == true)
        #expect(PCSCError(code: .removedCard, function: "SCardTransmit").failure == .removed)
        #expect(PCSCError(code: .sharingViolation, function: "SCardConnect", reader: "R 0").message.contains("R 0"))
    }
}

/// Against the real pcscd and vpcd, with cardsim as the card.
@Suite struct PCSCLabTests {
    @Test func readersAreListed() throws {
        try Lab.exclusive {
            let ctx = try PCSCContext()
            let names = try ctx.readerNames()
            #expect(names.contains("Virtual PCD 00 00") && names.contains("Virtual PCD 00 01"))
            #expect(try ReaderSelection.select("00 01", from: names) == "Virtual PCD 00 01")
            #expect(throws: ReaderSelectionError.self) { try ReaderSelection.select("Virtual", from: names) }
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { card.stop() }
            let state = try ctx.state(of: "Virtual PCD 00 00")
            #expect(state.isPresent)
            #expect(state.atr == (try Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")))
        }
    }

    /// The wire through pcscd equals a direct replay, 61 xx / GET RESPONSE included.
    @Test func cardsimThroughPCSCGivesTheSameBytesAsADirectReplay() throws {
        try Lab.exclusive {
            let path = Lab.fixture("shanghai-transit/t0-overdrawn-few-trips.apdu")
            let t = try Transcript(parsing: String(contentsOfFile: path, encoding: .utf8))
            let card = try Lab.Card(path)
            defer { card.stop() }
            let pcsc = try PCSCContext().connect(to: card.reader)
            let viaPCSC = RecordingChannel(wrapping: pcsc, recordsTimings: false)
            let direct = RecordingChannel(wrapping: ReplayChannel(t), recordsTimings: false)
            for channel in [viaPCSC, direct] {
                let x = CardExchange(channel: channel)
                let fci = try x.send(.select(aid: Hex.parse("A00000000386980701")))
                #expect(fci.statusWord == .success && fci.data.first == 0x6F)
                #expect(try x.send(.readBinary(sfi: 0x15, length: 0x1E)).data.count == 30)
                #expect(try x.send(.getBalance()).data == [0xFF, 0xFF, 0xFF, 0x06])
                #expect(x.roundTrips == 4)
            }
            #expect(viaPCSC.entries.count == 4)
            #expect(viaPCSC.entries == direct.entries)
            #expect(viaPCSC.entries[1].command == [0x00, 0xC0, 0x00, 0x00, 0x13].map { $0 })
        }
    }

    @Test func twoCardsOnTwoReadersReadInParallel() throws {
        try Lab.exclusive {
            let a = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"), slot: 0)
            let b = try Lab.Card(Lab.fixture("city-union/xian-full.apdu"), slot: 1)
            defer {
                a.stop()
                b.stop()
            }
            nonisolated(unsafe) var balances: [Int: [UInt8]] = [:]
            nonisolated(unsafe) var failures: [String] = []
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                do {
                    let card = try PCSCContext().connect(to: Lab.readers[i])
                    let x = CardExchange(channel: card)
                    var last: [UInt8] = []
                    for _ in 0..<50 {
                        _ = try x.send(.select(aid: Hex.parse("A00000000386980701")))
                        last = try x.send(.getBalance()).data
                    }
                    lock.withLock { balances[i] = last }
                } catch { lock.withLock { failures.append("\(i): \(error)") } }
            }
            #expect(failures.isEmpty, "\(failures)")
            #expect(balances[0] == [0x80, 0x00, 0x16, 0x4E])
            #expect(balances[1] == [0x00, 0x00, 0x03, 0xE8])
        }
    }

    static let tenRecords: String = {
        var lines = ["# cardscan transcript 1", "# atr: 3B 02 14 50"]
        for i in 1...10 {
            lines.append(String(format: "> 00 B2 %02X C4 04", i))
            lines.append(String(format: "< %02X %02X %02X %02X 90 00", i, i, i, i))
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// Removed at step k of a 10-APDU read: the typed "removed" error at k, k − 1 answers kept.
    @Test func cardRemovedAtEachStep() throws {
        try Lab.exclusive {
            let path = try Lab.writeTranscript(Self.tenRecords, name: "ten")
            for k in 1...10 {
                let card = try Lab.Card(path, options: ["--remove-after", String(k - 1)])
                defer { card.stop() }
                let x = CardExchange(channel: try PCSCContext().connect(to: card.reader))
                var answers: [[UInt8]] = []
                var failedAt: Int? = nil
                for i in 1...10 {
                    do { answers.append(try x.send(.readRecord(UInt8(i), sfi: 0x18, length: 4)).data) } catch let e as PCSCError {
                        #expect(e.failure == .removed, "k=\(k): \(e.message)")
                        failedAt = i
                        break
                    }
                }
                #expect(failedAt == k, "k=\(k)")
                #expect(answers.count == k - 1)
                #expect(answers.last == (k > 1 ? [UInt8](repeating: UInt8(k - 1), count: 4) : nil))
            }
        }
    }

    @Test func mutedCardTimesOut() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.tenRecordsPath(), options: ["--mute-after", "1"])
            defer { card.stop() }
            let pcsc = try PCSCContext().connect(to: card.reader)
            pcsc.transmitTimeout = .milliseconds(800)
            let x = CardExchange(channel: pcsc)
            _ = try x.send(.readRecord(1, sfi: 0x18, length: 4))
            let start = ContinuousClock.now
            #expect(throws: PCSCError(code: .timeout, function: "SCardTransmit", reader: card.reader)) {
                try x.send(.readRecord(2, sfi: 0x18, length: 4))
            }
            let took = ContinuousClock.now - start
            // Not before the timeout; the upper bound only says "not a hang" (a loaded 2-core
            // CI machine runs other tests' processes meanwhile).
            #expect(took >= .milliseconds(800) && took < .seconds(4), "\(took)")
        }
    }

    /// Another client's command to a card that stopped answering keeps pcscd's reader busy. A
    /// connection made before it still begins a transaction at once, but the wait for commands
    /// checked before the lock (SCardGetAttrib) then lasted until the card was taken away. It
    /// is bounded by the transmit time-out too, and the late call's transaction is ended.
    @Test func aCommandStuckOnAMuteCardDoesNotHangATransaction() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.tenRecordsPath(), options: ["--mute-after", "1"])
            defer { card.stop() }
            let ours = try PCSCContext().connect(to: card.reader)
            ours.transmitTimeout = .milliseconds(500)
            let other = try PCSCContext().connect(to: card.reader)
            other.transmitTimeout = .milliseconds(300)
            #expect(try other.transmit([0x00, 0xB2, 0x01, 0xC4, 0x04]) == [1, 1, 1, 1, 0x90, 0x00])
            #expect(throws: PCSCError(code: .timeout, function: "SCardTransmit", reader: card.reader)) {
                try other.transmit([0x00, 0xB2, 0x02, 0xC4, 0x04])  // pcscd goes on waiting for the card
            }
            // On a thread of its own, so that without the bound the test fails instead of hanging.
            let outcome = Mutex<Result<Void, PCSCError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let start = ContinuousClock.now
            DispatchQueue.global().async {
                let r = Result { () throws(PCSCError) in
                    do { try ours.withTransaction {} } catch let e as PCSCError { throw e } catch { Issue.record("\(error)") }
                }
                outcome.withLock { $0 = r }
                done.signal()
            }
            let returned = done.wait(timeout: .now() + .seconds(5)) == .success
            let took = ContinuousClock.now - start
            if !returned { card.stop() }  // ends the stuck command, and with it the wait
            #expect(returned, "withTransaction still waited after 5 s")
            #expect(took >= .milliseconds(500) && took < .seconds(4), "\(took)")
            if returned {
                let error = outcome.withLock { r -> PCSCError? in if case .failure(let e)? = r { return e } else { return nil } }
                #expect(error == PCSCError(code: .timeout, function: "SCardGetAttrib", reader: card.reader))
                #expect(error?.isBusyReader == true)
            }
            // Taking the card away ends the stuck command; the late call returns and is undone.
            card.stop()
            let deadline = ContinuousClock.now + .seconds(5)
            while PCSCCallsLeftRunning.count > 0, ContinuousClock.now < deadline { usleep(10_000) }
            #expect(PCSCCallsLeftRunning.count == 0)
        }
    }

    /// A transmit with a time-out runs on a worker thread; when it returns, the worker must
    /// hold no reference to the card any more. Otherwise the card's last release, and its
    /// SCardDisconnect, could happen on the worker while the program exits: libpcsclite's
    /// destructor has then freed its handle list, and the worker crashes (seen as a SIGSEGV
    /// after `cardscan apdu` had printed every answer, about once in 300 runs).
    @Test func aTimedTransmitLeavesNoReferenceBehind() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.tenRecordsPath())
            defer { card.stop() }
            var pcsc = try PCSCContext().connect(to: card.reader)
            pcsc.transmitTimeout = .seconds(5)
            var shared = 0
            for _ in 0..<1_000 {
                #expect(try pcsc.transmit([0x00, 0xB2, 0x01, 0xC4, 0x04]) == [1, 1, 1, 1, 0x90, 0x00])
                if !isKnownUniquelyReferenced(&pcsc) { shared += 1 }
            }
            #expect(shared == 0, "the worker still held the card after \(shared) of 1,000 transmits")
        }
    }

    static func tenRecordsPath() throws -> String { try Lab.writeTranscript(tenRecords, name: "ten") }

    @Test func pcscdNotRunningIsNoServiceWithAHint() throws {
        try Lab.exclusive {
            try Lab.stopPCSCD()
            defer { try? Lab.ensurePCSCD() }
            do {
                _ = try PCSCContext()
                Issue.record("a context was established without pcscd")
            } catch let error as PCSCError {
                #expect(error.code == .noService)
                #expect(error.message.contains("pcscd is not running"))
                #expect(error.hint?.contains("pcscd") == true)
            }
        }
    }

    @Test func transactionsAlwaysEnd() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.tenRecordsPath())
            defer { card.stop() }
            let pcsc = try PCSCContext().connect(to: card.reader, share: .shared)
            struct Boom: Error {}
            #expect(throws: Boom.self) { try pcsc.withTransaction { throw Boom() } }
            // A second connection can begin its own transaction: the first one ended.
            let other = try PCSCContext().connect(to: card.reader)
            #expect(try other.withTransaction { try other.transmit([0x00, 0xB2, 0x01, 0xC4, 0x04]) } == [1, 1, 1, 1, 0x90, 0x00])
        }
    }

    /// While another connection holds a transaction, pcsc-lite makes a new SCardConnect wait,
    /// and an SCardBeginTransaction or SCardReconnect of a connection made before — all
    /// forever. With a time-out they end: `connect(to:timeout:)`, and `withTransaction` and
    /// `reconnect` bounded by the transmit time-out. A transaction that begins, or a
    /// reconnection that completes, after its time-out is undone on the worker, so the reader
    /// is free for the next client.
    @Test func waitingForTheReaderTimesOutAndLeavesItFree() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Self.tenRecordsPath())
            defer { card.stop() }
            let holder = try PCSCContext().connect(to: card.reader)
            let waiter = try PCSCContext().connect(to: card.reader)
            waiter.transmitTimeout = .milliseconds(300)
            let reconnecting = try PCSCContext().connect(to: card.reader)
            reconnecting.transmitTimeout = .milliseconds(300)
            let began = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = try? holder.withTransaction {
                    began.signal()
                    release.wait()  // held until the three waits below have timed out
                }
                ended.signal()
            }
            began.wait()
            var start = ContinuousClock.now
            #expect(throws: PCSCError(code: .timeout, function: "SCardBeginTransaction", reader: card.reader)) {
                try waiter.withTransaction { Issue.record("the transaction began while another held it") }
            }
            var took = ContinuousClock.now - start
            #expect(took >= .milliseconds(300) && took < .seconds(3), "\(took)")
            start = ContinuousClock.now
            #expect(throws: PCSCError(code: .timeout, function: "SCardConnect", reader: card.reader)) {
                _ = try PCSCContext().connect(to: card.reader, timeout: .milliseconds(300))
            }
            took = ContinuousClock.now - start
            #expect(took >= .milliseconds(300) && took < .seconds(3), "\(took)")
            start = ContinuousClock.now
            #expect(throws: PCSCError(code: .timeout, function: "SCardReconnect", reader: card.reader)) {
                try reconnecting.reconnect(initialization: .leave)
            }
            took = ContinuousClock.now - start
            #expect(took >= .milliseconds(300) && took < .seconds(3), "\(took)")
            // A card given up fails at once, whatever is asked of it.
            #expect(throws: PCSCError(code: .timeout, function: "SCardBeginTransaction", reader: card.reader)) {
                try waiter.withTransaction {}
            }
            release.signal()
            ended.wait()
            holder.disconnect()
            // The three late calls return (pcsc-lite's client looks again every 100 ms) and are
            // undone: the late transaction ended, every late connection released.
            let deadline = ContinuousClock.now + .seconds(5)
            while PCSCCallsLeftRunning.count > 0, ContinuousClock.now < deadline { usleep(10_000) }
            #expect(PCSCCallsLeftRunning.count == 0)
            // So no handle is left on the reader: an exclusive connection is granted, and reads.
            let alone = try PCSCContext().connect(to: card.reader, share: .exclusive, timeout: .seconds(2))
            alone.transmitTimeout = .seconds(2)
            #expect(try alone.transmit([0x00, 0xB2, 0x01, 0xC4, 0x04]) == [1, 1, 1, 1, 0x90, 0x00])
        }
    }

    /// Clients nobody here wrote: pcsc_scan sees the ATR, scriptor gets the recorded answers.
    @Test func interoperatesWithPcscToolsClients() throws {
        try Lab.exclusive {
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { card.stop() }
            let scan = try Lab.shell(["timeout", "3", "pcsc_scan"], timeout: 10)
            #expect(scan.stdout.contains("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52"), "\(scan.stdout.prefix(400))")
            let script = NSTemporaryDirectory() + "scriptor.txt"
            try "00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00\n80 5C 00 02 04\n".write(toFile: script, atomically: true, encoding: .utf8)
            let s = try Lab.shell(["scriptor", "-r", card.reader, script], timeout: 10)
            #expect(s.stdout.contains("< 80 00 16 4E 90 00 : Normal processing."), "\(s.stdout)")
        }
    }
}

/// The event stream a watch mode builds on, against the real pcscd.
@Suite struct CardMonitorLabTests {
    @Test func insertRemoveAndAPcscdRestart() throws {
        try Lab.exclusive {
            let monitor = CardMonitor(reader: Lab.readers[0])
            #expect(monitor.next(timeout: .milliseconds(300)) == nil)  // nothing yet
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            guard case .cardPresented(let s)? = monitor.next(timeout: .seconds(5)) else {
                Issue.record("no insert event")
                return
            }
            #expect(s.name == Lab.readers[0] && s.atr.first == 0x3B)
            card.stop()
            #expect(monitor.next(timeout: .seconds(5)) == .cardRemoved(reader: Lab.readers[0]))
            try Lab.stopPCSCD()
            #expect(monitor.next(timeout: .seconds(5)) == .serviceLost)
            try Lab.ensurePCSCD()
            #expect(monitor.next(timeout: .seconds(5)) == .serviceRestored)
            let again = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { again.stop() }
            var sawCard = false
            for _ in 0..<3 {
                if case .cardPresented? = monitor.next(timeout: .seconds(5)) {
                    sawCard = true
                    break
                }
            }
            #expect(sawCard)
        }
    }
}
