import APDU
import PCSCTransport
import Testing

/// Type 2 tag commands as PC/SC storage-card pseudo-APDUs, byte for byte.
@Suite struct PCSCType2ChannelTests {
    @Test func theUltralightPseudoATRIsType2() throws {
        #expect(PCSCType2Channel.isType2(atr: try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")))
        // MIFARE Classic 1K
        #expect(!PCSCType2Channel.isType2(atr: try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A")))
        #expect(!PCSCType2Channel.isType2(atr: try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")))  // FeliCa
    }

    @Test func readAndWriteBecomeReadAndUpdateBinary() throws {
        let page4 = "03 13 D1 01 0F 55 04 6E 66 63 2E 65 78 61 6D 70"
        let reader = try ScriptedReader(["\(page4) 90 00", "90 00", "6A 82", "63 00"])
        let t2 = PCSCType2Channel(apdus: reader)
        #expect(try t2.transmit([0x30, 0x04]) == (try Hex.parse(page4)))
        #expect(reader.sent[0] == [0xFF, 0xB0, 0x00, 0x04, 0x10])
        #expect(try t2.transmit([0xA2, 0x05, 0x01, 0x02, 0x03, 0x04]) == [])
        #expect(reader.sent[1] == [0xFF, 0xD6, 0x00, 0x05, 0x04, 0x01, 0x02, 0x03, 0x04])
        do {
            _ = try t2.transmit([0x30, 0x40])
            Issue.record("6A 82 accepted")
        } catch let e as PseudoAPDUError {
            #expect(e.message == "the reader did not pass the Type 2 READ of page 64 (the reader answered 6A 82)")
        }
        #expect(throws: PseudoAPDUError.self) { try t2.transmit([0xA2, 0x06, 0, 0, 0, 0]) }  // 63 00: not written
        #expect(throws: PseudoAPDUError.self) { try t2.transmit([0x60]) }  // not READ or WRITE
        #expect(reader.sent.count == 4)
    }
}

/// PC/SC part 3 pseudo-ATRs: standard and card name, and what cardscan makes of them.
@Suite struct PseudoATRTests {
    @Test func standardAndCardName() throws {
        let felica = try #require(PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")))
        #expect(felica.standard == 0x11 && felica.cardName == 0x003B && felica.isFeliCa && felica.cardDescription == "FeliCa")
        let acr122 = try #require(PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A")))
        #expect(acr122.isFeliCa && !acr122.isType2)
        #expect(
            PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A"))?.cardDescription == "MIFARE Classic 1K")
        #expect(PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))?.isType2 == true)
        #expect(PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 04 00 99 00 00 00 00 00"))?.cardDescription == nil)
        // A real smart card's ATR, and a truncated pseudo-ATR, are not pseudo-ATRs.
        #expect(PseudoATR(try Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")) == nil)
        #expect(PseudoATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00")) == nil)
    }
}
