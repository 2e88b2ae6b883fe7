import APDU
import FeliCaCommands
import Testing

@testable import NDEF

@Suite struct NDEFTests {
    @Test func textAndURIRecordsRoundTrip() throws {
        let message = NDEFMessage(records: [
            NDEFPayload.text("Hello, 世界", language: "en").record, NDEFPayload.uri("https://www.example.com/x").record,
        ])
        let bytes = message.encoded
        #expect(Array(bytes.prefix(7)) == [0x91, 0x01, 0x10, 0x54, 0x02, 0x65, 0x6E])  // MB|SR, "T", lang "en"
        #expect(Array(bytes[20..<25]) == [0x51, 0x01, 0x0E, 0x55, 0x02])  // ME|SR, "U", 14 bytes, prefix 02 "https://www."
        let parsed = try NDEFMessage(parsing: bytes)
        #expect(parsed == message)
        #expect(try NDEFPayload(parsed.records[0]) == .text("Hello, 世界", language: "en"))
        #expect(try NDEFPayload(parsed.records[1]) == .uri("https://www.example.com/x"))
    }

    @Test func utf16TextAndEveryURIPrefix() throws {
        let utf16 = NDEFRecord(tnf: .wellKnown, type: [0x54], payload: [0x82, 0x6A, 0x61, 0xFE, 0xFF, 0x00, 0x48, 0x00, 0x69])
        #expect(try NDEFPayload(utf16) == .text("Hi", language: "ja"))
        for (code, prefix) in NDEFPayload.uriPrefixes.enumerated() {
            let r = NDEFRecord(tnf: .wellKnown, type: [0x55], payload: [UInt8(code)] + Array("x".utf8))
            #expect(try NDEFPayload(r) == .uri(prefix + "x"))
        }
        #expect(NDEFPayload.uriPrefixes.count == 0x24)
        #expect(throws: NDEFError.self) { try NDEFPayload(NDEFRecord(tnf: .wellKnown, type: [0x55], payload: [0x24])) }
    }

    @Test func smartPosterMimeExternal() throws {
        let inner = NDEFMessage(records: [NDEFPayload.uri("tel:+6512345678").record, NDEFPayload.text("Call", language: "en").record])
        let sp = NDEFPayload.smartPoster(inner).record
        let outer = try NDEFMessage(
            parsing: NDEFMessage(records: [
                sp, NDEFPayload.mime(type: "text/plain", data: [0x41]).record,
                NDEFPayload.external(type: "example.com:t", data: [1]).record,
            ]).encoded)
        #expect(try NDEFPayload(outer.records[0]) == .smartPoster(inner))
        #expect(try NDEFPayload(outer.records[1]) == .mime(type: "text/plain", data: [0x41]))
        #expect(try NDEFPayload(outer.records[2]) == .external(type: "example.com:t", data: [1]))
    }

    @Test func longRecordsAndIDs() throws {
        let r = NDEFRecord(
            tnf: .media, type: Array("application/octet-stream".utf8), id: [0x01], payload: [UInt8](repeating: 7, count: 300))
        let bytes = NDEFMessage(records: [r]).encoded
        #expect(bytes[0] == 0xCA)  // MB|ME|IL, TNF 2, not short
        #expect(Array(bytes[2..<6]) == [0, 0, 0x01, 0x2C])
        #expect(try NDEFMessage(parsing: bytes).records == [r])
    }

    @Test func chunkedRecordsAreJoined() throws {
        let bytes = try Hex.parse("B1 01 03 54 02 65 6E  36 00 02 48 69  56 00 01 21")  // MB|CF|SR T "en"… then two chunks
        let m = try NDEFMessage(parsing: bytes)
        #expect(m.records.count == 1)
        #expect(try NDEFPayload(m.records[0]) == .text("Hi!", language: "en"))
    }

