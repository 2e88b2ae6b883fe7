import APDU

/// A MIFARE Classic card through a PC/SC contactless reader, as a channel that takes the
/// PN532's frames (ClassicCommand): AUTHENTICATE `60`/`61 BLOCK KEY UID` becomes LOAD KEY
/// `FF 82 00 00 06 KEY` (volatile slot 0) and GENERAL AUTHENTICATE
/// `FF 86 00 00 05 01 00 BLOCK 60|61 00`; READ `30 BLOCK` becomes READ BINARY `FF B0 00 BLOCK 10`
/// (PC/SC part 3; the ACS ACR122U API); WRITE `A0 BLOCK DATA` (sent only by `ndef write`, which
/// the user asks for) becomes UPDATE BINARY `FF D6 00 BLOCK 10 DATA`. So the Classic code that runs over libnfc runs unchanged
/// over pcscd. A refused key or read throws ``PseudoAPDUError`` with an `other` failure: a
/// refusal, not a lost card. The reader's pseudo-ATR names the card: card name 00 01 (1K),
/// 00 02 (4K), 00 26 (Mini).
public final class PCSCClassicChannel: CardChannel {
    /// The channel the pseudo-APDUs go through.
    public let apdus: CardChannel

    /// A channel over `apdus`.
    public init(apdus: CardChannel) { self.apdus = apdus }

    /// The card's size from a pseudo-ATR: 1K, 4K or Mini; nil for any other ATR.
    public static func kind(atr: [UInt8]) -> (sectors: Int, name: String)? {
        guard let p = PseudoATR(atr), p.standard == 0x03 else { return nil }
        switch p.cardName {
        case 0x0001: return (16, "1k")
        case 0x0002: return (40, "4k")
        case 0x0026: return (5, "mini")
        default: return nil
        }
    }

    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        switch (command.first, command.count) {
        case (0x60, 12), (0x61, 12):
            let load = try apdus.transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + command[2..<8])
            guard load == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "LOAD KEY", answer: load, failure: .other("LOAD KEY"))
            }
            let auth = try apdus.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, command[1], command[0], 0x00])
            guard auth == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "authentication of block \(command[1])", answer: auth, failure: .other("refused"))
            }
            return []
        case (0x30, 2):
            let answer = try apdus.transmit([0xFF, 0xB0, 0x00, command[1], 0x10])
            guard answer.count == 18, answer.suffix(2) == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "READ of block \(command[1])", answer: answer, failure: .other("refused"))
            }
            return Array(answer.prefix(16))
        case (0xA0, 18):
            let answer = try apdus.transmit([0xFF, 0xD6, 0x00, command[1], 0x10] + command[2...])
            guard answer == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "WRITE of block \(command[1])", answer: answer, failure: .other("refused"))
            }
            return []
        default:
            throw PseudoAPDUError(
                operation: "Classic command \(command.hexString)", answer: [], failure: .other("not AUTHENTICATE, READ or WRITE"))
        }
    }
}
