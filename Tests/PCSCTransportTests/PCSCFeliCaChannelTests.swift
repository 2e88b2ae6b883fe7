import APDU
import FeliCaCommands
import PCSCTransport
import Testing

/// The pseudo-APDU conventions, byte for byte, against a scripted reader.
@Suite struct PCSCFeliCaChannelTests {
    static let acr1252ATR = "3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42"
    static let acr122ATR = "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A"
    static let idm = "01 2E 4C D0 1A 2B 3C 4D"

    @Test func theATRChoosesTheConvention() throws {
        #expect(PCSCFeliCaChannel.wrapping(forATR: try Hex.parse(Self.acr1252ATR)) == .direct)
        #expect(PCSCFeliCaChannel.wrapping(forATR: try Hex.parse(Self.acr122ATR)) == .pn532)
        #expect(PCSCFeliCaChannel.wrapping(forATR: try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 12 00 00 00 00 89")) == .pn532)
        // A MIFARE Classic pseudo-ATR (SS 03, name 00 01) and an ISO 7816 card are not FeliCa.
        #expect(PCSCFeliCaChannel.wrapping(forATR: try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A")) == nil)
        #expect(
            PCSCFeliCaChannel(apdus: try ScriptedReader([]), atr: try Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")) == nil)
    }

    @Test func directFramesAndPolling() throws {
        let reader = try ScriptedReader([
            "14 01 \(Self.idm) 03 01 4B 02 4F 49 93 FF 00 03 90 00",
            "0C 07 \(Self.idm) 01 A8 90 00", "63 00",
        ])
        let felica = PCSCFeliCaChannel(apdus: reader, wrapping: .direct)
        #expect(try felica.poll(systemCode: 0x0003)?.bytes == (try Hex.parse("\(Self.idm) 03 01 4B 02 4F 49 93 FF 00 03")))
        #expect(reader.sent[0] == (try Hex.parse("FF 00 00 00 06 06 00 00 03 01 00")))
        let read = try FeliCaCommand.readWithoutEncryption(
            IDm(Hex.parse(Self.idm)), services: [ServiceCode(0x090F)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 40)])
        #expect(try felica.transmit(read) == (try Hex.parse("0C 07 \(Self.idm) 01 A8")))  // the card's own error stays the card's
        #expect(reader.sent[1] == [0xFF, 0x00, 0x00, 0x00, UInt8(read.count)] + read)
        #expect(try felica.poll(systemCode: 0x8008) == nil)  // 63 00: no such system
    }

    @Test func pn532FramesAndPolling() throws {
        let reader = try ScriptedReader(["D5 41 00 12 01 \(Self.idm) 03 01 4B 02 4F 49 93 FF 90 00", "D5 41 01 90 00"])
        let felica = PCSCFeliCaChannel(apdus: reader, wrapping: .pn532)
        // RC 1 asked, but a card may leave the system code out: the requested one is reported.
        #expect(try felica.poll(systemCode: 0x0003)?.systemCode == 0x0003)
        #expect(reader.sent[0] == (try Hex.parse("FF 00 00 00 09 D4 40 01 06 00 00 03 01 00")))
        #expect(try felica.poll(systemCode: 0x8008) == nil)  // PN532 status 01: time-out
    }

    @Test func readerRefusalsAreTypedWithAHint() throws {
        let reader = try ScriptedReader(["6A 81", "D5 41 00 90 00", "90"])
        let direct = PCSCFeliCaChannel(apdus: reader, wrapping: .direct)
        do {
            _ = try direct.transmit([0x0A, 0x04] + (try Hex.parse(Self.idm)))
            Issue.record("accepted 6A 81")
        } catch let e as PseudoAPDUError {
            #expect(
                e.failure == .other("SW 6A 81") && e.message == "the reader did not pass the FeliCa frame (the reader answered 6A 81)"
                    && e.hint?.contains("libnfc") == true)
        }
        // A PN532 answer too short to hold a frame: the read fails cleanly (the parser names it).
        let pn532 = PCSCFeliCaChannel(apdus: reader, wrapping: .pn532)
        #expect(throws: FeliCaError.self) {
            _ = try FeliCaResponse.requestResponse(
                try pn532.transmit([0x0A, 0x04] + (try Hex.parse(Self.idm))), idm: IDm(Hex.parse(Self.idm)))
        }
        #expect(throws: PseudoAPDUError.self) { _ = try direct.transmit([0x0A, 0x04]) }  // a 1-byte answer
        // A 254-byte frame fits a direct pseudo-APDU but not a PN532 one (3 more bytes): refused, not sent.
        let long = [UInt8(254)] + [UInt8](repeating: 0x08, count: 253)
        #expect(throws: PseudoAPDUError.self) { _ = try pn532.transmit(long) }
        #expect(reader.script.isEmpty)
    }
}

/// The read-only FeliCa frames `cardscan apdu` lets through inside pseudo-APDUs.
@Suite struct PseudoAPDUReadsTests {
    @Test(arguments: [
        "FF 00 00 00 10 10 06 01 2E 4C D0 1A 2B 3C 4D 01 8B 00 01 80 00",
        "FF 00 00 00 13 D4 40 01 10 06 01 2E 4C D0 1A 2B 3C 4D 01 8B 00 01 80 00", "FF 00 00 00 06 06 00 00 03 01 00",
        "00 A4 04 00 02 A0 00 00",
    ])
    func readsPass(_ hex: String) throws {
        #expect(PseudoAPDUReads.isReadOnly(try CommandAPDU(hex: hex)))
    }

    @Test(arguments: [
        "FF 00 00 00 20 20 08 01 2E 4C D0 1A 2B 3C 4D 01 09 00 01 80 00 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41",
        "FF 00 00 00 23 D4 40 01 20 08 01 2E 4C D0 1A 2B 3C 4D 01 09 00 01 80 00 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41",
        "FF 00 00 00 0A 0C 06 01 2E 4C D0 1A 2B 3C 4D", "FF 00 00 00 02 D4 40", "FF D6 00 04 04 01 02 03 04",
    ])
    func writesAndBadFramesAreRefused(_ hex: String) throws {
        #expect(!PseudoAPDUReads.isReadOnly(try CommandAPDU(hex: hex)))
    }
}
