import PropertyBased
import Testing

@testable import APDU

@Suite struct TranscriptTests {
    static let sample = """
        # cardscan transcript 1
        # technology: iso7816
        # atr: 3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52
        # reader: Virtual PCD 00 00
        # x-custom: kept
        > 00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00
        < 61 0A
        > 00 C0 00 00 0A
        < 6F 08 84 06 A0 00 00 00 03 86 90 00
        > 80:5c:00:02:04
        < 0000164E9000  # 0.9 ms
        > 00 20 00 81 04 .. .. .. ..
        < 90 00
        > 00 B2 01 C4 17
        ! removed

        """

    @Test func parsesHeadersAndExchanges() throws {
        let t = try Transcript(parsing: Self.sample, file: "s.apdu")
        #expect(t.headers.map(\.key) == ["technology", "atr", "reader", "x-custom"])
        #expect(t[header: "x-custom"] == "kept")
        #expect(t.atr?.count == 16)
        #expect(t.entries.count == 5)
        #expect(t.entries[2].outcome == .response([0, 0, 0x16, 0x4E, 0x90, 0]))
        #expect(t.entries[2].comment == "0.9 ms")
        #expect(t.entries[2].line == 10)
        #expect(t.entries[3].command == [0x00, 0x20, 0x00, 0x81, 0x04, nil, nil, nil, nil])
        #expect(t.entries[4].outcome == .failure(.removed))
    }

