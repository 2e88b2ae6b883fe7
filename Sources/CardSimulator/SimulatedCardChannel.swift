import APDU

/// A virtual card (a card image or a transcript, as cardsim serves it) behind an in-process
/// reader: the command APDUs a PC/SC reader would carry to it — pseudo-APDUs for a FeliCa card
/// or a Type 2 tag, as the lab's virtual reader answers them — with no pcscd or vpcd between.
/// `cardscan read` reads images and dumps through it.
public final class SimulatedCardChannel: CardChannel {
    /// The card served.
    public let card: VirtualCard

    /// Powers the card on, as a reader does when it is presented.
    public init(_ card: VirtualCard) {
        self.card = card
        _ = card.handle([0x01])
    }

    /// The ATR (or the contactless pseudo-ATR) the card presents.
    public var atr: [UInt8] { card.atr }

    /// The card's answer to `command`; a card that leaves (a transcript's `! removed`, fault
    /// injection) or falls silent is a transport failure, as it is through a reader.
    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        switch card.handle(command) {
        case .send(let answer): return answer
        case .nothing: return []
        case .removed: throw SimulatedCardFailure(failure: .removed)
        case .mute: throw SimulatedCardFailure(failure: .timeout)
        }
    }
}

/// A simulated card that left or fell silent.
public struct SimulatedCardFailure: CardTransportError, Equatable {
    /// What happened, in the terms transcripts record.
    public let failure: TransportFailure
    /// Says what happened.
    public var message: String {
        switch failure {
        case .removed: return "the card left (its image or transcript ends there)"
        case .timeout: return "the card stopped answering"
        case .other(let name): return "transport error \(name)"
        }
    }
    /// No advice: the file says so.
    public var hint: String? { nil }
}
