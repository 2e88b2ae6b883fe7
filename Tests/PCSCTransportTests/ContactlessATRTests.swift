import APDU
import Testing

@testable import PCSCTransport

/// PC/SC part 3 ATRs of ISO 14443-4 cards: 8 historical bytes are the Type B layout.
@Suite struct ContactlessATRTests {
    @Test func eightHistoricalBytesAreTheTypeBLayout() throws {
        let atr = try #require(ContactlessATR(try Hex.parse("3B 88 80 01 00 00 00 00 33 81 81 00 3A")))
        #expect(atr.isLikelyTypeB)
        #expect(atr.cardDescription == "ISO 14443-4, likely Type B (ATQB application data 00 00 00 00, protocol info 33 81 81)")
    }

    @Test func otherCountsAreTypeAOrUnknown() throws {
        let atr = try #require(ContactlessATR(try Hex.parse("3B 8F 80 01 80 5A 0A 01 03 20 03 11 22 33 44 55 82 90 00 FC")))
        #expect(!atr.isLikelyTypeB && atr.cardDescription == "ISO 14443-4 smart card")
    }

    @Test func othersAreNotContactlessATRs() throws {
        #expect(ContactlessATR(try Hex.parse("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")) == nil)  // a pseudo-ATR
        #expect(ContactlessATR(try Hex.parse("3B 88 80 01 00 00 00")) == nil)  // truncated
        #expect(ContactlessATR(try Hex.parse("3B 6E 00 00 80 31 80 66 B0 84 12 01 6E 01 83 00 90 00")) == nil)  // contact
        #expect(ContactlessATR([]) == nil)
    }
}
