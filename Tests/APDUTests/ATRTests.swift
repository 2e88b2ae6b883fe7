import PropertyBased
import Testing

@testable import APDU

@Suite struct ATRTests {
    static let shanghai: [UInt8] = try! Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")

    @Test func shanghaiATRBreaksDown() throws {
        let atr = try ATR(bytes: Self.shanghai)
        #expect(atr.ts == 0x3B && atr.t0 == 0x8B)
        #expect(atr.interfaceGroups.count == 2)
        #expect(atr.interfaceGroups[0].td == 0x80)
        #expect(atr.interfaceGroups[1].td == 0x01)
        #expect(atr.protocols == [0, 1])
        #expect(atr.historicalBytes == (try Hex.parse("20 85 00 8B 03 0F E0 9A A0 E0 40")))
        #expect(atr.tck == 0x52)
    }

    @Test func t0OnlyATRHasNoTCK() throws {
        let atr = try ATR(bytes: Hex.parse("3B 02 14 50"))
        #expect(atr.protocols == [0] && atr.tck == nil && atr.historicalBytes == [0x14, 0x50])
        let withTA = try ATR(bytes: Hex.parse("3B 9F 95 81 31 FE 9F 00 66 46 53 05 10 00 11 71 DF 00 00 00 00 00 02"))
        #expect(withTA.interfaceGroups[0].ta == 0x95)
    }

    @Test func badTCKAndBadTSAreErrors() throws {
        var bad = Self.shanghai
        bad[bad.count - 1] ^= 1
        #expect(throws: ATR.ParseError.tckMismatch(expected: 0x52, actual: 0x53)) { try ATR(bytes: bad) }
        #expect(throws: ATR.ParseError.invalidTS(0x3C)) { try ATR(bytes: [0x3C, 0x00]) }
        #expect(throws: ATR.ParseError.trailingBytes(1)) { try ATR(bytes: [0x3B, 0x00, 0x00]) }
    }

    @Test func dripFedATRGivesCleanErrors() {
        for prefix in prefixes(Self.shanghai) {
            #expect(throws: ATR.ParseError.self) { try ATR(bytes: prefix) }
        }
    }

    @Test func randomBytesNeverCrash() async {
        await propertyCheck(count: 2000, input: Gen<UInt8>.uint8().array(of: 0...40)) { bytes in
            _ = try? ATR(bytes: bytes)
        }
    }
}
