import Testing

@testable import APDU

@Suite struct StatusWordTests {
    /// docs/cards/README.md (status words), row by row: (SW, category, words that must appear in the text).
    static let table: [(UInt16, StatusWord.Category, String)] = [
        (0x9000, .success, "success"),
        (0x6200, .warning, "no information"),
        (0x6281, .warning, "corrupted"),
        (0x6282, .warning, "end of file or record"),
        (0x6283, .warning, "invalidated"),
        (0x6284, .warning, "FCI not formatted"),
        (0x6300, .warning, "verification failed"),
        (0x6381, .warning, "filled up"),
        (0x6400, .executionError, "memory unchanged"),
        (0x6581, .executionError, "memory failure"),
        (0x6700, .checkingError, "wrong length"),
        (0x6881, .checkingError, "logical channel"),
        (0x6882, .checkingError, "secure messaging not supported"),
        (0x6981, .checkingError, "incompatible with file structure"),
        (0x6982, .checkingError, "security status not satisfied"),
        (0x6983, .checkingError, "authentication method blocked"),
        (0x6984, .checkingError, "referenced data invalidated"),
        (0x6985, .checkingError, "conditions of use"),
        (0x6986, .checkingError, "no current EF"),
        (0x6987, .checkingError, "missing"),
        (0x6988, .checkingError, "incorrect"),
        (0x6A80, .checkingError, "data field"),
        (0x6A81, .checkingError, "function not supported"),
        (0x6A82, .checkingError, "file or application not found"),
        (0x6A83, .checkingError, "record not found"),
        (0x6A84, .checkingError, "not enough memory"),
        (0x6A85, .checkingError, "TLV"),
        (0x6A86, .checkingError, "P1-P2"),
        (0x6A87, .checkingError, "inconsistent with P1-P2"),
        (0x6A88, .checkingError, "key) not found"),
        (0x6B00, .checkingError, "offset outside"),
        (0x6D00, .checkingError, "instruction code not supported"),
        (0x6E00, .checkingError, "class not supported"),
        (0x6F00, .checkingError, "no precise diagnosis"),
    ]

    @Test(arguments: table)
    func decodes(_ row: (UInt16, StatusWord.Category, String)) {
        let sw = StatusWord(row.0)
        #expect(sw.category == row.1)
        #expect(sw.meaning.contains(row.2), "\(sw.meaning)")
        #expect(sw.isSuccess == (row.0 == 0x9000))
    }

    @Test func parameterisedWords() {
        #expect(StatusWord(0x63C3).retriesRemaining == 3)
        #expect(StatusWord(0x63C3).meaning == "verification failed: 3 retries left")
        #expect(StatusWord(0x63C1).meaning == "verification failed: 1 retry left")
        #expect(StatusWord(0x6132).bytesAvailable == 0x32)
        #expect(StatusWord(0x6100).bytesAvailable == 256)
        #expect(StatusWord(0x6132).isSuccess)
        #expect(StatusWord(0x6C1E).correctLength == 0x1E)
        #expect(StatusWord(0x6C1E).category == .checkingError)
        #expect(StatusWord(0x9100).category == .proprietary)
        #expect(StatusWord(0x6A82).description == "6A 82 (file or application not found)")
    }

    @Test func responseShorterThanTwoBytesIsAnError() throws {
        #expect(throws: ResponseAPDU.ParseError.tooShort(0)) { try ResponseAPDU(bytes: []) }
        #expect(throws: ResponseAPDU.ParseError.tooShort(1)) { try ResponseAPDU(bytes: [0x90]) }
        let r = try ResponseAPDU(bytes: [0x00, 0x00, 0x16, 0x4E, 0x90, 0x00])
        #expect(r.data == [0, 0, 0x16, 0x4E] && r.statusWord == .success)
    }
}