    @Test func malformedNDEF() throws {
        #expect(throws: NDEFError.lengthPastEnd(offset: 0, declared: 11, available: 3)) {
            try NDEFMessage(parsing: Hex.parse("D1 01 0A 54 02 65"))
        }
        #expect(throws: NDEFError.chunkWithoutEnd) { try NDEFMessage(parsing: Hex.parse("B1 01 03 54 02 65 6E 36 00 02 48 69")) }
        #expect(throws: NDEFError.missingMessageBegin) { try NDEFMessage(parsing: Hex.parse("51 01 01 55 00")) }
        #expect(throws: NDEFError.missingMessageEnd) { try NDEFMessage(parsing: Hex.parse("91 01 01 55 00")) }
        #expect(throws: NDEFError.recordAfterMessageEnd(offset: 5)) { try NDEFMessage(parsing: Hex.parse("D1 01 01 55 00 D1 01 01 55 00")) }
        #expect(throws: NDEFError.self) { try NDEFMessage(parsing: Hex.parse("D6 00 00")) }  // TNF 6 alone
        #expect(throws: NDEFError.invalidEmptyRecord(offset: 0)) { try NDEFMessage(parsing: Hex.parse("D0 01 00 55")) }
        #expect(throws: NDEFError.emptyMessage) { try NDEFMessage(parsing: []) }
    }

    @Test func dripFedMessagesGiveCleanErrors() throws {
        let bytes = NDEFMessage(records: [NDEFPayload.text("abc", language: "en").record, NDEFPayload.uri("https://x.y").record]).encoded
        for n in 0..<bytes.count {
            #expect(throws: NDEFError.self) { try NDEFMessage(parsing: Array(bytes.prefix(n))) }
        }
    }

    @Test func type3AttributeBlock() throws {
        let a = Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13, rwFlag: 1, ln: 0x18)
        #expect(a.encoded == (try Hex.parse("10 04 01 00 0D 00 00 00 00 00 01 00 00 18 00 3B")))
        let parsed = try Type3AttributeBlock(parsing: a.encoded)
        #expect(parsed == a && parsed.dataBlocks == 2 && parsed.status == NDEFStatus(access: .readWrite, capacity: 208))
        var bad = a.encoded
        bad[15] ^= 1
        #expect(throws: NDEFError.self) { try Type3AttributeBlock(parsing: bad) }
        for n in 0..<16 { #expect(throws: NDEFError.self) { try Type3AttributeBlock(parsing: Array(a.encoded.prefix(n))) } }
        #expect(Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13, rwFlag: 0, ln: 0).status.access == .readOnly)
    }

    @Test func type4CapabilityContainer() throws {
        let cc = try Type4CapabilityContainer(parsing: Hex.parse("00 0F 20 00 3B 00 34 04 06 E1 04 00 32 00 00"))
        #expect(cc.mappingVersion == 0x20 && cc.maxLe == 0x3B && cc.maxLc == 0x34 && cc.ndefFileID == 0xE104 && cc.maxNDEFSize == 0x32)
        #expect(cc.status == NDEFStatus(access: .readWrite, capacity: 48))
        #expect(cc.chunks(from: 2, total: 130).map(\.length) == [59, 59, 12])
        #expect(try Type4CapabilityContainer(parsing: Hex.parse("00 0F 20 00 3B 00 34 04 06 E1 04 00 32 00 FF")).status.access == .readOnly)
        for n in 0..<15 {
            #expect(throws: NDEFError.self) {
                try Type4CapabilityContainer(parsing: Array(try Hex.parse("00 0F 20 00 3B 00 34 04 06 E1 04 00 32 00 00").prefix(n)))
            }
        }
    }

    @Test func type2Memory() throws {
        let message = NDEFMessage(records: [NDEFPayload.uri("https://nfc.example").record])
        let header = try Hex.parse("04 12 34 56  78 9A BC DE  00 00 00 00  E1 10 12 00")  // NTAG-like, 144-byte data area
        let memory = header + [0x01, 0x03, 0xA0, 0x0C, 0x44] + Type2Memory.tlvs(for: message)  // a lock-control TLV first
        let parsed = try Type2Memory(parsing: memory)
        #expect(try NDEFMessage(parsing: parsed.ndef ?? []) == message)
        #expect(parsed.status == NDEFStatus(access: .readWrite, capacity: 141))
        var readOnly = memory
        readOnly[15] = 0x0F
        #expect(try Type2Memory(parsing: readOnly).status.access == .readOnly)
        #expect(throws: NDEFError.self) { try Type2Memory(parsing: Array(memory.prefix(20))) }
        #expect(throws: NDEFError.self) { try NDEFStatus(access: .readOnly, capacity: 100).check(writing: message) }
        #expect(throws: NDEFError.tooLarge(message.encoded.count)) {
            try NDEFStatus(access: .readWrite, capacity: 4).check(writing: message)
        }
    }
}

