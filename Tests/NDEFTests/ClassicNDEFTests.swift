import Testing

@testable import NDEF

/// The MIFARE Application Directory's NDEF entries (NXP AN1304): application code 03, function
/// cluster E1, in that byte order.
@Suite struct ClassicNDEFDirectoryTests {
    @Test func madEntriesNameTheNDEFSectors() {
        // A card formatted with every sector NDEF: CRC 14, info byte 01, then 03 E1 fifteen times.
        let full: [UInt8] = [0x14, 0x01] + [[UInt8]](repeating: [0x03, 0xE1], count: 15).flatMap { $0 }
        #expect(ClassicNDEF.ndefSectors(mad1: full) == Array(1...15))
        var mixed = [UInt8](repeating: 0, count: 32)
        mixed[2 + 2 * 4] = 0x03  // sector 5
        mixed[3 + 2 * 4] = 0xE1
        mixed[2] = 0xE1  // the bytes the other way round: not NDEF
        mixed[3] = 0x03
        #expect(ClassicNDEF.ndefSectors(mad1: mixed) == [5])
        let mad2: [UInt8] = [0, 0, 0x03, 0xE1] + [UInt8](repeating: 0, count: 44)
        #expect(ClassicNDEF.ndefSectors(mad1: full, mad2: mad2) == Array(1...15) + [17])
    }
}
