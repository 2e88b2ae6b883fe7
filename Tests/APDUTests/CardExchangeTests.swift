import Testing

@testable import APDU

@Suite struct CardExchangeTests {
    @Test func getResponseLoopJoinsData() throws {
        let channel = ScriptedChannel(["61 32", String(repeating: "AA ", count: 0x32) + "61 02", "BB CC 90 00"])
        let exchange = CardExchange(channel: channel)
        let r = try exchange.send(.select(aid: Hex.parse("A00000000386980701")))
        #expect(channel.sent[1] == [0x00, 0xC0, 0x00, 0x00, 0x32])
        #expect(channel.sent[2] == [0x00, 0xC0, 0x00, 0x00, 0x02])
        #expect(r.data == [UInt8](repeating: 0xAA, count: 0x32) + [0xBB, 0xCC])
        #expect(r.statusWord == .success)
        #expect(exchange.roundTrips == 3)
    }

    @Test func wrongLengthResendsOnceWithLe() throws {
        let channel = ScriptedChannel(["6C 1E", String(repeating: "01 ", count: 0x1E) + "90 00"])
        let exchange = CardExchange(channel: channel)
        let r = try exchange.send(.readBinary(sfi: 0x15, length: 256))
        #expect(channel.sent == [[0x00, 0xB0, 0x95, 0x00, 0x00], [0x00, 0xB0, 0x95, 0x00, 0x1E]])
        #expect(r.data.count == 0x1E)
        #expect(exchange.roundTrips == 2)
    }

    @Test func extendedLeShrinksOnResend() throws {
        let channel = ScriptedChannel(["6C 10", "90 00"])
        _ = try CardExchange(channel: channel).send(CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, le: 1000))
        #expect(channel.sent[1] == [0x00, 0xB0, 0x00, 0x00, 0x10])
    }

    @Test func t0HandlingCanBeTurnedOff() throws {
        let channel = ScriptedChannel(["61 10"])
        let exchange = CardExchange(channel: channel, handlesT0: false)
        let r = try exchange.send(.getBalance())
        #expect(r.statusWord == StatusWord(0x6110))
        #expect(exchange.roundTrips == 1)
    }

    @Test func observerSeesEachWireExchange() throws {
        let channel = ScriptedChannel(["61 02", "01 02 90 00"])
        let exchange = CardExchange(channel: channel)
        var seen: [String] = []
        exchange.observer = { seen.append("\($0.command.hexString) -> \($0.response?.hexString ?? "-")") }
        _ = try exchange.send(.getBalance())
        #expect(seen == ["80 5C 00 02 04 -> 61 02", "00 C0 00 00 02 -> 01 02 90 00"])
    }

    @Test func shortAnswerIsAnError() {
        let exchange = CardExchange(channel: ScriptedChannel(["90"]))
        #expect(throws: CardExchange.Error.responseTooShort(command: [0x80, 0x5C, 0x00, 0x02, 0x04], length: 1)) {
            try exchange.send(.getBalance())
        }
    }

    @Test func endlessGetResponseStops() {
        let exchange = CardExchange(channel: ScriptedChannel(Array(repeating: "61 01", count: 100)))
        exchange.maximumGetResponseRounds = 5
        #expect(throws: CardExchange.Error.endlessGetResponse(command: [0x80, 0x5C, 0x00, 0x02, 0x04])) {
            try exchange.send(.getBalance())
        }
        #expect(exchange.roundTrips == 6)
    }

    /// docs/reliability.md §Limits: a card answering `61 FF` forever meets the default bound,
    /// 64 GET RESPONSEs after the command.
    @Test func sixtyOneFFForeverStopsAtTheDefaultBound() {
        let channel = ScriptedChannel(Array(repeating: "61 FF", count: 200))
        let exchange = CardExchange(channel: channel)
        #expect(throws: CardExchange.Error.endlessGetResponse(command: [0x80, 0x5C, 0x00, 0x02, 0x04])) {
            try exchange.send(.getBalance())
        }
        #expect(exchange.roundTrips == 65 && channel.sent.last == [0x00, 0xC0, 0x00, 0x00, 0xFF])
    }

    /// A card that answers `6C xx` to the re-send too: one re-send only, and its answer is
    /// returned as it is (the caller sees 6C, no loop).
    @Test func sixtyCOnEveryResendIsSentOnce() throws {
        let channel = ScriptedChannel(["6C 1E", "6C 10", "90 00"])
        let exchange = CardExchange(channel: channel)
        let r = try exchange.send(.readBinary(sfi: 0x15, length: 256))
        #expect(r.statusWord == StatusWord(0x6C10) && r.data.isEmpty)
        #expect(channel.sent == [[0x00, 0xB0, 0x95, 0x00, 0x00], [0x00, 0xB0, 0x95, 0x00, 0x1E]])
        #expect(exchange.roundTrips == 2)
    }
}
