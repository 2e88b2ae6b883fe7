import APDU
import FeliCaCommands
import Foundation
import NFCTransport
import PCSCTransport

/// What is in a libnfc device's field, in cardscan's polling order: FeliCa (212 kbps, any
/// system) first, then ISO 14443-A at 106 kbps, then ISO 14443-B (Calypso cards often are). An ISO 14443-A card with ISO 14443-4 (SAK
/// bit 6) speaks APDUs; one without is taken for a Type 2 tag.
public enum NFCDetector {
    /// One round of polling; nil when no card answers.
    public static func poll(_ device: NFCDevice) throws -> CardConnection? {
        if let target = try device.pollFeliCa() {
            return CardConnection(
                card: .felica(target), channel: FeliCaChannel(device: device), reader: device.connectionString,
                felicaPoller: { try device.pollFeliCa(systemCode: $0) })
        }
        if let a = try device.pollISO14443A() {
            if a.isISO14443_4 {
                // The ATR a PC/SC reader would make of the ATS (PC/SC part 3), so detection and
                // card images see the same card through either transport.
                let atr = ContactlessATR.historicalBytes(ats: a.ats).map { ContactlessATR.atr(historicalBytes: $0) }
                return CardConnection(
                    card: .iso7816(.init(atr: atr, uid: a.uid)), channel: ISO14443Channel(device: device, identifier: a.uid),
                    reader: device.connectionString)
            }
            // SAK 08, 18, 09, 19: a MIFARE Classic 1K, 4K, Mini or 2K (NXP AN10833); 00: a Type 2 tag.
            if let sectors = [0x08: 16, 0x18: 40, 0x09: 5, 0x19: 32][Int(a.sak)] {
                return CardConnection(
                    card: .classic(uid: a.uid, sectors: sectors), channel: ISO14443Channel(device: device), reader: device.connectionString)
            }
            return CardConnection(card: .type2Tag(uid: a.uid), channel: ISO14443Channel(device: device), reader: device.connectionString)
        }
        if let b = try device.pollISO14443B() {
            let atr = ContactlessATR.atr(
                historicalBytes: ContactlessATR.historicalBytes(applicationData: b.applicationData, protocolInfo: b.protocolInfo))
            return CardConnection(
                card: .iso7816(.init(atr: atr, pupi: b.pupi)), channel: ISO14443Channel(device: device, identifier: b.pupi),
                reader: device.connectionString)
        }
        return nil
    }

    /// Polls every `interval` until a card answers, or `timeout` passes (nil: forever).
    public static func waitForCard(
        _ device: NFCDevice, timeout: Duration?, interval: Duration = .milliseconds(200)
    ) throws -> CardConnection? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let found = try poll(device) { return found }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            try? Task.checkCancellation()
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
    }

    /// Whether the same card (same IDm or UID) still answers: `watch` waits for it to leave.
    public static func isStillPresent(_ card: PresentedCard, on device: NFCDevice) -> Bool {
        switch card {
        case .felica(let t): return (try? device.pollFeliCa())??.idm == t.idm
        case .iso7816(let c):
            if let pupi = c.pupi { return (try? device.pollISO14443B())??.pupi == pupi }
            return c.uid != nil && (try? device.pollISO14443A())??.uid == c.uid
        case .type2Tag(let uid), .classic(let uid, _): return uid != nil && (try? device.pollISO14443A())??.uid == uid
        }
    }
}
