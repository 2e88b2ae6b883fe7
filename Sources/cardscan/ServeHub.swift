import CardProfiles
import Foundation

/// What `serve` tells its pages as it happens (Server-Sent Events, `/api/events`): each
/// reader's state ("hold a card", "reading…", "read") and each read's report, partial ones
/// with their reason. A page that connects first gets every reader's state as it is.
final class ServeHub: @unchecked Sendable {
    private let lock = NSLock()
    private var readers: [String: JSONValue] = [:]
    private var readerOrder: [String] = []
    private var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]

    /// An event for the pages: a reader's state.
    func reader(_ name: String, state: String, detail: String? = nil) {
        var pairs: [(String, JSONValue)] = [("type", .string("reader")), ("reader", .string(name)), ("state", .string(state))]
        if let detail { pairs.append(("detail", .string(detail))) }
        let event = JSONValue.object(pairs)
        lock.lock()
        if readers[name] == nil { readerOrder.append(name) }
        readers[name] = event
        lock.unlock()
        publish(event)
    }

    /// The readers there are now: those gone are dropped.
    func readersChanged(_ names: [String]) {
        lock.lock()
        for gone in readerOrder where !names.contains(gone) { readers[gone] = nil }
        readerOrder = readerOrder.filter(names.contains)
        lock.unlock()
        for name in names where current(name) == nil { reader(name, state: "empty") }
    }

    private func current(_ name: String) -> JSONValue? {
        lock.lock()
        defer { lock.unlock() }
        return readers[name]
    }

    /// An event for the pages: a read's report (with `error` when it stopped early), or why
    /// nothing could be read.
    func report(_ reader: String, report: JSONValue?, error: String?, card: Int64?) {
        var pairs: [(String, JSONValue)] = [("type", .string("report")), ("reader", .string(reader))]
        pairs.append(("report", report ?? .null))
        if let error { pairs.append(("error", .string(error))) }
        if let card { pairs.append(("card", .int(Int(card)))) }
        publish(.object(pairs))
    }

    /// Every reader's state, for `/api/readers` and a page that just connected.
    var readerStates: [JSONValue] {
        lock.lock()
        defer { lock.unlock() }
        return readerOrder.compactMap { readers[$0] }
    }

    /// The events from now on, each a JSON text, the readers' states first.
    func subscribe() -> AsyncStream<String> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
            lock.lock()
            subscribers[id] = continuation
            let states = readerOrder.compactMap { readers[$0] }
            lock.unlock()
            for s in states { continuation.yield(s.serialized()) }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.subscribers[id] = nil
                self.lock.unlock()
            }
        }
    }

    private func publish(_ event: JSONValue) {
        let text = event.serialized()
        lock.lock()
        let targets = Array(subscribers.values)
        lock.unlock()
        for c in targets { c.yield(text) }
    }
}