/// Found by a review of the limits (docs/reliability.md §Limits): `ndef write` trusted the tag
/// where a wrong answer trapped. Each is now an error, before anything is written.
@Suite struct NDEFWriterHostileTagTests {
    /// A Type 3 tag answering the writer's second read of its attribute block with no block
    /// (the read did not say how many it expected, and took the first).
    @Test func anAttributeReadWithNoBlockIsAnErrorNotATrap() throws {
        let idm: [UInt8] = [0x01, 0x2E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]
        /// A Read Without Encryption answer (response code 07): status 00 00, then the blocks.
        func readAnswer(_ blocks: [[UInt8]]) -> [UInt8] {
            let body: [UInt8] = [0x07] + idm + [0x00, 0x00, UInt8(blocks.count)] + blocks.flatMap { $0 }
            return [UInt8(body.count + 1)] + body
        }
        let attribute = Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13, rwFlag: 1, ln: 0).encoded
        let read = try FeliCaCommand.readWithoutEncryption(
            try IDm(idm), services: [ServiceCode(0x000B)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 0)])
        // The reader's read, then the writer's; a Write Without Encryption would find the
        // transcript at its end and be a different error.
        let text = [
            "# cardscan transcript 1",
            "> \(read.hexString)", "< \(readAnswer([attribute]).hexString)",
            "> \(read.hexString)", "< \(readAnswer([]).hexString)",
        ].joined(separator: "\n")
        let exchange = CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
        let message = NDEFMessage(records: [NDEFPayload.text("hi", language: "en").record])
        #expect(throws: FeliCaError.wrongBlockCount(asked: 1, got: 0)) {
            try NDEFTags.writeType3(exchange, idm: idm, message: message)
        }
        #expect(exchange.roundTrips == 2)
    }

    /// A Type 2 tag whose capability container claims 2,040 bytes (size FF): a message past
    /// page 255 made WRITE's one-byte page number trap.
    @Test func aType2MessagePastPage255IsRefused() throws {
        // Pages 0–3 (the capability container: E1 10 FF 00), then an empty record and the end.
        let text = [
            "# cardscan transcript 1",
            "> 30 00", "< 04 A1 B2 8F C3 D4 E5 F6 00 48 00 00 E1 10 FF 00",
            "> 30 04", "< 03 03 D0 00 00 FE 00 00 00 00 00 00 00 00 00 00",
        ].joined(separator: "\n")
        let exchange = CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
        let message = NDEFMessage(records: [NDEFPayload.text(String(repeating: "a", count: 1_100), language: "en").record])
        #expect(
            throws: NDEFTags.WriteFailure.unsupported("the message reaches page 282; WRITE addresses pages up to 255 (no sector select)")
        ) {
            try NDEFTags.writeType2(exchange, message: message)
        }
        #expect(exchange.roundTrips == 2)
    }

    /// A Type 4 tag whose NDEF file claims 65,534 bytes: a message past offset 32767 would have
    /// been written with P1's top bit set, which names a short file identifier instead.
    @Test func aType4MessagePastOffset32767IsRefused() throws {
        let cc = "00 0F 20 00 FF 00 FF 04 06 E1 04 FF FE 00 00"
        // The writer selects the capability container again for MLc and the NLEN size.
        let text = Type4HostileTagTests.reading(
            cc: cc, nlen: "00 00",
            then: [
                "> 00 A4 00 0C 02 E1 03", "< 90 00",
                "> 00 B0 00 00 0F", "< \(cc) 90 00",
                "> 00 A4 00 0C 02 E1 04", "< 90 00",
            ])
        let exchange = CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
        let message = NDEFMessage(records: [NDEFPayload.text(String(repeating: "a", count: 33_000), language: "en").record])
        #expect(throws: NDEFTags.WriteFailure.unsupported("the message ends past offset 32767, the last UPDATE BINARY can address")) {
            try NDEFTags.writeType4(exchange, message: message)
        }
        #expect(exchange.roundTrips == 9)
    }
}

