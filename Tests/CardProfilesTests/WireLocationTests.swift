import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Finding a value's bytes among a card's answers (``WireLocation``), for hiding them in a
/// transcript or telling a replay's value came from hidden bytes. The answers and positions are
/// written out by hand.
@Suite struct WireLocationTests {
    @Test func aBitSpanCoversTheBitsOfItsBytes() {
        // 32 bits from bit 69: the low 3 bits of byte 8, bytes 9–11, the top 5 bits of byte 12.
        let span = FieldBytes.bitSpan(offset: 69, count: 32)
        #expect(span.positions == 8..<13 && span.masks == [0x07, 0xFF, 0xFF, 0xFF, 0xF8])
        // Inside one byte: bits 2–4 of byte 0 (0011 1000).
        let inside = FieldBytes.bitSpan(offset: 2, count: 3)
        #expect(inside.positions == 0..<1 && inside.masks == [0x38])
    }

    @Test func aRecordIsFoundInTheAnswerThatHoldsIt() {
        let answers: [[UInt8]?] = [[0x6F, 0x01, 0x90, 0x00], nil, [0x11, 0x22, 0x33, 0x44, 0x55, 0x90, 0x00]]
        let value = FieldBytes(field: "card.x", unit: [0x11, 0x22, 0x33, 0x44, 0x55], positions: [1, 2], personal: true)
        let location = WireLocation(answers: answers, statusWordLength: 2)
        #expect(location.hiding([value]).masks == [2: [1: 0xFF, 2: 0xFF]])
        // The status word is never part of what is searched: 33 44 55 90 is not a unit found.
        let withStatus = FieldBytes(field: "card.y", unit: [0x44, 0x55, 0x90, 0x00], positions: [0])
        #expect(location.places(of: withStatus).isEmpty)
    }

    /// A record split over two chained frames (DESFire's 91 AF) is whole again once the frames'
    /// data are joined.
    @Test func aRecordOverTwoFramesIsFound() {
        let answers: [[UInt8]?] = [[0xA1, 0xA2, 0xA3, 0x91, 0xAF], [0xA4, 0xA5, 0x91, 0x00]]
        let value = FieldBytes(field: "card.holder", unit: [0xA1, 0xA2, 0xA3, 0xA4, 0xA5], positions: [2, 3, 4])
        #expect(WireLocation(answers: answers, statusWordLength: 2).hiding([value]).masks == [0: [2: 0xFF], 1: [0: 0xFF, 1: 0xFF]])
    }

    /// Blocks read in two frames with a header between them: the unit is not found whole, a
    /// window of context around the bytes used is.
    @Test func aWindowAroundTheBytesIsFoundWhenTheUnitIsNot() {
        let block1: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8], block2: [UInt8] = [9, 10, 11, 12, 13, 14, 15, 16]
        let answers: [[UInt8]?] = [[0x0C, 0x07, 0x00] + block1, [0x0C, 0x07, 0x00] + block2]
        let value = FieldBytes(field: "trips[0].x", unit: block1 + block2, positions: [11, 12], masks: [0xFF, 0xF0])
        let location = WireLocation(answers: answers, statusWordLength: 0)
        #expect(location.hiding([value]).masks == [1: [6: 0xFF, 7: 0xF0]])
        // Nothing of it anywhere: reported, for the caller to hide everything.
        let absent = FieldBytes(field: "card.z", unit: [0xEE, 0xEE, 0xEE, 0xEE], positions: [0])
        #expect(location.hiding([absent]).notFound == [absent])
    }

    /// A replayed value is redacted only when every place it is found uses a hidden bit.
    @Test func aValueIsRedactedWhenItsBitsAreHidden() {
        let answers: [[UInt8]?] = [[0x24, 0x48, 0x00, 0x00, 0x90, 0x00]]
        let location = WireLocation(answers: answers, statusWordLength: 2)
        let hidden: [Int: [Int: UInt8]] = [0: [1: 0x07, 2: 0xFF, 3: 0xFF]]
        let birthDate = FieldBytes(field: "card.birthDate", unit: [0x24, 0x48, 0, 0], positions: [1, 2, 3], masks: [0x07, 0xFF, 0xFF])
        let beside = FieldBytes(field: "card.holder", unit: [0x24, 0x48, 0, 0], positions: [1], masks: [0xF8])
        #expect(location.isRedacted(birthDate, hidden: hidden))
        #expect(!location.isRedacted(beside, hidden: hidden))  // the bits of byte 1 the recording kept
    }
}
