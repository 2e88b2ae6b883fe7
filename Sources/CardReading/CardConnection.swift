import APDU
import FeliCaCommands
import Foundation
import NDEF

/// A presented card and the means to talk to it: what a detector hands to ``CardReader``.
///
/// The channel speaks the card's own language: ISO 7816 APDUs, whole FeliCa frames, or Type 2
/// tag commands, whatever carries them (a PC/SC reader's pseudo-APDUs, libnfc, a transcript).
public final class CardConnection {
    /// What the detector found.
    public let card: PresentedCard
    /// The card's own language: ISO 7816 APDUs, whole FeliCa frames, or Type 2 commands.
    public let channel: CardChannel
    /// The PC/SC reader name or libnfc connection string (`transcript` for a replay).
    public let reader: String
    /// The ATR or pseudo-ATR a PC/SC reader reported (recorded so a replay plays the same reader).
    public let atr: [UInt8]?
    /// FeliCa: Polling for another system code through the same transport.
    public let felicaPoller: FeliCaPoller?
    /// How the transport carries the card's commands, when that is worth saying (`frames in
    /// FF 00 00 00 pseudo-APDUs`), for verbose output.
    public var carriage: String?
    private let exclusive: ((() throws -> Void) throws -> Void)?
    private let closer: (() -> Void)?

    /// `exclusive` runs its argument with the card held for this connection alone (a PC/SC
    /// transaction); `close` releases the card.
    public init(
        card: PresentedCard, channel: CardChannel, reader: String, atr: [UInt8]? = nil,
        felicaPoller: FeliCaPoller? = nil, exclusive: ((() throws -> Void) throws -> Void)? = nil,
        close: (() -> Void)? = nil
    ) {
        self.card = card
        self.channel = channel
        self.reader = reader
        self.atr = atr
        self.felicaPoller = felicaPoller
        self.exclusive = exclusive
        closer = close
    }

    /// Runs `body` with the card held for this connection alone: over PC/SC inside one
    /// transaction (SCardBeginTransaction … SCardEndTransaction, PC/SC part 5 §3.1.3), so that
    /// no other client's SELECT or reset lands between a SELECT and the reads that depend on
    /// it. Other transports have one client by construction.
    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        guard let exclusive else { return try body() }
        var result: Result<T, Error>?
        try exclusive { result = Result { try body() } }
        return try result!.get()
    }

    /// Releases the card (PC/SC: SCardDisconnect, leaving it powered). Without it the card is
    /// released when the last user of its channel (an exchange, an NDEF tag) goes away.
    public func close() { closer?() }

    /// The transcript headers that describe this card and reader (docs/transcripts.md).
    public var transcriptHeaders: [Transcript.Header] {
        var h: [Transcript.Header] = [.init(.technology, card.technologyName)]
        switch card {
        case .iso7816(let c):
            if let uid = c.uid { h.append(.init(.uid, uid.hexString)) }
            if let pupi = c.pupi { h.append(.init(.pupi, pupi.hexString)) }
        case .felica(let t):
            h += [
                .init(.idm, t.idm.bytes.hexString), .init(.pmm, t.pmm.bytes.hexString),
                .init(.systemCode, t.systemCode.bigEndianBytes.hexString),
            ]
        case .type2Tag(let uid), .classic(let uid, _):
            if let uid { h.append(.init(.uid, uid.hexString)) }
        }
        if let atr { h.append(.init(.atr, atr.hexString)) }
        h.append(.init(.reader, reader))
        if case .iso7816(let c) = card, let p = c.transmissionProtocol { h.append(.init(.protocol, p)) }
        return h
    }

    /// The card as an NFC Forum tag, its commands going through `exchange` (which must wrap
    /// this connection's channel): a FeliCa card is a Type 3 tag when it answers Polling for
    /// the NDEF system 12FC (nil otherwise), a Type 2 tag is one, and an ISO 7816 card is
    /// asked for the Type 4 NDEF application.
    public func ndefTag(through exchange: CardExchange) throws -> NDEFTag? {
        switch card {
        case .felica:
            guard let target = try felicaPoller?(.ndef) else { return nil }
            return .type3(exchange, idm: target.idm)
        case .type2Tag: return .type2(exchange)
        case .iso7816: return .type4(exchange)
        case .classic(let uid?, let sectors): return .classic(exchange, uid: uid, sectors: sectors)
        case .classic: return nil
        }
    }
}
