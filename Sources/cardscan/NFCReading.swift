import APDU
import ArgumentParser
import CardProfiles
import Foundation
import NDEF
import NFCTransport

/// `scan --device CONNSTRING` / `watch --device`: a card through a libnfc device (PN532,
/// ACR122U in libnfc mode). FeliCa is polled first, then ISO 14443-A; an ISO 14443-4 card is
/// read with the ISO 7816 profiles, a FeliCa card with the FeliCa ones. When no transit
/// profile recognises the card and it carries NDEF (FeliCa 12FC, Type 2, Type 4), its NDEF
/// records are reported instead.
struct NFCReading {
    let reading: CardReading
    let connectionString: String
    let timeout: Double?

    enum Found { case felica(NFCDevice.FeliCaTarget), iso14443a(NFCDevice.ISO14443ATarget) }

    func open() throws -> NFCDevice {
        let device = try guarded { try NFCDevice(connectionString: connectionString) }
        device.timeoutMilliseconds = Int32(reading.apduTimeout * 1000)
        return device
    }

    /// Polls until a card answers (nil when `timeout` passes).
    func waitForCard(_ device: NFCDevice, timeout: Double?) throws -> Found? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if let t = try guarded({ try device.pollFeliCa() }) { return .felica(t) }
            if let t = try guarded({ try device.pollISO14443A() }) { return .iso14443a(t) }
            if let deadline, Date() >= deadline { return nil }
            usleep(200_000)
        }
    }

    func run(json: Bool) throws {
        let device = try open()
        eprint("Hold a card on \(device.name)… (\(Int(timeout ?? 0)) s; Ctrl-C to stop)")
        guard let found = try waitForCard(device, timeout: timeout) else {
            throw nothingPresented(within: timeout ?? 0)
        }
        try read(found, device, json: json, jsonl: false)
    }

    /// Every card presented, until interrupted.
    func watch(jsonl: Bool) throws {
        let device = try open()
        if !jsonl { eprint("Watching \(device.name) for cards (Ctrl-C to stop)…") }
        while true {
            guard let found = try waitForCard(device, timeout: nil) else { continue }
            do { try read(found, device, json: false, jsonl: jsonl) } catch let e as ExitCode { _ = e } catch { printError(error) }
            if !jsonl { out("") }
            // Wait until the card has left the field before reading the next one.
            while (try? presentAgain(found, device)) == true { usleep(300_000) }
        }
    }

    private func presentAgain(_ found: Found, _ device: NFCDevice) throws -> Bool {
        switch found {
        case .felica(let t): return try device.pollFeliCa()?.idm == t.idm
        case .iso14443a(let t): return try device.pollISO14443A()?.uid == t.uid
        }
    }

    func read(_ found: Found, _ device: NFCDevice, json: Bool, jsonl: Bool) throws {
        var outcome: CardReading.Outcome
        /// The tag to read when no transit profile recognises the card.
        let ndefTag: () -> PresentedTag?
        switch found {
        case .felica(let target):
            let headers: [Transcript.Header] = [.init("technology", "felica"), .init("idm", target.idm.hexString),
                                                .init("pmm", target.pmm.hexString), .init("system-code", target.systemCode.hexString),
                                                .init("reader", device.connectionString)]
            outcome = try guarded {
                try reading.read(channel: FeliCaChannel(device: device, target: target), headers: headers, technology: .felica, atr: nil) { session in
                    session.felicaPoller = { sc in try device.pollFeliCa(systemCode: sc)?.pollingAnswer }
                }
            }
            ndefTag = {
                guard let t3 = try? device.pollFeliCa(systemCode: 0x12FC) else { return nil }
                return .type3(CardExchange(channel: FeliCaChannel(device: device, target: t3)), idm: t3.idm)
            }
        case .iso14443a(let target) where !target.isISO14443_4:
            // Not an ISO 7816 card: a Type 2 tag (NDEF) or nothing cardscan reads.
            outcome = CardReading.Outcome(result: ReadResult(report: nil, error: .unrecognised(tried: [], atr: nil)))
            ndefTag = { .type2(CardExchange(channel: ISO14443Channel(device: device))) }
        case .iso14443a(let target):
            let headers: [Transcript.Header] = [.init("technology", "iso7816"), .init("uid", target.uid.hexString),
                                                .init("reader", device.connectionString)]
            outcome = try guarded {
                try reading.read(channel: ISO14443Channel(device: device), headers: headers, technology: .iso7816, atr: nil) { _ in }
            }
            ndefTag = { .type4(CardExchange(channel: ISO14443Channel(device: device))) }
        }
        reading.ndefFallback(&outcome) { ndefTag() }
        try outcome.print(json: json, jsonl: jsonl)
    }
}
