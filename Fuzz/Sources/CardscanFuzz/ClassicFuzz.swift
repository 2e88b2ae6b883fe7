import APDU
import CardSimulator
import Foundation
import MIFARECommands

/// The MIFARE Classic parsers: key files (byte 0 picks the name the format is told by, the rest
/// is the file), the card image and what its simulated card answers to the PC/SC pseudo-APDUs
/// and the PN532's frames, a dump over arbitrary answers, and the application directory and
/// access conditions of arbitrary sector bytes.
enum ClassicFuzz {
    static let names = ["k.keys", "k.dic", "hf-mf-01020304-key.bin", "k.farebotkeys", "k.json"]

    static func run(_ b: [UInt8]) {
        guard let first = b.first else { return }
        let body = Array(b.dropFirst())
        _ = try? ClassicKeys.parse(body, file: names[Int(first) % names.count])
        if let image = try? JSONDecoder().decode(ClassicCardImage.self, from: Data(body)), let contents = try? image.contents() {
            let card = ClassicImageCard(contents)
            let key = contents.sectors.first??.keyA ?? [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
            _ = card.pcscAnswer([0xFF, 0x82, 0x00, 0x00, 0x06] + key)
            for block in [0, 3, 4, 63, 255] {
                _ = card.pcscAnswer([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, UInt8(block), 0x60, 0x00])
                _ = card.pcscAnswer([0xFF, 0xB0, 0x00, UInt8(block), 0x10])
                card.reset()
                _ = card.answer(ClassicCommand.authenticate(block: UInt8(block), keyB: true, key: key, uid: contents.uid))
                _ = card.answer(ClassicCommand.read(block: UInt8(block)))
            }
        }
        var frames: [[UInt8]] = []
        var rest = body[...]
        while let n = rest.first {
            frames.append(Array(rest.dropFirst().prefix(Int(n))))
            rest = rest.dropFirst(1 + Int(n))
        }
        let channel = FrameScript(frames)
        _ = ClassicDump.run(uid: [1, 2, 3, 4], atqa: [0, 4], sak: 8, kind: .mini, keys: [], transmit: channel.transmit)
        // Sector 0 and sector 16 as 16-byte blocks of the input (padded), as a card could hold them.
        let padded = body + [UInt8](repeating: 0, count: max(0, 112 - body.count))
        let blocks = stride(from: 0, to: 112, by: 16).map { Array(padded[$0..<$0 + 16]) }
        if let mad = ClassicMAD.decode(sector0: Array(blocks[0..<4]), sector16: Array(blocks[4..<7])) { _ = mad.entries.map(\.name) }
        if let access = AccessBits(padded[6], padded[7], padded[8]) { _ = (0..<4).map { access.describe(block: $0) } }
    }
}
