import APDU
import FeliCaCommands
import PCSCTransport

/// What is on a PC/SC reader, told by its ATR: a contactless reader's PC/SC part 3
/// pseudo-ATR names a FeliCa card (frames in pseudo-APDUs) or a MIFARE Ultralight/NTAG
/// (Type 2: pages through READ BINARY pseudo-APDUs); anything else is an ISO 7816 card.
public enum PCSCDetector {
    /// Connects to the card on `reader` and tells what it is. `transmitTimeout` bounds each
    /// command, and each wait for the reader (connecting, beginning a transaction): pcsc-lite
    /// has no time-out of its own.
    public static func connect(_ context: PCSCContext, reader: String, transmitTimeout: Duration? = .seconds(5)) throws -> CardConnection {
        let card = try context.connect(to: reader, timeout: transmitTimeout)
        card.transmitTimeout = transmitTimeout
        return try detect(card)
    }

    /// The presented card behind a connected `card`. A FeliCa card is polled once (for any
    /// system) to learn its IDm; one that does not answer is a reader failure.
    public static func detect(_ card: PCSCCard) throws -> CardConnection {
        try detect(
            channel: card, atr: card.atr, reader: card.reader, transmissionProtocol: card.activeProtocol.contains(.t1) ? "T=1" : "T=0",
            exclusive: { body in try card.withTransaction(body) }, close: { card.disconnect() })
    }

    /// The presented card behind `channel`, whatever carries its APDUs (a PC/SC card, a card
    /// image served in-process), told by `atr` as a PC/SC reader tells it: a contactless
    /// pseudo-ATR names a FeliCa card or a Type 2 tag, anything else is an ISO 7816 card.
    public static func detect(
        channel: CardChannel, atr: [UInt8], reader: String, transmissionProtocol: String? = nil,
        exclusive: ((() throws -> Void) throws -> Void)? = nil, close: (() -> Void)? = nil
    ) throws -> CardConnection {
        if let type2 = PCSCType2Channel(apdus: channel, atr: atr) {
            return CardConnection(card: .type2Tag(uid: nil), channel: type2, reader: reader, atr: atr, exclusive: exclusive, close: close)
        }
        if let kind = PCSCClassicChannel.kind(atr: atr) {
            // The reader's GET DATA gives the UID the keys are sent with.
            let uid = (try? channel.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])).flatMap {
                $0.count > 2 && $0.suffix(2) == [0x90, 0x00] ? Array($0.dropLast(2)) : nil
            }
            return CardConnection(
                card: .classic(uid: uid, sectors: kind.sectors), channel: PCSCClassicChannel(apdus: channel), reader: reader, atr: atr,
                exclusive: exclusive, close: close)
        }
        if let felica = PCSCFeliCaChannel(apdus: channel, atr: atr) {
            guard let target = try felica.poll(systemCode: .wildcard) else {
                throw PseudoAPDUError(operation: "FeliCa Polling", answer: [], failure: .timeout)
            }
            let connection = CardConnection(
                card: .felica(target), channel: felica, reader: reader, atr: atr, felicaPoller: felica.poll, exclusive: exclusive,
                close: close)
            connection.carriage =
                felica.wrapping == .direct ? "frames in FF 00 00 00 pseudo-APDUs" : "frames in FF 00 00 00 … D4 40 01 pseudo-APDUs"
            return connection
        }
        let iso = PresentedCard.ISO7816Card(atr: atr, transmissionProtocol: transmissionProtocol)
        return CardConnection(card: .iso7816(iso), channel: channel, reader: reader, atr: atr, exclusive: exclusive, close: close)
    }
}
