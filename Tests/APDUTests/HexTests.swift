import Testing

@testable import APDU

@Suite struct HexTests {
    @Test(arguments: ["00A40400", "00 A4 04 00", "00:a4:04:00", "00a4 04:00", " 00 A4 04 00 "])
    func parsesEveryAcceptedSpelling(_ text: String) throws {
        #expect(try Hex.parse(text) == [0x00, 0xA4, 0x04, 0x00])
    }

    @Test func rejectsOddDigits() {
        #expect(throws: Hex.ParseError.oddDigitCount(3)) { try Hex.parse("00A") }
    }

    @Test func rejectsStrayCharacterWithPosition() {
        #expect(throws: Hex.ParseError.invalidCharacter("G", position: 3)) { try Hex.parse("00 G4") }
        #expect(throws: Hex.ParseError.splitByte(position: 1)) { try Hex.parse("0 0") }
    }

    /// Found by the fuzzer (Fuzz/, target hex): a character of several UTF-8 bytes after a
    /// digit trapped on a character index counted in bytes.
    @Test func rejectsCharactersBeyondASCIINamingThemByCharacterPosition() {
        #expect(throws: Hex.ParseError.invalidCharacter("\u{0655}", position: 1)) {
            try Hex.parse(String(decoding: [0x32, 0xD9, 0x95], as: UTF8.self))
        }  // a combining mark on the "2"
        #expect(throws: Hex.ParseError.invalidCharacter("é", position: 3)) { try Hex.parse("A0 é1") }
        #expect(throws: Hex.ParseError.invalidCharacter("🚀", position: 1)) { try Hex.parse("0🚀") }
    }

    @Test func formatsUpperCaseSpaced() {
        #expect(Hex.format([0x00, 0xa4, 0x0f]) == "00 A4 0F")
        #expect([UInt8]([0xde, 0xad]).compactHex == "DEAD")
        #expect(Hex.format([UInt8]()) == "")
    }
}
