import APDU
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import CardSimulator
@testable import ProfileLanguage
@testable import ReadEngine

/// `cardscan dump`'s walk against the image card (no I/O): what it reads back is the image it
/// read from, class 94 is found when 00 is refused, and a card removed mid-way leaves a
/// partial dump that keeps what was read.
@Suite struct ISO7816DumpTests {
    final class ImageChannel: CardChannel {
        let card: ISO7816ImageCard
        var removeAfter: Int?
        var sent = 0
        init(_ image: ISO7816CardImage) throws { card = ISO7816ImageCard(try image.contents()) }
        func transmit(_ command: [UInt8]) throws -> [UInt8] {
            sent += 1
            if let removeAfter, sent > removeAfter { throw ReplayedTransportFailure(failure: .removed, line: 0) }
            return card.respond(command)
        }
    }

    static let app: [UInt8] = Array("1TIC.ICA".utf8)
    static func image(classes: [UInt8] = [0x00], answers: [ISO7816CardImage.FixedAnswer]? = nil) -> ISO7816CardImage {
        ISO7816CardImage(
            atr: [0x3B, 0x88, 0x80, 0x01, 0, 0, 0, 0, 0x33, 0x81, 0x81, 0x00, 0x3A], typeB: true, classes: classes,
            files: [
                .init(sfi: 2, records: ["00 11 22 33"]),
                .init(
                    aid: app.hexString, fci: "6F 0A 84 08 31 54 49 43 2E 49 43 41",
                    files: [
                        .init(fid: "2001", sfi: 7, records: ["AA BB", "CC DD"]),
                        .init(fid: "2069", sfi: 25, records: ["01 02 03"]),
                        .init(fid: "0005", sfi: 5, binary: [UInt8](repeating: 0x5A, count: 300).hexString),
                    ]),
            ],
            answers: answers)
    }

    @Test func theDumpReadsBackTheFilesTheCardHolds() throws {
        let source = Self.image()
        let exchange = CardExchange(channel: try ImageChannel(source))
        let (dump, error) = ISO7816Dump.run(
            exchange: exchange, atr: try source.contents().atr, typeB: true, names: [try Hex.parse("A0 00 00 00 03"), Self.app])
        #expect(error == nil)
        #expect(!dump.partial)
        let mf = dump.image.files
        #expect(mf.count == 2)
        #expect(mf[0].sfi == 2 && mf[0].records == ["00 11 22 33"])
        #expect(mf[1].aid == Self.app.hexString && mf[1].fci == "6F 0A 84 08 31 54 49 43 2E 49 43 41")
        let df = mf[1].files ?? []
        #expect(df.map(\.sfi) == [5, 7, 25])
        #expect(df[1].records == ["AA BB", "CC DD"] && df[2].records == ["01 02 03"])
        #expect(df[0].binary == [UInt8](repeating: 0x5A, count: 300).hexString)  // 256 by SFI, then 44 at offset 256
        #expect(dump.image.iso14443 == "b" && dump.image.cla == ["00"])
        // The dump serves as a card again, and a second dump of it is the same image.
        let again = ISO7816Dump.run(
            exchange: CardExchange(channel: try ImageChannel(dump.image)), atr: try source.contents().atr, typeB: true,
            names: [Self.app]
        ).0
        #expect(again.image == dump.image)
    }

    @Test func classNinetyFourIsUsedWhenTheCardRefusesZero() throws {
        let source = Self.image(classes: [0x94])
        let (dump, error) = ISO7816Dump.run(
            exchange: CardExchange(channel: try ImageChannel(source)), atr: [0x3B, 0x80, 0x80, 0x01, 0x01], typeB: false,
            names: [Self.app])
        #expect(error == nil)
        #expect(dump.image.cla == ["94"])
        #expect(dump.image.files.count == 2 && dump.image.files[1].files?.count == 3)
    }

    @Test func proprietaryReadsOfTheProfilesBecomeAnswers() throws {
        let balance = CommandAPDU.getBalance()
        let source = Self.image(answers: [.init(command: "80 5C 00 02 04", response: "00 00 2A F8 90 00")])
        let (dump, _) = ISO7816Dump.run(
            exchange: CardExchange(channel: try ImageChannel(source)), atr: [0x3B, 0x80, 0x80, 0x01, 0x01], typeB: false,
            names: [Self.app], commands: { $0 == Self.app ? [balance] : [] })
        #expect(dump.image.answers == [.init(command: "80 5C 00 02 04", response: "00 00 2A F8 90 00")])
    }

    @Test func aCardRemovedMidWayLeavesAPartialDump() throws {
        let channel = try ImageChannel(Self.image())
        channel.removeAfter = 4  // SELECT MF, SFI 02 record 1, record 2 (6A 83), SFI 03 → removed
        let (dump, error) = ISO7816Dump.run(exchange: CardExchange(channel: channel), atr: [], typeB: false, names: [Self.app])
        #expect(dump.partial)
        #expect((error as? CardTransportError)?.failure == .removed)
        #expect(dump.exchanges == 5)
        // What was read before the card left is kept: the MF's SFI 02 (it was dropped).
        #expect(dump.image.files.map(\.sfi) == [2] && dump.image.files[0].records == ["00 11 22 33"])
    }

    /// Removed inside the application's folder: the folder and the files read in it stay.
    @Test func aCardRemovedInsideAFolderKeepsTheFolder() throws {
        let channel = try ImageChannel(Self.image())
        // The MF's 30 SFIs (SFI 02: two reads, 29 others: one each) = 31, SELECT = 32, the DF's
        // SFI 01–04 = 4 more (36); SFI 05 (a binary EF): 6981 for READ RECORD, then READ BINARY.
        channel.removeAfter = 38
        let (dump, _) = ISO7816Dump.run(exchange: CardExchange(channel: channel), atr: [], typeB: false, names: [Self.app])
        #expect(dump.partial)
        #expect(dump.image.files.count == 2 && dump.image.files[1].aid == Self.app.hexString)
    }

    @Test func theNamesComeFromTheProfilesSelectSteps() throws {
        let yaml = """
            id: t
            name: T
            currency: EUR
            steps:
              - select: { aid: [315449432E494341, A0000004040125090101], path: "2000" }
                as: app
              - command: 805C000204
                as: balance
              - select: { aid: A000000003 }
                as: other
            card:
              n: { from: balance, type: uint, length: 4 }
            """
        let profile = try ProfileLoader.load(yaml: yaml, file: "t.yaml")
        #expect(
            ISO7816Dump.applicationNames(of: [profile]) == [Self.app, try Hex.parse("A0000004040125090101"), try Hex.parse("A000000003")])
        #expect(ISO7816Dump.readCommands(of: [profile], in: Self.app) == [CommandAPDU.getBalance()])
        #expect(ISO7816Dump.readCommands(of: [profile], in: try Hex.parse("A000000003")).isEmpty)
    }
}
