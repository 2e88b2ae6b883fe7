import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// `copies` (the newer of two copies by a sequence byte, serial-number arithmetic mod 256) and
/// `slots` (records packed in one answer), as Tampere's contract file needs them.
@Suite struct StepShapeTests {
    func step(copies: (Int, Int)? = nil, slots: (Int, Int, Int)? = nil) -> Step {
        var s = Step(
            name: "s", action: .desfire(.read(file: try! .init(2), mode: .data, offset: 0, length: 0)), end: [], optional: false, line: 1)
        s.copies = copies.map { Step.Copies(size: $0.0, counter: $0.1) }
        s.records = slots.map { Step.RecordCut(offset: $0.0, size: $0.1, count: $0.2) }
        return s
    }

    func copy(_ sequence: UInt8, _ mark: UInt8) -> [UInt8] { [sequence, mark, mark, mark] }

    @Test(arguments: [
        // (first copy's sequence, second's, which is newer)
        (UInt8(5), UInt8(6), 1), (6, 5, 0), (0xFF, 0x00, 1), (0x00, 0xFF, 0), (7, 7, 0), (0x10, 0x90, 0), (0x10, 0x91, 0),
    ])
    func theNewerCopyIsTaken(_ first: UInt8, _ second: UInt8, _ newer: Int) {
        let answer = Answer.data(copy(first, 0xAA) + copy(second, 0xBB))
        let shaped = step(copies: (4, 0)).shaped(answer)
        #expect(shaped == .data(newer == 0 ? copy(first, 0xAA) : copy(second, 0xBB)), "\(first) vs \(second)")
    }

    @Test func slotsCutRecordsAndStopAtTheEnd() {
        let data: [UInt8] = [9, 9, 1, 1, 2, 2, 3]
        #expect(step(slots: (2, 2, 3)).shaped(.data(data)) == .records([[1, 1], [2, 2]]))  // the third slot would pass the end
        #expect(step(copies: (4, 0), slots: (1, 1, 3)).shaped(.data(copy(1, 7) + copy(2, 8))) == .records([[8], [8], [8]]))
        #expect(step(copies: (4, 0)).shaped(.data([1, 2, 3])) == .data([1, 2, 3]))  // too short for two copies: as it is
    }

    /// A two-byte counter (ERG's index version): serial-number arithmetic mod 65536, a tie
    /// giving the second copy when the profile says so.
    @Test(arguments: [
        // (first counter, second, tie keeps the second, which is newer)
        (0x0012, 0x0011, false, 0), (0x0040, 0x0041, false, 1), (0x0009, 0x0009, true, 1), (0x0009, 0x0009, false, 0),
        (0xFFFF, 0x0000, false, 1), (0x0100, 0x00FF, false, 0), (0x0001, 0x8001, false, 0),
    ])
    func aTwoByteCounter(_ first: Int, _ second: Int, _ tieKeepsSecond: Bool, _ newer: Int) {
        func copy(_ n: Int, _ mark: UInt8) -> [UInt8] { [mark, UInt8(n >> 8), UInt8(n & 0xFF), mark] }
        var s = step()
        s.copies = Step.Copies(size: 4, counter: 1, length: 2, tieKeepsSecond: tieKeepsSecond)
        let shaped = s.shaped(.data(copy(first, 0xAA) + copy(second, 0xBB)))
        #expect(shaped == .data(newer == 0 ? copy(first, 0xAA) : copy(second, 0xBB)), "\(first) vs \(second)")
    }

    /// `keep`: record i is kept when byte offset + i of another answer is listed (an index),
    /// and when its own bytes match.
    @Test func keepChecksAnIndexAndTheRecord() {
        var s = step(slots: (0, 2, 255))
        s.records?.keep = [
            Step.RecordCheck(by: "index", offset: 1, values: [[0x14], [0x15]], line: 1),
            Step.RecordCheck(by: nil, offset: 1, values: [[0x00]], line: 1),
        ]
        var answers = Answers()
        answers["index"] = .data([0xEE, 0x14, 0x03, 0x15, 0x15])  // records 0 and 2, 3 by the index
        let data: [UInt8] = [1, 0, 2, 0, 3, 0, 4, 9, 5, 0]  // record 3's own byte 1 is 9
        #expect(s.shaped(.data(data), answers: answers) == .records([[1, 0], [3, 0]]))
        #expect(s.shaped(.data(data)) == .records([]))  // no index: nothing is kept
    }

    /// A counter least significant byte first after a static block (RKF's purse: 255 = FF 00 is
    /// older than 256 = 00 01, which a one-byte counter would get wrong), and one given in bits
    /// (CharlieCard's, bits 81-96; here bits 4-11 of a 2-byte copy).
    @Test func aLittleEndianCounterAfterAnOffsetAndACounterInBits() {
        var s = step()
        var c = Step.Copies(size: 3, counter: 0, length: 2)
        c.offset = 1
        c.littleEndian = true
        s.copies = c
        #expect(s.shaped(.data([0xEE, 0xFF, 0x00, 0xAA, 0x00, 0x01, 0xBB])) == .data([0x00, 0x01, 0xBB]))
        #expect(s.shaped(.data([0xEE, 0x01, 0x01, 0xAA, 0x00, 0x01, 0xBB])) == .data([0x01, 0x01, 0xAA]))  // 257 > 256
        var bits = Step.Copies(size: 2, counter: 0)
        (bits.counterBit, bits.counterBits) = (4, 8)
        s.copies = bits
        // Counters 0x12 (from 01 2F) and 0x13 (from A1 3F): the second is newer.
        #expect(s.shaped(.data([0x01, 0x2F, 0xA1, 0x3F])) == .data([0xA1, 0x3F]))
        #expect(s.shaped(.data([0x01, 0x4F, 0xA1, 0x3F])) == .data([0x01, 0x4F]))  // 0x14 > 0x13
    }
}
