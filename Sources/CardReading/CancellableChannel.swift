import APDU

/// A channel that stops passing commands once ``CardReader/isCancelled`` says so (the user
/// pressed Ctrl-C): the next command fails as an interrupted transport, so the read ends as a
/// removed card's does — a partial report, and a transcript whose last entry says why.
final class CancellableChannel: CardChannel {
    let wrapped: CardChannel
    let isCancelled: @Sendable () -> Bool

    init(wrapping channel: CardChannel, isCancelled: @escaping @Sendable () -> Bool) {
        wrapped = channel
        self.isCancelled = isCancelled
    }

    func transmit(_ command: [UInt8]) throws -> [UInt8] {
        if isCancelled() { throw ReadInterrupted() }
        return try wrapped.transmit(command)
    }
}
