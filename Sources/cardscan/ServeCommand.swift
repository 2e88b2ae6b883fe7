import APDU
import ArgumentParser
import CardHistory
import CardProfiles
import Foundation
import Hummingbird
import NFCTransport

/// `cardscan serve`: a local web page of the cards read — the readers live, each card's balance
/// over time, spending and trips, a kiosk view — with every read kept in the history.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "A web page of the cards read: readers live, balances over time, trips, a kiosk view (every read is kept).",
        discussion: """
            Reads cards on every reader as `watch` does and keeps each read in the history
            ($XDG_DATA_HOME/cardscan/history.sqlite; the page says so). The page, its
            script and its style are inside cardscan: nothing is fetched from anywhere
            else. By default only this computer can connect (127.0.0.1); --listen another
            address requires the token printed at start (or --token) on every request.
            The JSON API is under /api/ (docs/serve.md).

            Examples:
              cardscan serve                         then open http://127.0.0.1:8765/
              cardscan serve --port 9000 -r 0
              cardscan serve --listen 0.0.0.0 --token s3cret
            """)

    @OptionGroup var profiles: ProfileOptions
    @Option(help: "The TCP port.") var port: Int = 8765
    @Option(help: ArgumentHelp("The address to listen on (default 127.0.0.1: this computer only).", valueName: "ADDRESS"))
    var listen: String = "127.0.0.1"
    @Option(help: ArgumentHelp("The token other computers must give (default: one made at start).", valueName: "TOKEN"))
    var token: String?
    @Option(help: ArgumentHelp("Also answer to this host name (a name this computer has on the network).", valueName: "NAME"))
    var allowHost: [String] = []
    @Option(help: ArgumentHelp("Watch this libnfc device instead of PC/SC readers.", valueName: "CONNSTRING")) var device: String?
    @Option(
        name: .customLong("apdu-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Seconds one command may take. (default: 5)", valueName: "SECONDS"), transform: commandSeconds)
    var apduTimeout: Double = 5

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port is 1 to 65535 (not \(port))") }
    }

    /// Whether `listen` is this computer only.
    var loopback: Bool { ["127.0.0.1", "localhost", "::1"].contains(listen) }

    func run() throws {
        let settings = try ScanSettings(profiles, trace: false)
        let store = try HistorySaving().store
        let hub = ServeHub()
        let secret = token ?? (loopback ? nil : Self.newToken())
        var hosts: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
        for h in [listen] + allowHost { hosts.insert((h.contains(":") ? "[\(h)]" : h).lowercased() + ":\(port)") }
        let security = ServeSecurity<BasicRequestContext>(hosts: hosts, token: secret, changeToken: secret ?? Self.newToken())
        let readers = ServeReaders(settings: settings, store: store, hub: hub, apduTimeout: apduTimeout)
        let nfc = try device.map { try openNFC($0, apduTimeout: apduTimeout) }
        Thread.detachNewThread {
            if let nfc { readers.watchNFC(nfc) } else { readers.watchPCSC() }
        }
        let app = Application(
            router: ServeRoutes.router(store: store, hub: hub, security: security),
            configuration: .init(address: .hostname(listen, port: port), serverName: "cardscan"))
        let shown = loopback ? "127.0.0.1" : listen
        out(
            "cardscan serve: http://\(shown):\(port)/" + (secret.map { "?token=\($0)" } ?? "")
                + "  (kiosk: /kiosk; reads kept in \(store.path))")
        Self.stopOnSignals()
        try Self.runBlocking { try await app.runService() }
    }

    /// The signal sources of ``stopOnSignals()``, kept for the life of the process.
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []

    /// SIGTERM (a service manager) ends `serve` with status 0, Ctrl-C with 130, at once: an open
    /// page's event stream never ends, so a graceful stop would wait for ever, and nothing is
    /// lost by not waiting (a read is kept in the history before any page hears of it).
    static func stopOnSignals() {
        for (number, status) in [(SIGTERM, Int32(0)), (SIGINT, Int32(130))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                fflush(nil)
                _exit(status)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// 16 random bytes in hex (32 digits).
    static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }.compactHex.lowercased()
    }

    /// Runs `body` to its end on the concurrency pool, blocking this thread (cardscan's `main`
    /// is synchronous).
    static func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        Task {
            do { try await body() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }
}
