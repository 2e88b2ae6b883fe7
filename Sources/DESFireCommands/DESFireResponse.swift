import APDU

/// A wrapped DESFire answer: data, then `91 status` (MF3ICD40 "ISO 7816-4 APDU wrapping").
public struct DESFireResponse: Hashable, Sendable {
    public let data: [UInt8]
    public let status: DESFireStatus

    /// Reads a response APDU; an answer not ending in `91 xx` is not from a DESFire card.
    public init(_ response: ResponseAPDU, to command: DESFireInstruction) throws(DESFireError) {
        guard response.statusWord.sw1 == 0x91 else { throw .notDESFire(response.statusWord, command: command) }
        data = response.data
        status = DESFireStatus(rawValue: response.statusWord.sw2)
    }
}

/// Sends DESFire commands over a ``CardExchange`` (any transport) and follows `91 AF` with
/// ADDITIONAL FRAME, appending each part, at most `maxFrames` frames. Does no I/O of its own.
public struct DESFireSession {
    public let exchange: CardExchange
    public var maxFrames: Int

    public init(exchange: CardExchange, maxFrames: Int = 64) {
        self.exchange = exchange
        self.maxFrames = maxFrames
    }

    /// The whole answer to `command`; a status other than OK (after the chain) is thrown.
    public func send(_ command: DESFireCommand) throws -> [UInt8] {
        var data: [UInt8] = []
        var next = command
        for _ in 0..<maxFrames {
            let r = try DESFireResponse(try exchange.send(next.apdu), to: command.instruction)
            data += r.data
            switch r.status {
            case .ok: return data
            case .additionalFrame: next = .additionalFrame
            default: throw DESFireError.status(r.status, command: command.instruction)
            }
        }
        throw DESFireError.tooManyFrames(maxFrames, command: command.instruction)
    }
}
