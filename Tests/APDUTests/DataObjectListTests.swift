import Testing

@testable import APDU

/// EMV data object lists (Book 3 §5.4) and the cardholder data a recording hides.
@Suite struct DataObjectListTests {
    @Test func parsesTagsAndLengthsAndBuildsRightSizedValues() throws {
        // 9F66 04, 9F02 06, 5F2A 02, 9A 03: a PDOL as a Visa card gives it.
        let dol = try DataObjectList([0x9F, 0x66, 0x04, 0x9F, 0x02, 0x06, 0x5F, 0x2A, 0x02, 0x9A, 0x03])
        #expect(dol.entries.map(\.length) == [4, 6, 2, 3])
        #expect(dol.entries[0].tag == TLVTag(bytes: [0x9F, 0x66]))
        #expect(dol.totalLength == 15)
        let data = dol.values { tag, _ in
            switch tag.bytes {
            case [0x9F, 0x66]: return ([0x36, 0x00, 0x40], false)  // short binary: zero bytes appended
            case [0x9F, 0x02]: return ([0x01, 0x23], true)  // short numeric: right-aligned
            case [0x5F, 0x2A]: return ([0x00, 0x09, 0x78], true)  // long numeric: leftmost dropped
            default: return ([0x26, 0x11, 0x24, 0xFF], false)  // long binary: rightmost dropped
            }
        }
        #expect(data == [0x36, 0x00, 0x40, 0x00, 0, 0, 0, 0, 0x01, 0x23, 0x09, 0x78, 0x26, 0x11, 0x24])
    }

    @Test func splitsARecordAndKeepsOnlyWholeValues() throws {
        let dol = try DataObjectList([0x9A, 0x03, 0x9F, 0x02, 0x06])
        let parts = dol.split([0x24, 0x11, 0x18, 0x00, 0x00, 0x00, 0x00, 0x04, 0x50, 0xEE])
        #expect(parts.map(\.value) == [[0x24, 0x11, 0x18], [0x00, 0x00, 0x00, 0x00, 0x04, 0x50]])
        #expect(dol.split([0x24, 0x11]).isEmpty)  // a truncated record holds no whole value
    }

    @Test(
        arguments: [
            [0x9F],  // a multi-byte tag cut short
            [0x9F, 0x66],  // a tag without its length
            [0x9A, 0x81, 0x01],  // BER long form: not a DOL length
        ] as [[UInt8]])
    func malformedListsAreErrors(_ bytes: [UInt8]) {
        #expect(throws: BERTLV.ParseError.self) { try DataObjectList(bytes) }
    }

    @Test func theEmptyListAsksForNothing() throws {
        #expect(try DataObjectList([]).values { _, n in ([UInt8](repeating: 1, count: n), false) } == [])
    }
}

@Suite struct CardholderDataRedactionTests {
    /// 70 { 5A 4761739001010010, 5F24 280531, 5F20 "DUPONT/M" }.
    let record: [UInt8] =
        [0x70, 0x1B, 0x5A, 0x08, 0x47, 0x61, 0x73, 0x90, 0x01, 0x01, 0x00, 0x10, 0x5F, 0x24, 0x03, 0x28, 0x05, 0x31]
        + [0x5F, 0x20, 0x08] + Array("DUPONT/M".utf8)

    @Test func hidesThePANsMiddleAndTheName() {
        let hidden = CardholderDataRedaction.positions(in: record)
        // PAN bytes 3…5 (digits 7…12) and the 8 name bytes; the expiry stays.
        #expect(hidden == [7, 8, 9] + Array(21..<29))
    }

    @Test func track2KeepsExpiryAndServiceCodeAndHidesTheDiscretionaryData() {
        // 57: 4761739001010010 D 2805 201 1234567890123 F
        let t2: [UInt8] = [
            0x47, 0x61, 0x73, 0x90, 0x01, 0x01, 0x00, 0x10, 0xD2, 0x80, 0x52, 0x01, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x3F,
        ]
        let answer: [UInt8] = [0x77, UInt8(t2.count + 2), 0x57, UInt8(t2.count)] + t2
        let hidden = Set(CardholderDataRedaction.positions(in: answer))
        let kept = (0..<answer.count).filter { !hidden.contains($0) }.map { answer[$0] }
        #expect(kept == [0x77, 0x15, 0x57, 0x13, 0x47, 0x61, 0x73, 0x00, 0x10, 0xD2, 0x80, 0x52, 0x01])
    }

    @Test(
        arguments: [
            [0x24, 0x11, 0x18, 0x5A, 0x02, 0x12, 0x34],  // a raw log record: not a template
            [0x70, 0x05, 0x5A, 0x08, 0x47],  // a template that lies about its length
            [0x70, 0x02, 0x5A],  // cut short inside
            [],
        ] as [[UInt8]])
    func answersThatAreNotWholeTemplatesAreLeftAlone(_ bytes: [UInt8]) {
        #expect(CardholderDataRedaction.positions(in: bytes).isEmpty)
    }

    @Test func aTranscriptWritesHiddenBytesAsDotsAndReadsThemBackAsZero() throws {
        let recorder = RecordingChannel(wrapping: FixedChannel(answer: record + [0x90, 0x00]), recordsTimings: false)
        _ = try recorder.transmit([0x00, 0xB2, 0x01, 0x0C, 0x00])
        let text = recorder.transcript(headers: []).serialized()
        #expect(text.contains("5A 08 47 61 73 .. .. .. 00 10 5F 24 03 28 05 31 5F 20 08 .. .. .. .. .. .. .. .. 90 00"))
        let back = try Transcript(parsing: text)
        guard case .response(let bytes) = back.entries[0].outcome else {
            Issue.record("no response")
            return
        }
        #expect(bytes[7...9] == [0, 0, 0] && back.entries[0].hidden == [7, 8, 9] + Array(21..<29))
        #expect(back.serialized() == text)  // hidden bytes stay hidden when written again
        let raw = RecordingChannel(wrapping: FixedChannel(answer: record + [0x90, 0x00]), redactSecrets: false, recordsTimings: false)
        _ = try raw.transmit([0x00, 0xB2, 0x01, 0x0C, 0x00])
        #expect(raw.transcript(headers: []).serialized().contains("47 61 73 90 01 01 00 10"))
    }

    @Test func aHiddenStatusWordIsRefused() {
        #expect(throws: TranscriptError.self) { try Transcript(parsing: "# cardscan transcript 1\n> 00 B2 01 0C 00\n< 70 00 .. 00\n") }
    }
}

/// A card that answers every command the same.
final class FixedChannel: CardChannel {
    let answer: [UInt8]
    init(answer: [UInt8]) { self.answer = answer }
    func transmit(_ command: [UInt8]) throws -> [UInt8] { answer }
}
