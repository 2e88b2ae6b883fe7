import Foundation
import MIFARECommands
import Testing

/// Metrodroid's `touchngo` key transform: a static key file's base keys, turned into a card's
/// own by its UID. Values worked out by hand (docs/cards/touch-n-go.md): UID 12 34 56 78 gives the
/// pattern 34^56^78 = 1A, 34, 56, (12+34+56+78 = 114 → 14)^78 = 6C, 00, 00.
@Suite struct KeyTransformTests {
    @Test func theCardKeyIsTheBaseXORTheUIDsPattern() {
        let base: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        #expect(ClassicKeys.touchNGo(base, uid: [0x12, 0x34, 0x56, 0x78]) == [0x0B, 0x16, 0x65, 0x28, 0x55, 0x66])
        // The UID's byte order matters: 78 56 34 12 gives 70 56 34 06 00 00.
        #expect(ClassicKeys.touchNGo(base, uid: [0x78, 0x56, 0x34, 0x12]) == [0x61, 0x74, 0x07, 0x42, 0x55, 0x66])
        #expect(ClassicKeys.touchNGo(base, uid: [0x01, 0x02, 0x03]) == nil)
    }

    /// A static file's `touchngo` entries are base keys, tried as the card's own keys derived
    /// from its UID; an unknown transform is refused with its place.
    @Test func aStaticFileWithTheTransform() throws {
        let json =
            #"{"KeyType": "MifareClassicStatic", "keys": [{"type": "KeyB", "key": "112233445566", "sector": 10, "transform": "touchngo"}]}"#
        let keys = try ClassicKeys.parse(Array(json.utf8), file: "tng.json")
        #expect(keys.sectors.isEmpty && keys.touchNGo[10]?.b == [[0x11, 0x22, 0x33, 0x44, 0x55, 0x66]] && keys.count == 1)
        let candidates = ClassicDump.candidates(10, [keys], uid: [0x12, 0x34, 0x56, 0x78])
        #expect(candidates.b.first == [0x0B, 0x16, 0x65, 0x28, 0x55, 0x66])
        #expect(ClassicDump.candidates(9, [keys], uid: [0x12, 0x34, 0x56, 0x78]).b.first == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let other = json.replacingOccurrences(of: "touchngo", with: "rot13")
        #expect { try ClassicKeys.parse(Array(other.utf8), file: "x.json") } throws: {
            ($0 as? ClassicKeys.Invalid)?.message == "x.json: keys[0].transform: 'rot13': cardscan knows the transforms none and touchngo"
        }
    }
}
