import MIFARECommands
import Testing

/// The MIFARE Application Directory and access conditions, against values published with the
/// standards (NXP AN10787, AN1305; the MF1S50 data sheet), not worked out by the code.
@Suite struct ClassicMADTests {
    /// A card formatted for NDEF in every sector (AN1305, libfreefare's `mifare-classic-format`):
    /// MAD1 `14 01` then `03 E1` fifteen times; GPB `C1`; trailer access bytes `78 77 88`.
    static let formatted: [[UInt8]] = [
        [0x11, 0x22, 0x33, 0x44, 0x44, 0x08, 0x04, 0x00, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69],
        [0x14, 0x01] + Array(repeating: [0x03, 0xE1], count: 7).flatMap { $0 },
        Array(repeating: [0x03, 0xE1], count: 8).flatMap { $0 },
        [0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0xC1, 0, 0, 0, 0, 0, 0],
    ]

    @Test func theCRCOfAFullyFormattedMADIsItsWellKnown14() {
        #expect(ClassicMAD.crc8(Self.formatted[1].dropFirst() + Self.formatted[2]) == 0x14)
        let mad = ClassicMAD.decode(sector0: Self.formatted)
        #expect(mad?.version == 1 && mad?.crcMatches == [true] && mad?.publisherSector == 1)
        #expect(mad?.entries.count == 15 && mad?.entries.allSatisfy { $0.aid == 0xE103 && $0.name == "NDEF (NFC Forum)" } == true)
        #expect(mad?.entries.first?.sector == 1 && mad?.entries.last?.sector == 15)
    }

    @Test func aDamagedMADSaysSo() {
        var blocks = Self.formatted
        blocks[2][5] = 0x00  // sector 10's entry
        let mad = ClassicMAD.decode(sector0: blocks)
        #expect(mad?.crcMatches == [false])
        #expect(mad?.entries[9].sector == 10 && mad?.entries[9].aid == 0x0003)  // `03 00`: additional directory information
    }

    @Test func noDABitNoDirectory() {
        var blocks = Self.formatted
        blocks[3][9] = 0x69  // a transport trailer's byte 9: DA clear
        #expect(ClassicMAD.decode(sector0: blocks) == nil)
    }

    /// The MF1S50 data sheet's transport configuration (`FF 07 80`) and the MAD and NDEF
    /// sectors' (`78 77 88`, `7F 07 88`).
    @Test func accessConditionsInWords() throws {
        let transport = try #require(AccessBits(0xFF, 0x07, 0x80))
        #expect(transport.conditions == [0, 0, 0, 1])
        #expect(transport.describe(block: 0) == "read A/B, write A/B, value A/B")
        #expect(transport.describe(block: 3) == "A writes the keys and access bits, B readable")
        let mad = try #require(AccessBits(0x78, 0x77, 0x88))
        #expect(mad.conditions == [4, 4, 4, 3] && mad.describe(block: 1) == "read A/B, write B")
        #expect(mad.describe(block: 3) == "B writes the keys and access bits")
        let ndef = try #require(AccessBits(0x7F, 0x07, 0x88))
        #expect(ndef.conditions == [0, 0, 0, 3])
    }
}
