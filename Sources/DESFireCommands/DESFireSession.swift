import APDU

/// Sends DESFire commands and follows `91 AF` with ADDITIONAL FRAME, appending each part, at
/// most `maxFrames` frames. Does no I/O of its own: `send` carries each APDU (a
/// `CardExchange`, or a profile engine's session that remembers answers).
public struct DESFireSession {
    /// Carries one command APDU to the card and returns its answer (the `send` given to the initializer).
    public let transmit: (CommandAPDU) throws -> ResponseAPDU
    /// The most frames one answer may take (64 by default); past it ``answer(_:)`` throws
    /// ``DESFireError/tooManyFrames(_:command:)``.
    public var maxFrames: Int

    /// A session whose APDUs go through `send`.
    public init(maxFrames: Int = 64, send: @escaping (CommandAPDU) throws -> ResponseAPDU) {
        self.transmit = send
        self.maxFrames = maxFrames
    }

    /// A session whose APDUs go through `exchange`.
    public init(exchange: CardExchange, maxFrames: Int = 64) {
        self.init(maxFrames: maxFrames) { try exchange.send($0) }
    }

    /// The whole answer and the status that ended it (OK, or the card's refusal: `91 AE`,
    /// `91 F0`, …). An answer that is not DESFire's (`notDESFire`), too many frames and transport
    /// failures throw.
    public func answer(_ command: DESFireCommand) throws -> (data: [UInt8], status: DESFireStatus) {
        var data: [UInt8] = []
        var next = command
        for _ in 0..<maxFrames {
            let r = try DESFireResponse(try transmit(next.apdu), to: command.instruction)
            data += r.data
            guard r.status == .additionalFrame else { return (data, r.status) }
            next = .additionalFrame
        }
        throw DESFireError.tooManyFrames(maxFrames, command: command.instruction)
    }

    /// The whole answer to `command`; a status other than OK (after the chain) is thrown.
    public func send(_ command: DESFireCommand) throws -> [UInt8] {
        let (data, status) = try answer(command)
        guard status == .ok else { throw DESFireError.status(status, command: command.instruction) }
        return data
    }
}
