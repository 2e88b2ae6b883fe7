import APDU
import ArgumentParser
import CardProfiles
import Foundation
import NFCTransport

/// `scan --device CONNSTRING`: a card through a libnfc device (PN532, ACR122U in libnfc mode).
/// FeliCa is polled first, then ISO 14443-A; an ISO 14443-4 card is read with the ISO 7816
/// profiles through the device, a FeliCa card with the FeliCa ones.
struct NFCReading {
    let reading: CardReading
    let connectionString: String
    let timeout: Double

    func run(json: Bool) throws {
        let device = try guarded { try NFCDevice(connectionString: connectionString) }
        device.timeoutMilliseconds = Int32(reading.apduTimeout * 1000)
        eprint("Hold a card on \(device.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let target = try guarded({ try device.pollFeliCa() }) {
                let channel = FeliCaChannel(device: device, target: target)
                let headers: [Transcript.Header] = [.init("technology", "felica"), .init("idm", target.idm.hexString),
                                                    .init("pmm", target.pmm.hexString), .init("system-code", target.systemCode.hexString),
                                                    .init("reader", device.connectionString)]
                let outcome = try guarded {
                    try reading.read(channel: channel, headers: headers, technology: .felica, atr: nil) { session in
                        session.felicaPoller = { sc in try device.pollFeliCa(systemCode: sc).map { $0.idm + $0.pmm + $0.systemCode } }
                    }
                }
                return try outcome.print(json: json, jsonl: false)
            }
            if let target = try guarded({ try device.pollISO14443A() }), target.isISO14443_4 {
                let headers: [Transcript.Header] = [.init("technology", "iso7816"), .init("uid", target.uid.hexString),
                                                    .init("reader", device.connectionString)]
                let outcome = try guarded {
                    try reading.read(channel: ISO14443Channel(device: device), headers: headers, technology: .iso7816, atr: nil) { _ in }
                }
                return try outcome.print(json: json, jsonl: false)
            }
            if Date() >= deadline {
                eprint("error: no card was presented within \(Int(timeout)) s")
                eprint("hint: hold the card flat on the reader, or raise --timeout")
                throw ExitCode(75)
            }
            usleep(200_000)
        }
    }
}