/// A Type 4 tag that refuses UPDATE BINARY: before anything is written (the first write,
/// NLEN = 0), or after the old message is gone. The error says which.
@Suite struct Type4RefusedWriteTests {
    static let cc = "00 0F 20 00 FF 00 FF 04 06 E1 04 FF FE 00 00"
    /// The read procedure, the writer's CC read, then `writes`.
    static func tag(_ writes: [String]) throws -> CardExchange {
        let text = Type4HostileTagTests.reading(
            cc: cc, nlen: "00 00",
            then: ["> 00 A4 00 0C 02 E1 03", "< 90 00", "> 00 B0 00 00 0F", "< \(cc) 90 00", "> 00 A4 00 0C 02 E1 04", "< 90 00"] + writes)
        return CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
    }
    static let message = NDEFMessage(records: [NDEFPayload.text("hi", language: "en").record])

    @Test func aRefusalOfTheFirstWriteWroteNothing() throws {
        let exchange = try Self.tag(["> 00 D6 00 00 02 00 00", "< 69 82"])
        #expect(
            throws: NDEFTags.WriteFailure.refused("UPDATE BINARY at 0 answered 69 82 (security status not satisfied): nothing was written")
        ) {
            try NDEFTags.writeType4(exchange, message: Self.message)
        }
    }

    @Test func aRefusalAfterNLENWasClearedSaysTheMessageIsGone() throws {
        // The message: D1 01 05 'T' 02 "en" "hi", 9 bytes at offset 2.
        let exchange = try Self.tag([
            "> 00 D6 00 00 02 00 00", "< 90 00",
            "> 00 D6 00 02 09 D1 01 05 54 02 65 6E 68 69", "< 65 81",
        ])
        #expect(
            throws: NDEFTags.WriteFailure.refused(
                "UPDATE BINARY at 2 answered 65 81 (memory failure): the tag's NLEN is 0 now: it holds no message")
        ) {
            try NDEFTags.writeType4(exchange, message: Self.message)
        }
    }
}

/// A Type 2 tag's memory answering READ (`30 pp`: 16 bytes from page pp, rolling over at the
/// end as NTAG does; a page past the end is a NAK, `00`) and WRITE (`A2 pp d0…d3`: ACK `0A`),
/// counting the READs.
final class Type2TagMemory: CardChannel {
    var memory: [UInt8]
    var reads = 0
    init(pages: Int, capabilityContainer: [UInt8], data: [UInt8]) {
        memory = [0x04, 0xA1, 0xB2, 0x8F, 0xC3, 0xD4, 0xE5, 0xF6, 0x00, 0x48, 0x00, 0x00] + capabilityContainer + data
        memory += [UInt8](repeating: 0, count: pages * 4 - memory.count)
    }
    func transmit(_ command: [UInt8]) throws -> [UInt8] {
        let page = Int(command[1])
        switch command[0] {
        case 0x30:
            reads += 1
            guard page * 4 < memory.count else { return [0x00] }
            return (0..<16).map { memory[(page * 4 + $0) % memory.count] }
        case 0xA2:
            memory.replaceSubrange(page * 4..<(page * 4 + 4), with: command[2..<6])
            return [0x0A]
        default: return [0x00]
        }
    }
}

/// `ndef write` writes Type 2 pages up to 255, and `ndef read` reads as far: it stopped at page
/// 64, so a message over about 240 bytes on an NTAG215/216 was written and then failed its
/// read-back ("no NDEF TLV in the first 64 pages").
@Suite struct Type2LargeTagTests {
    /// An NTAG216 (231 pages; CC `E1 10 6D 00`: an 872-byte data area) holding no message.
    static func ntag216() -> Type2TagMemory {
        Type2TagMemory(pages: 231, capabilityContainer: [0xE1, 0x10, 0x6D, 0x00], data: [0x03, 0x00, 0xFE])
    }

