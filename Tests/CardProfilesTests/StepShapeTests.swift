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
        s.copies = copies
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
}
