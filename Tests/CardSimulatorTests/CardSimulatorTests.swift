import APDU
import CardSimulator
import Foundation
import Testing

/// The lab's card simulator without sockets: vpcd's messages and a PN532's serial frames
/// handed to the cards directly (the lab tests drive the same code through pcscd and libnfc).
@Suite struct VirtualCardTests {
    static let transcript = """
        # cardscan transcript 1
        # technology: iso7816
        # atr: 3B 02 14 50
        > 00 A4 04 00 02 3F 00
        < 90 00
        > 00 B0 00 00 04
        < 01 02 03 04 90 00
        """

    func card(_ configure: (inout VirtualCardOptions) -> Void = { _ in }) throws -> VirtualCard {
        var options = VirtualCardOptions()
        configure(&options)
        return try VirtualCard.load(Data(Self.transcript.utf8), file: "card.apdu", options: options)
    }

    @Test func controlCodesPowerAndATR() throws {
        let c = try card()
        #expect(c.handle([0x04]) == .send([0x3B, 0x02, 0x14, 0x50]))
        #expect(c.handle([0x01]) == .nothing)
        #expect(c.handle([0x00]) == .nothing)
        #expect(c.handle([]) == .nothing)
        #expect(c.handle([0x00, 0xB0, 0x00, 0x00, 0x04]) == .send([0x01, 0x02, 0x03, 0x04, 0x90, 0x00]))
        // Lenient replay: a command the transcript does not hold gets 6D 00.
        #expect(c.handle([0x00, 0xCA, 0x9F, 0x7F, 0x00]) == .send([0x6D, 0x00]))
    }

    @Test func theATROptionWins() throws {
        let c = try card { $0.atr = [0x3B, 0x00] }
        #expect(c.handle([0x04]) == .send([0x3B, 0x00]))
    }

    @Test func removedAfterNAnswersUntilPresentedAgain() throws {
        let c = try card { $0.removeAfter = 1 }
        #expect(c.handle([0x00, 0xA4, 0x04, 0x00, 0x02, 0x3F, 0x00]) == .send([0x90, 0x00]))
        #expect(c.handle([0x00, 0xB0, 0x00, 0x00, 0x04]) == .removed)
        c.present()
        #expect(c.handle([0x00, 0xA4, 0x04, 0x00, 0x02, 0x3F, 0x00]) == .send([0x90, 0x00]))
    }

    @Test func muteAfterNAnswers() throws {
        let c = try card { $0.muteAfter = 0 }
        #expect(c.handle([0x00, 0xB0, 0x00, 0x00, 0x04]) == .mute)
    }

    @Test func anAnswerVPCDCannotCarryIsACardFault() throws {
        // vpcd's length prefix is 2 bytes: 70,000 bytes of answer would not fit (cardsim trapped).
        let big = String(repeating: "AB ", count: 70_000)
        let text = "# cardscan transcript 1\n# technology: iso7816\n# atr: 3B 00\n> 00 B0 00 00 00\n< \(big)90 00\n"
        let c = try VirtualCard.load(Data(text.utf8), file: "big.apdu", options: .init())
        #expect(c.handle([0x00, 0xB0, 0x00, 0x00, 0x00]) == .send([0x6F, 0x00]))
    }

    /// Found by an audit: a Read Without Encryption of 16 blocks (the limit is 15) made the
    /// answer 269 bytes long, and cardsim trapped writing its length byte. It answers A2 now.
    @Test func aFeliCaReadOfSixteenBlocksIsRefusedNotATrap() throws {
        let block = String(repeating: "00 ", count: 16)
        let image = """
            { "idm": "01 2E 00 00 00 00 00 01", "pmm": "00 00 00 00 00 00 00 00",
              "systems": [{ "code": "0003", "services": { "008B": ["\(block)"] } }] }
            """
        let c = try VirtualCard.load(Data(image.utf8), file: "image.json", options: .init())
        let frame: [UInt8] =
            [0x2E, 0x06, 0x01, 0x2E, 0, 0, 0, 0, 0, 0x01, 0x01, 0x8B, 0x00, 0x10]
            + Array(repeating: [0x80, 0x00], count: 16).flatMap { $0 }
        #expect(
            c.handle([0xFF, 0x00, 0x00, 0x00, UInt8(frame.count)] + frame)
                == .send([0x0C, 0x07, 0x01, 0x2E, 0, 0, 0, 0, 0, 0x01, 0xFF, 0xA2, 0x90, 0x00]))
        // 15 blocks are read (block 0 fifteen times).
        let fifteen: [UInt8] =
            [0x2C, 0x06, 0x01, 0x2E, 0, 0, 0, 0, 0, 0x01, 0x01, 0x8B, 0x00, 0x0F]
            + Array(repeating: [0x80, 0x00], count: 15).flatMap { $0 }
        guard case .send(let answer) = c.handle([0xFF, 0x00, 0x00, 0x00, UInt8(fifteen.count)] + fifteen) else {
            Issue.record("no answer to 15 blocks")
            return
        }
        #expect(answer.count == 13 + 15 * 16 + 2 && answer[0] == 0xFD && answer[10...12] == [0x00, 0x00, 0x0F])
    }

    /// The same for a FeliCa transcript served with its memory: a block written through 0009,
    /// then read 16 times through 000B, trapped building the answer. More than 15 blocks are
    /// not the memory's to answer: the transcript's turn (it holds no such read: 63 00).
    @Test func aFeliCaTranscriptReadOfSixteenBlocksIsNotATrap() throws {
        let text = """
            # cardscan transcript 1
            # technology: felica
            # idm: 01 01 07 01 E1 12 34 56
            # pmm: 00 F1 00 00 00 01 43 00
            # system-code: 12 FC
            > 10 06 01 01 07 01 E1 12 34 56 01 0B 00 01 80 00
            < 1D 07 01 01 07 01 E1 12 34 56 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
            """
        let c = try VirtualCard.load(Data(text.utf8), file: "tag.apdu", options: .init())
        let idm: [UInt8] = [0x01, 0x01, 0x07, 0x01, 0xE1, 0x12, 0x34, 0x56]
        let write: [UInt8] = [0x20, 0x08] + idm + [0x01, 0x09, 0x00, 0x01, 0x80, 0x00] + Array(repeating: 0xAB, count: 16)
        #expect(c.handle([0xFF, 0x00, 0x00, 0x00, UInt8(write.count)] + write) == .send([0x0C, 0x09] + idm + [0x00, 0x00, 0x90, 0x00]))
        let read: [UInt8] = [0x2E, 0x06] + idm + [0x01, 0x0B, 0x00, 0x10] + Array(repeating: [0x80, 0x00], count: 16).flatMap { $0 }
        #expect(c.handle([0xFF, 0x00, 0x00, 0x00, UInt8(read.count)] + read) == .send([0x63, 0x00]))
    }

    @Test func aTranscriptWithoutATRNeedsOne() {
        let text = "# cardscan transcript 1\n# technology: iso7816\n> 00 B0 00 00 01\n< 01 90 00\n"
        #expect(throws: CardFileError.noATR) { try VirtualCard.load(Data(text.utf8), file: "x.apdu", options: .init()) }
    }

    @Test func aBrokenCardFileNamesTheFile() {
        for text in ["# cardscan transcript 1\n> 00 B0 00 00 0\n", "{ \"technology\": \"iso7816\", \"atr\": 5 }"] {
            do {
                _ = try VirtualCard.load(Data(text.utf8), file: "broken.apdu", options: .init())
                Issue.record("\(text) loaded")
            } catch {
                #expect(error.description.contains("broken.apdu"), "\(error)")
            }
        }
    }
}

