import APDU

/// An NFC Forum Type 2 tag (NTAG, MIFARE Ultralight) through a PC/SC contactless reader, as
/// a channel that takes the tag's own commands: READ `30 PAGE` (16 bytes: 4 pages) becomes the
/// PC/SC part 3 storage-card READ BINARY `FF B0 00 PAGE 10`, WRITE `A2 PAGE D0 D1 D2 D3`
/// becomes UPDATE BINARY `FF D6 00 PAGE 04 D0 D1 D2 D3` (answered with an empty ACK). So the
/// Type 2 code that runs over libnfc runs unchanged over pcscd.
///
/// The reader presents such a tag with the pseudo-ATR `3B 8F 80 01 80 4F 0C A0 00 00 03 06`
/// `03 00 03 …`: standard 03 (ISO 14443-A part 3), card name 00 03 (MIFARE Ultralight; NTAG
/// tags are named so too). Source: PC/SC part 3 supplement tables as the Gemalto Prox-DU and
/// Identiv reader manuals reproduce them.
public final class PCSCType2Channel: CardChannel {
    /// The channel the pseudo-APDUs go through: a ``PCSCCard``, or any that answers as the reader does.
    public let apdus: CardChannel

    /// A channel over `apdus`, without looking at an ATR.
    public init(apdus: CardChannel) { self.apdus = apdus }

    /// Nil unless `atr` is the pseudo-ATR of an Ultralight-family (Type 2) tag.
    public convenience init?(apdus: CardChannel, atr: [UInt8]) {
        guard Self.isType2(atr: atr) else { return nil }
        self.init(apdus: apdus)
    }

    /// Whether `atr` is a pseudo-ATR of standard 03 and card name 00 03 (``PseudoATR/isType2``).
    public static func isType2(atr: [UInt8]) -> Bool { PseudoATR(atr)?.isType2 ?? false }

    /// Carries READ `30 PAGE` (returns the 16 bytes) or WRITE `A2 PAGE` + 4 bytes (returns
    /// none); throws ``PseudoAPDUError`` for any other command, or when the reader's answer is
    /// not the data and `90 00`.
    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        switch (command.first, command.count) {
        case (0x30, 2):
            let answer = try apdus.transmit([0xFF, 0xB0, 0x00, command[1], 0x10])
            guard answer.count == 18, answer.suffix(2) == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "Type 2 READ of page \(command[1])", answer: answer, failure: .other("READ BINARY"))
            }
            return Array(answer.prefix(16))
        case (0xA2, 6):
            let answer = try apdus.transmit([0xFF, 0xD6, 0x00, command[1], 0x04] + command[2...])
            guard answer == [0x90, 0x00] else {
                throw PseudoAPDUError(operation: "Type 2 WRITE of page \(command[1])", answer: answer, failure: .other("UPDATE BINARY"))
            }
            return []
        default:
            throw PseudoAPDUError(operation: "Type 2 command \(command.hexString)", answer: [], failure: .other("not a READ or WRITE"))
        }
    }
}
