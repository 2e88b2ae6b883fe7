import APDU
import CardProfiles
import CardSimulator
import Foundation
import MIFARECommands

/// The MIFARE Ultralight parsers: the card image (JSON) and what its simulated chip answers,
/// and a tag's answers as the page reader and `cardscan ultralight`'s dump take them.
enum UltralightFuzz {
    static func run(_ b: [UInt8]) {
        if let image = try? JSONDecoder().decode(UltralightCardImage.self, from: Data(b)), let contents = try? image.contents() {
            let card = UltralightImageCard(contents)
            for page in [0, 3, 4, 15, 16, 44, 255] {
                _ = card.answer([0x30, UInt8(page)])
                _ = card.pcscAnswer([0xFF, 0xB0, 0x00, UInt8(page), 0x10])
            }
            for command: [UInt8] in [
                [0x60], [0x60, 0xF8, 0x32], [0x39, 0], [0x39, 2], [0x39, 9], [0x3C, 0], [0x1A, 0], [0xA2, 4, 1, 2, 3, 4],
            ] {
                _ = card.answer(command)
            }
            _ = UltralightPageRoles.staticLocks(contents.pages)
        }
        // The bytes as a tag's answers, each preceded by its length: the page reader, then a dump.
        var frames: [[UInt8]] = []
        var rest = b[...]
        while let n = rest.first {
            frames.append(Array(rest.dropFirst().prefix(Int(n))))
            rest = rest.dropFirst(1 + Int(n))
        }
        _ = try? UltralightPages.read(FrameScript(frames), pages: 0...15)
        let (dump, _) = UltralightDump.run(exchange: CardExchange(channel: FrameScript(frames)), uid: nil)
        _ = dump.json
    }
}
