import APDU
import FeliCaCommands
import NDEF
import PCSCTransport

/// The NFC Forum tag procedures (Type 2, 3, 4) and a PC/SC reader's FeliCa pseudo-APDUs
/// against a tag or reader that answers anything.
enum TagFuzz {
    static func run(_ b: [UInt8]) {
        guard let first = b.first else { return }
        let exchange = CardExchange(channel: ScriptedChannel(Array(b.dropFirst())))
        switch first % 3 {
        case 0: _ = try? NDEFTags.readType2(exchange)
        case 1: _ = try? NDEFTags.readType3(exchange, idm: [0x01, 0x2E, 0x4C, 0xD0, 0x1A, 0x2B, 0x3C, 0x4D])
        default: _ = try? NDEFTags.readType4(exchange)
        }
    }

    static func pseudoAPDU(_ b: [UInt8]) {
        guard let first = b.first else { return }
        let felica = PCSCFeliCaChannel(apdus: ScriptedChannel(Array(b.dropFirst())), wrapping: first & 1 == 0 ? .direct : .pn532)
        _ = try? felica.poll(systemCode: 0x0003)
        _ = try? felica.transmit([0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])
        let type2 = PCSCType2Channel(apdus: ScriptedChannel(Array(b.dropFirst())))
        _ = try? type2.transmit([0x30, 0x04])
    }
}