    /// A tag as it leaves the factory: an NDEF TLV of length 0. No message, and room for one;
    /// it was "malformed: no NDEF records", so `ndef write` refused a blank tag.
    @Test func anInitialisedTagHasNoMessageAndIsWritable() throws {
        let tag = Self.ntag216()
        let (status, message) = try NDEFTags.readType2(CardExchange(channel: tag))
        #expect(message == nil)
        #expect(status == NDEFStatus(access: .readWrite, capacity: 867))
        #expect(tag.reads == 2, "pages 0–7: the TLV is whole")
    }

    @Test func aMessagePastPage64IsWrittenAndReadBack() throws {
        let tag = Self.ntag216()
        let message = NDEFMessage(records: [NDEFPayload.text(String(repeating: "b", count: 600), language: "en").record])
        try NDEFTags.writeType2(CardExchange(channel: tag), message: message)
        // The record: C1 01, payload length 00 00 02 5B (603: status byte, "en", 600 letters),
        // 'T'; 610 bytes in a TLV 03 FF 02 62, its terminator at byte 16 + 4 + 610 = 630: page 157.
        #expect(Array(tag.memory[16..<27]) == [0x03, 0xFF, 0x02, 0x62, 0xC1, 0x01, 0x00, 0x00, 0x02, 0x5B, 0x54])
        #expect(tag.memory[630] == 0xFE)
        tag.reads = 0
        let (status, read) = try NDEFTags.readType2(CardExchange(channel: tag))
        #expect(read == message)
        #expect(status == NDEFStatus(access: .readWrite, capacity: 867))
        #expect(tag.reads == 40, "pages 0–159: as far as the TLV's end, no further")
    }

    /// A tag whose CC claims 2,040 bytes and whose TLV claims 4,096: 64 READs, pages 0–255,
    /// then malformed; never a page number past 255.
    @Test func aTagWithNoTLVEndIsReadToPage255AndNoFurther() throws {
        let tag = Type2TagMemory(pages: 256, capabilityContainer: [0xE1, 0x10, 0xFF, 0x00], data: [0x03, 0xFF, 0x10, 0x00])
        let error = try Self.failure { try NDEFTags.readType2(CardExchange(channel: tag)) }
        #expect(
            error.map { "\($0.message)" }
                == "the tag's NDEF data is malformed: NDEF record at byte 20 declares 4096 byte(s) but only 1004 remain")
        #expect(tag.reads == 64)
    }

    /// An NTAG215 (135 pages; CC `E1 10 3E 00`: 496 bytes, pages 4–127) whose TLV claims 600
    /// bytes: read to page 127, its data area's end, and no further (it read on to page 136,
    /// past the tag, and the NAK became the error).
    @Test func aTLVLongerThanTheDataAreaStopsAtItsEnd() throws {
        let tag = Type2TagMemory(pages: 135, capabilityContainer: [0xE1, 0x10, 0x3E, 0x00], data: [0x03, 0xFF, 0x02, 0x58])
        let error = try Self.failure { try NDEFTags.readType2(CardExchange(channel: tag)) }
        #expect(
            error.map { "\($0.message)" }
                == "the tag's NDEF data is malformed: NDEF record at byte 20 declares 600 byte(s) but only 492 remain")
        #expect(tag.reads == 32)
    }

    /// A MIFARE Ultralight with no NDEF capability container: one READ, then "not NDEF".
    @Test func aTagWithNoCapabilityContainerIsNotNDEF() throws {
        let tag = Type2TagMemory(pages: 16, capabilityContainer: [0x00, 0x00, 0x00, 0x00], data: [])
        #expect(throws: NDEFTags.Failure.notNDEF("no NDEF capability container (E1) at page 3")) {
            try NDEFTags.readType2(CardExchange(channel: tag))
        }
        #expect(tag.reads == 1)
    }

    /// The read's failure, or nil when it read.
    static func failure(_ read: () throws -> (NDEFStatus, NDEFMessage?)) throws -> NDEFTags.Failure? {
        do { _ = try read() } catch let e as NDEFTags.Failure { return e }
        return nil
    }
}