@Suite struct PN532FrameTests {
    /// A host frame (TFI D4) around `body`.
    static func frame(_ body: [UInt8]) -> [UInt8] { PN532Frame.command(body) }

    @Test func framesArriveAfterTheWakeUpAndAcrossReads() {
        let line = [0x55, 0x55, 0x00, 0x00, 0x00] + Self.frame([0x02]) + PN532Frame.ack + Self.frame([0x14, 0x01])
        var buffer = Array(line[..<9])
        #expect(PN532Frame.extract(from: &buffer) == [])  // the first frame is cut in the middle
        buffer += line[9...]
        #expect(PN532Frame.extract(from: &buffer) == [[0x02], [0x14, 0x01]])
        #expect(buffer.count <= 1)
    }

    @Test func badChecksumsAndForeignFramesAreDropped() {
        var badLCS = Self.frame([0x02])
        badLCS[4] ^= 1
        var badDCS = Self.frame([0x02])
        badDCS[badDCS.count - 2] ^= 1
        var fromDevice = Self.frame([0x02])
        fromDevice[5] = 0xD5  // a PN532's own answer, not a host command
        fromDevice[7] = UInt8((256 - (0xD5 + 0x02)) % 256)
        var buffer = badLCS + badDCS + fromDevice + Self.frame([0x4A, 0x01, 0x00])
        #expect(PN532Frame.extract(from: &buffer) == [[0x4A, 0x01, 0x00]])
    }

    @Test func framesCarryTheirChecksums() {
        #expect(PN532Frame.command([0x02]) == [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])  // GetFirmwareVersion
        let r = PN532Frame.response([0x03, 0x32, 0x01, 0x06, 0x07])
        #expect(r == [0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
        let long = PN532Frame.response([UInt8](repeating: 0x11, count: 300))
        #expect(Array(long.prefix(8)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x2D, 0xD2])  // extended frame, LEN 301
        // Past an extended frame's 2-byte length (a transcript's answer can be): an error frame,
        // where it trapped.
        #expect(PN532Frame.response([UInt8](repeating: 0x11, count: 70_000)) == PN532Frame.syntaxError)
    }

    @Test func theEmulatorAcknowledgesEveryFrame() throws {
        let text = "# cardscan transcript 1\n# technology: iso7816\n> 00 B0 00 00 01\n< 01 90 00\n"
        let pn532 = try PN532Emulator.load(Data(text.utf8), file: "t.apdu", removeAfter: nil, silentAfter: nil, verbose: false)
        #expect(pn532.reply(to: [0x02]) == PN532Frame.ack + PN532Frame.response([0x03, 0x32, 0x01, 0x06, 0x07]))
        #expect(pn532.reply(to: [0x7E]) == PN532Frame.ack + PN532Frame.syntaxError)  // a command it does not know
        // No card selected yet: InDataExchange times out (status 01).
        #expect(pn532.handle([0x40, 0x01, 0x00, 0xB0, 0x00, 0x00, 0x01]) == [0x41, 0x01])
        #expect(pn532.handle([0x4A, 0x01, 0x00])?.prefix(3) == [0x4B, 0x01, 0x01])
        #expect(pn532.handle([0x40, 0x01, 0x00, 0xB0, 0x00, 0x00, 0x01]) == [0x41, 0x00, 0x01, 0x90, 0x00])
        // Truncated register commands are answered without reading past the frame.
        #expect(pn532.handle([0x06, 0x63]) == [0x07])
        #expect(pn532.handle([0x08, 0x63, 0x05]) == [0x09])
    }
}
