/// One command/response round trip as it crossed the wire.
public struct WireExchange: Sendable {
    /// The bytes sent.
    public let command: [UInt8]
    /// The answer, or nil when the transport failed.
    public let response: [UInt8]?
    /// How the transport failed, or nil when it answered.
    public let failure: TransportFailure?
    /// How long the channel took to answer or fail.
    public let duration: Duration
    /// Bytes of `command` that are secrets (shown as `..`).
    public let secret: Range<Int>?
    /// Bits of `response` not to show (position → bits, FF the whole byte): personal data a
    /// read found there (the report's `personal` values), on top of
    /// ``CardholderDataRedaction``'s, which the trace works out itself.
    public var hidden: [Int: UInt8] = [:]

    /// An exchange from its parts; ``hidden`` starts empty.
    public init(command: [UInt8], response: [UInt8]?, failure: TransportFailure?, duration: Duration, secret: Range<Int>?) {
        self.command = command
        self.response = response
        self.failure = failure
        self.duration = duration
        self.secret = secret
    }
}

/// The exchange layer over any ``CardChannel`` (ISO/IEC 7816-3 §12.2 and 7816-4 §5.1.3):
/// T=0 response handling, round-trip counting and an observer for traces.
///
/// - `61 xx`: GET RESPONSE (`00 C0 00 00 xx`) is sent while SW1 = 61, and the data of all
///   answers is joined; the status word is that of the last answer.
/// - `6C xx`: the same command is sent once more with Le = xx.
///
/// Turn `handlesT0` off to see the raw answers.
public final class CardExchange {
    /// The channel every round trip goes through.
    public let channel: CardChannel
    /// Whether ``send(_:)`` resolves `61 xx` and `6C xx` itself (the default);
    /// ``transmit(_:)`` never does.
    public var handlesT0: Bool
    /// Every round trip made through this exchange, GET RESPONSE and re-sends included.
    public private(set) var roundTrips = 0
    /// Called after each round trip (also a failed one), in order.
    public var observer: ((WireExchange) -> Void)?
    /// GET RESPONSE rounds allowed for one command before giving up.
    public var maximumGetResponseRounds = 64

    /// An exchange layer over `channel`, with T=0 handling on unless `handlesT0` is false.
    public init(channel: CardChannel, handlesT0: Bool = true) {
        self.channel = channel
        self.handlesT0 = handlesT0
    }

    /// Why ``send(_:)`` failed although the channel answered.
    public enum Error: UserFacingError, Equatable {
        /// The answer to `command` had `length` bytes, too few for a status word.
        case responseTooShort(command: [UInt8], length: Int)
        /// GET RESPONSE still got `61 xx` after ``CardExchange/maximumGetResponseRounds`` rounds
        /// for `command`.
        case endlessGetResponse(command: [UInt8])
        public var message: String {
            switch self {
            case .responseTooShort(let c, let n):
                return "the card answered \(c.hexString) with \(n) byte(s): no status word"
            case .endlessGetResponse(let c):
                return "the card kept answering 61 xx to GET RESPONSE after \(c.hexString)"
            }
        }
        public var hint: String? { "the card or reader misbehaves: present the card again; a trace of the exchanges shows the answers" }
    }

    /// One counted, observed round trip with raw bytes (FeliCa frames use this directly).
    public func transmit(_ bytes: [UInt8]) throws -> [UInt8] {
        let start = ContinuousClock.now
        roundTrips += 1
        do {
            let answer = try channel.transmit(bytes)
            observer?(
                WireExchange(
                    command: bytes, response: answer, failure: nil,
                    duration: ContinuousClock.now - start,
                    secret: WireRedaction.secretRange(in: bytes)))
            return answer
        } catch {
            observer?(
                WireExchange(
                    command: bytes, response: nil,
                    failure: (error as? CardTransportError)?.failure ?? .other("\(type(of: error))"),
                    duration: ContinuousClock.now - start,
                    secret: WireRedaction.secretRange(in: bytes)))
            throw error
        }
    }

    private func roundTrip(_ bytes: [UInt8]) throws -> ResponseAPDU {
        let answer = try transmit(bytes)
        guard answer.count >= 2 else { throw Error.responseTooShort(command: bytes, length: answer.count) }
        return try ResponseAPDU(bytes: answer)
    }

    /// Sends `command` and returns the complete response, T=0 handled unless turned off.
    public func send(_ command: CommandAPDU) throws -> ResponseAPDU {
        var response = try roundTrip(command.encoded())
        guard handlesT0 else { return response }
        if let exact = response.statusWord.correctLength {
            var resend = command.with(le: exact)
            resend.forceExtended = false  // an extended Le shrinks to the short form
            response = try roundTrip(resend.encoded())
        }
        var data = response.data
        var rounds = 0
        while let available = response.statusWord.bytesAvailable {
            rounds += 1
            if rounds > maximumGetResponseRounds {
                throw Error.endlessGetResponse(command: (try? command.encoded()) ?? [])
            }
            response = try roundTrip(CommandAPDU.getResponse(length: available).encoded())
            data += response.data
        }
        return ResponseAPDU(data: data, statusWord: response.statusWord)
    }
}
