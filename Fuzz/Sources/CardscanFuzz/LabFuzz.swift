import CardSimulator
import Foundation

/// The lab's card simulator as the outside world drives it: vpcd's messages (from pcscd) and a
/// PN532's serial frames (from libnfc), over each kind of card file cardsim serves. Byte 0
/// picks the card; the rest is what arrives on the socket or the serial line.
enum LabFuzz {
    /// Card files of every kind, from the repository (loaded afresh for each input: cards keep
    /// state, such as a selected file or written memory, which must not leak between inputs).
    /// Bytes, not `Data`: LeakSanitizer cannot follow `Data`'s tagged storage pointer from a
    /// global and would report the files as leaked.
    static let cards: [(file: String, bytes: [UInt8])] = [
        "Tests/Fixtures/shanghai-transit/full-read.apdu",  // ISO 7816 transcript: lenient replay
        "Tests/LabCards/type4-ndef.apdu",  // ISO 7816 transcript with NDEF files (TagMemory)
        "Tests/LabCards/type2-ndef.apdu",  // Type 2 tag behind a storage-card reader
        "Tests/Fixtures/octopus/real-card-920.apdu",  // FeliCa transcript
        "Tests/LabCards/pasmo-image.json",  // FeliCa card image
        "Tests/LabCards/navigo-image.json",  // ISO 7816 card image
        "Tests/LabCards/intercode-image.json",  // ISO 7816 card image, ISO 14443 type B
        "Tests/LabCards/at-hop-image.json",  // DESFire card image
    ].map { path in
        let file = Fuzz.root.appendingPathComponent(path).path
        guard let data = FileManager.default.contents(atPath: file) else { fatalError("fuzz: no lab card \(file)") }
        return (file, [UInt8](data))
    }

    /// vpcd: byte 0 picks the card (low 3 bits) and options (bit 3 ACR122 framing for FeliCa,
    /// bit 4 one application of several, bit 5 removed after 3 answers, bit 6 mute after 2);
    /// the rest is vpcd's stream: a 2-byte big-endian length, then that many bytes, again and again.
    static func vpcd(_ b: [UInt8]) {
        let card = cards[Int((b.first ?? 0) & 7)]  // the empty warm-up input loads the cards
        guard let first = b.first else { return }
        var options = VirtualCardOptions()
        options.acr122 = first & 0x08 != 0
        options.multiApp = first & 0x10 != 0
        options.removeAfter = first & 0x20 != 0 ? 3 : nil
        options.muteAfter = first & 0x40 != 0 ? 2 : nil
        guard let virtual = try? VirtualCard.load(Data(card.bytes), file: card.file, options: options) else { return }
        var rest = b.dropFirst()
        while rest.count >= 2 {
            let n = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
            let body = Array(rest.dropFirst(2).prefix(n))
            rest = rest.dropFirst(2 + n)
            switch virtual.handle(body) {
            case .removed: return
            case .send(let answer): precondition(answer.count <= 0xFFFF, "an answer vpcd cannot carry")
            case .nothing, .mute: continue
            }
        }
    }

    /// PN532: byte 0 picks the card (low 3 bits; the DESFire and type B cards come as images);
    /// the rest is the serial line, delivered in two reads split where byte 0's high bits say
    /// (so frames arrive cut in the middle).
    static func pn532(_ b: [UInt8]) {
        let card = cards[Int((b.first ?? 0) & 7)]
        guard let first = b.first else { return }
        guard let emulator = try? PN532Emulator.load(Data(card.bytes), file: card.file, removeAfter: nil, silentAfter: nil, verbose: false)
        else { return }
        let line = Array(b.dropFirst())
        let cut = min(line.count, Int(first >> 3) * 8)
        var buffer: [UInt8] = []
        for chunk in [line[..<cut], line[cut...]] {
            buffer += chunk
            for frame in PN532Frame.extract(from: &buffer) {
                let reply = emulator.reply(to: frame)
                precondition(reply.starts(with: PN532Frame.ack), "every host frame is acknowledged")
            }
        }
    }
}