/// Found by the fuzzer (target ndef-tags): a Type 4 tag announcing an NLEN past what READ
/// BINARY can address (offsets 0…32767) trapped building the command; it is a malformed tag.
@Suite struct Type4HostileTagTests {
    /// A transcript of the Type 4 read procedure up to NLEN (T4T §5.4): the NDEF application,
    /// the capability container `cc`, the NDEF file and its first two bytes; then `more`.
    static func reading(cc: String, nlen: String, then more: [String] = []) -> String {
        ([
            "# cardscan transcript 1",
            "> 00 A4 04 00 07 D2 76 00 00 85 01 01 00", "< 90 00",
            "> 00 A4 00 0C 02 E1 03", "< 90 00",
            "> 00 B0 00 00 02", "< 00 0F 90 00",
            "> 00 B0 00 00 0F", "< \(cc) 90 00",
            "> 00 A4 00 0C 02 E1 04", "< 90 00",
            "> 00 B0 00 00 02", "< \(nlen) 90 00",
        ] + more).joined(separator: "\n")
    }

    @Test func anNLENPastTheAddressableFileIsMalformedNotATrap() throws {
        let text = Self.reading(cc: "00 0F 20 00 FF 00 FF 04 06 E1 04 FF FF 00 00", nlen: "FF FF")
        let exchange = CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
        #expect(
            throws: NDEFTags.Failure.malformed("NLEN 65535 is past what the NDEF file can hold (65533 bytes, readable up to offset 32767)")
        ) {
            try NDEFTags.readType4(exchange)
        }
    }

    /// The boundary: a message ending at byte 32767 is read (its first READ BINARY goes out, and
    /// meets the transcript's end); one byte more is malformed, before any READ of it.
    @Test func anNLENEndingAtOffset32767IsTheLast() throws {
        let cc = "00 0F 20 00 FF 00 FF 04 06 E1 04 FF FE 00 00"
        #expect(try Type4CapabilityContainer(parsing: Hex.parse(cc)).addressableNLEN == 32766)
        let past = CardExchange(channel: ReplayChannel(try Transcript(parsing: Self.reading(cc: cc, nlen: "7F FF"))))
        #expect(
            throws: NDEFTags.Failure.malformed("NLEN 32767 is past what the NDEF file can hold (65532 bytes, readable up to offset 32767)")
        ) {
            try NDEFTags.readType4(past)
        }
        #expect(past.roundTrips == 6)
        let last = CardExchange(channel: ReplayChannel(try Transcript(parsing: Self.reading(cc: cc, nlen: "7F FE"))))
        do {
            _ = try NDEFTags.readType4(last)
            Issue.record("read a message the transcript does not hold")
        } catch {
            #expect(!(error is NDEFTags.Failure), "\(error)")
        }
        #expect(last.roundTrips == 7, "the six of the procedure, and the first READ BINARY of the message")
    }
}

/// A message NDEF cannot encode is refused by name, never a trap.
@Suite struct NDEFLimitTests {
    @Test func aTypeLongerThan255BytesIsRefusedBeforeWriting() throws {
        let long = NDEFMessage(records: [NDEFRecord(tnf: .media, type: Array(repeating: 0x61, count: 300), payload: [1])])
        #expect(throws: NDEFError.fieldTooLong(field: "type", count: 300)) { try long.checkEncodable() }
        #expect(long.encoded[1] == 255)  // cut, not trapped
        let ok = NDEFMessage(records: [NDEFRecord(tnf: .media, type: Array("text/plain".utf8), payload: [1])])
        #expect(throws: Never.self) { try ok.checkEncodable() }
    }
}

/// Writing to a tag that is not writable says so (it was reported as a malformed payload).
@Suite struct NDEFWritableTests {
    @Test func aReadOnlyTagIsNotWritableNotMalformed() throws {
        let status = NDEFStatus(access: .readOnly, capacity: 46)
        let m = NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: [0x54], payload: [0x02, 0x65, 0x6E, 0x68, 0x69])])
        #expect(throws: NDEFError.notWritable(access: "read-only")) { try status.check(writing: m) }
    }
}