    @Test(arguments: [
        ("# cardscan transcript 1\n> 00 A4\n> 00 B0\n< 90 00\n", 2, "command has no answer"),
        ("# cardscan transcript 1\n< 90 00\n", 2, "answer without a command"),
        ("# cardscan transcript 1\n> 00 A\n", 2, "odd number of hex digits"),
        ("# cardscan transcript 1\n> 00 A4\n< 9G 00\n", 3, "'G' is not hex"),
        ("# cardscan transcript 1\n> 00 A4\n< .. 00\n", 3, "'..' and '/' hide an answer's data, never its status word"),
        ("# cardscan transcript 1\n> 00 A4\n< 01 90/0F 00\n", 3, "'..' and '/' hide an answer's data, never its status word"),
        ("# cardscan transcript 1\n> 00 A4\n< 48/0F 90 00\n", 3, "48/0F: the hidden bits must be 0 in the byte"),
        ("# cardscan transcript 1\n> 00 A4\n< 48/00 90 00\n", 3, "write a byte with none hidden as HH"),
        ("# cardscan transcript 1\n> 00 A4\n< 00/FF 90 00\n", 3, "a wholly hidden one as '..'"),
        ("# cardscan transcript 1\n> 00 A4\n< 48/ 90 00\n", 3, "'/' needs the hidden bits after it"),
        ("# cardscan transcript 1\n> 00 A4\n! exploded\n", 3, "unknown event"),
        ("# cardscan transcript 2\n", 1, "unsupported transcript version"),
        ("> 00 A4\n< 90 00\n", 1, "the first line must be"),
        ("# cardscan transcript 1\n\n* 00\n", 3, "must start with"),
        ("# cardscan transcript 1\n> 00 A4 04 00\n", 2, "at the end of the file"),
    ])
    func errorsNameTheLine(_ text: String, _ line: Int, _ words: String) {
        do {
            _ = try Transcript(parsing: text, file: "bad.apdu")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.hasPrefix("bad.apdu:\(line):"))
            #expect(error.reason.contains(words), "\(error.reason)")
        }
    }

    /// Every prefix of a transcript either parses (to at most the whole file's exchanges) or
    /// gives an error naming a line of that prefix.
    @Test func dripFedTranscriptParsesOrNamesALine() throws {
        let text = Array(Self.sample.utf8)
        let whole = try Transcript(parsing: Self.sample).entries.count
        for n in 0..<text.count {
            let prefix = String(decoding: text.prefix(n), as: UTF8.self)
            do {
                #expect(try Transcript(parsing: prefix).entries.count <= whole)
            } catch {
                let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(error.line >= 1 && error.line <= max(lines, 1), "line \(error.line) of \(lines): \(error.reason)")
            }
        }
    }

    /// Random text either parses to a transcript that writes out and parses back to the same
    /// exchanges, or gives an error naming a line.
    @Test func randomTextParsesBackOrNamesALine() async {
        let alphabet = Array("><!# .:0123456789ABCDEFG\nremovd")
        await propertyCheck(count: 1000, input: Gen<Int>.int(in: 0...(alphabet.count - 1)).array(of: 0...80)) { picks in
            let text = "# cardscan transcript 1\n" + String(picks.map { alphabet[$0] })
            do {
                let t = try Transcript(parsing: text)
                let again = try Transcript(parsing: t.serialized())
                #expect(
                    again.entries.map(\.command) == t.entries.map(\.command) && again.entries.map(\.outcome) == t.entries.map(\.outcome))
            } catch let error as TranscriptError {
                #expect(error.line >= 1 && error.line <= text.split(separator: "\n", omittingEmptySubsequences: false).count)
            } catch {
                Issue.record("an untyped error: \(error)")
            }
        }
    }

    @Test func serializedTextParsesBackToTheSameTranscript() throws {
        let t = try Transcript(parsing: Self.sample)
        let again = try Transcript(parsing: t.serialized())
        #expect(again.headers == t.headers)
        #expect(again.entries.map(\.command) == t.entries.map(\.command))
        #expect(again.entries.map(\.outcome) == t.entries.map(\.outcome))
    }

    @Test func strictReplayFailsWithLineAndBothByteStrings() throws {
        let replay = ReplayChannel(try Transcript(parsing: Self.sample), file: "s.apdu")
        _ = try replay.transmit(Hex.parse("00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"))
        do {
            _ = try replay.transmit(Hex.parse("00 C0 00 00 0B"))
            Issue.record("divergence accepted")
        } catch let e as ReplayChannel.Mismatch {
            #expect(e == .differs(file: "s.apdu", line: 8, expected: "00 C0 00 00 0A", actual: [0, 0xC0, 0, 0, 0x0B]))
            #expect(e.message.contains("s.apdu:8: replay diverged"))
        }
    }

    @Test func strictReplayThroughTheExchangeLayerReplaysT0AndFailures() throws {
        let replay = ReplayChannel(try Transcript(parsing: Self.sample))
        let exchange = CardExchange(channel: replay)
        let fci = try exchange.send(.select(aid: Hex.parse("A00000000386980701")))
        #expect(fci.data.count == 10 && fci.statusWord == .success)
        #expect(try exchange.send(.getBalance()).data == [0, 0, 0x16, 0x4E])
        #expect(try exchange.send(.verify(reference: 0x81, pin: Array("1234".utf8))).statusWord == .success)
        #expect(throws: ReplayedTransportFailure(failure: .removed, line: 14)) {
            try exchange.send(.readRecord(1, sfi: 0x18, length: 0x17))
        }
        #expect(exchange.roundTrips == 5)
        #expect(replay.remaining == 0)
        #expect(throws: ReplayChannel.Mismatch.self) { try exchange.send(.getBalance()) }
    }

    @Test func lenientReplayAnswersOutOfOrderAndUnknownWith6D00() throws {
        let replay = ReplayChannel(try Transcript(parsing: Self.sample), mode: .lenient)
        #expect(try replay.transmit(Hex.parse("80 5C 00 02 04")) == [0, 0, 0x16, 0x4E, 0x90, 0])
        #expect(try replay.transmit(Hex.parse("00 C0 00 00 0A")).suffix(2) == [0x90, 0])
        #expect(try replay.transmit(Hex.parse("00 84 00 00 08")) == [0x6D, 0x00])
        #expect(try replay.transmit(Hex.parse("00 20 00 81 04 39 39 39 39")) == [0x90, 0x00])
        #expect(try replay.transmit(Hex.parse("80 5C 00 02 04")) == [0, 0, 0x16, 0x4E, 0x90, 0])
    }

    /// Record a strict replay of a file and the file comes back byte for byte, secrets as `..`.
    @Test func recordingAReplayReproducesTheFile() throws {
        let file = """
            # cardscan transcript 1
            # technology: iso7816
            # atr: 3B 02 14 50
            > 00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00
            < 61 02
            > 00 C0 00 00 02
            < 6F 00 90 00
            > 00 20 00 81 04 .. .. .. ..
            < 63 C2
            > 80 5C 00 02 04
            ! removed

            """
        let t = try Transcript(parsing: file)
        let recorder = RecordingChannel(wrapping: ReplayChannel(t), recordsTimings: false)
        let exchange = CardExchange(channel: recorder)
        _ = try exchange.send(.select(aid: Hex.parse("A00000000386980701")))
        #expect(try exchange.send(.verify(reference: 0x81, pin: Array("1234".utf8))).statusWord.retriesRemaining == 2)
        #expect(throws: ReplayedTransportFailure.self) { try exchange.send(.getBalance()) }
        #expect(recorder.transcript(headers: t.headers).serialized() == file)
    }

    /// `..` hides a whole answer byte, `HH/MM` the bits MM of one (a personal value packed in
    /// bits beside others): both replay as 0 and are kept as hidden, and the text comes back.
    @Test func hiddenBytesAndBitsParseAndWriteBack() throws {
        let file = "# cardscan transcript 1\n> 00 B2 01 3C 00\n< 24 48/07 .. .. 00/F8 04 90 00\n"
        let t = try Transcript(parsing: file, file: "t.apdu")
        #expect(t.entries[0].outcome == .response([0x24, 0x48, 0, 0, 0x00, 0x04, 0x90, 0x00]))
        #expect(t.entries[0].hidden == [2, 3] && t.entries[0].hiddenBits == [1: 0x07, 4: 0xF8])
        #expect(t.entries[0].hiddenMasks == [1: 0x07, 2: 0xFF, 3: 0xFF, 4: 0xF8])
        #expect(t.serialized() == file)
    }

    /// Hiding bits of a recorded answer zeroes them in the kept transcript, as its file holds
    /// them, and never touches the status word.
    @Test func aRecordingHidesTheBitsItIsTold() throws {
        let recorder = RecordingChannel(wrapping: ScriptedChannel(["24 4C C8 A8 04 90 00"]), recordsTimings: false)
        _ = try recorder.transmit([0x00, 0xB2, 0x01, 0x3C, 0x00])
        recorder.hide([0: [1: 0x07, 2: 0xFF, 3: 0xF8, 5: 0xFF]])
        #expect(recorder.answers[0] == [0x24, 0x4C, 0xC8, 0xA8, 0x04, 0x90, 0x00])  // what the card said, for finding more
        let text = recorder.transcript(headers: []).serialized()
        #expect(text.hasSuffix("< 24 48/07 .. 00/F8 04 90 00\n"), "\(text)")
    }

    @Test func recordingKeepsSecretsWhenAsked() throws {
        let recorder = RecordingChannel(wrapping: ScriptedChannel(["90 00"]), redactSecrets: false, recordsTimings: false)
        _ = try recorder.transmit(CommandAPDU.verify(reference: 1, pin: [0x31]).encoded())
        #expect(recorder.entries[0].command == [0x00, 0x20, 0x00, 0x01, 0x01, 0x31])
    }

    @Test func timingFormat() {
        #expect(formatMilliseconds(.microseconds(900)) == "0.9 ms")
        #expect(formatMilliseconds(.microseconds(44_000)) == "44 ms")
        #expect(formatMilliseconds(.microseconds(2_340)) == "2.3 ms")
    }
}
