import APDU
import CardHistory
import CardProfiles
import CardReading
import Foundation
import NFCTransport
import PCSCTransport

/// The reading side of `serve`, on a thread of its own: every PC/SC reader (and a libnfc device)
/// watched as `watch` does; each card read, kept in the history, and told to the pages.
struct ServeReaders {
    let settings: ScanSettings
    let store: HistoryStore
    let hub: ServeHub
    let apduTimeout: Double

    /// Watches the PC/SC readers until the process ends.
    func watchPCSC() {
        let monitor = CardMonitor()
        hub.readersChanged((try? PCSCContext().readerNames()) ?? [])  // the readers there are at start
        while let event = monitor.next(timeout: nil) {
            switch event {
            case .cardPresented(let state):
                hub.reader(state.name, state: "reading")
                read(reader: state.name) {
                    try PCSCDetector.connect(try PCSCContext(), reader: state.name, transmitTimeout: .seconds(option: apduTimeout))
                }
            case .cardRemoved(let reader): hub.reader(reader, state: "empty")
            case .readersChanged(let names): hub.readersChanged(names)
            case .serviceLost: hub.reader("pcscd", state: "unavailable", detail: "pcscd is not running")
            case .serviceRestored: hub.readersChanged((try? PCSCContext().readerNames()) ?? [])
            }
        }
    }

    /// Watches one libnfc device until the process ends.
    func watchNFC(_ device: NFCDevice) {
        hub.reader(device.name, state: "empty")
        while true {
            guard let connection = try? NFCDetector.waitForCard(device, timeout: nil) else { continue }
            hub.reader(device.name, state: "reading")
            read(reader: device.name) { connection }
            while NFCDetector.isStillPresent(connection.card, on: device) { usleep(300_000) }
            hub.reader(device.name, state: "empty")
        }
    }

    /// Reads the card, keeps the read (partial ones too) and tells the pages.
    private func read(reader: String, _ connect: () throws -> CardConnection) {
        do {
            let outcome = try settings.read(try connect())
            var card: Int64? = nil
            var problem = outcome.error.map { $0.message }
            if let report = outcome.report {
                // Kept before the pages hear of it: a read they were told of is in the file.
                do {
                    let saved = try store.save(HistorySaving.storable(report, profile: outcome.profile), reader: reader)
                    card = (try? store.card(key: saved.card))??.id
                } catch {
                    let reason = "read, but not kept in the history: \((error as? UserFacingError)?.message ?? "\(error)")"
                    FileHandle.standardError.write(Data("cardscan serve: \(reader): \(reason)\n".utf8))
                    problem = [problem, reason].compactMap { $0 }.joined(separator: "; ")
                }
            }
            hub.report(reader, report: outcome.report?.json, error: problem, card: card)
            hub.reader(reader, state: outcome.report == nil ? "failed" : (outcome.error == nil ? "read" : "partial"), detail: problem)
        } catch {
            hub.report(reader, report: nil, error: (error as? UserFacingError)?.message ?? "\(error)", card: nil)
            hub.reader(reader, state: "failed", detail: (error as? UserFacingError)?.message ?? "\(error)")
        }
    }
}
