import APDU
import CardProfiles
import CardReading
import FeliCaCommands
import Foundation
import LabSupport
import NFCTransport
import Testing

/// Through the real libnfc (Debian's pn532_uart driver) and cardsim's emulated PN532.
@Suite struct NFCLabTests {
    let suica = Lab.root + "/Tests/LabCards/suica-blocks.apdu"

    @Test func deviceFoundAndFeliCaPolled() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(suica)
            defer { pn532.stop() }
            // libnfc reads its device list from the environment: a child process gets its own
            // (all test targets share this process, whose environment no test changes).
            let listed = try Lab.cardscan(
                ["readers", "--json"], environment: ["LIBNFC_AUTO_SCAN": "false", "LIBNFC_DEVICE": pn532.connectionString])
            #expect(listed.stdout.contains(pn532.connectionString), "\(listed.stdout)\(listed.stderr)")
            let device = try NFCDevice(connectionString: pn532.connectionString)
            #expect(device.connectionString == pn532.connectionString)
            let target = try #require(try device.pollFeliCa(systemCode: 0x0003))
            #expect(target.idm.bytes == (try Hex.parse("01 2E 4C D0 1A 2B 3C 4D")))
            #expect(target.pmm.bytes == (try Hex.parse("03 01 4B 02 4F 49 93 FF")))
            #expect(target.systemCode == 0x0003)
            #expect(try device.pollFeliCa(systemCode: 0x8008) == nil)  // not an Octopus
            #expect(try device.pollFeliCa(baud424: true)?.idm == target.idm)
        }
    }

    @Test func readWithoutEncryptionThroughLibnfc() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(suica)
            defer { pn532.stop() }
            let device = try NFCDevice(connectionString: pn532.connectionString)
            let target = try #require(try device.pollFeliCa(systemCode: 0x0003))
            let idm = target.idm
            let exchange = CardExchange(channel: FeliCaChannel(device: device))
            let read = { (service: UInt16, block: UInt16) throws -> [[UInt8]] in
                let frame = try FeliCaCommand.readWithoutEncryption(
                    idm, services: [ServiceCode(service)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: block)])
                return try FeliCaResponse.readWithoutEncryption(try exchange.transmit(frame), idm: idm, expectedBlocks: 1)
            }
            #expect(try read(0x008B, 0)[0].suffix(5) == [0x0A, 0x00, 0x00, 0x01, 0xE3])
            #expect(try read(0x090F, 0)[0] == (try Hex.parse("16 01 00 02 16 6C E3 3B E6 21 0A 00 00 01 E3 00")))
            #expect(throws: FeliCaError.status(StatusFlags(0x01, 0xA8))) { _ = try read(0x090F, 0x40) }
            #expect(exchange.roundTrips == 3)
        }
    }

    /// An ISO 7816 card read through a PN532, as through a PC/SC reader.
    @Test func iso14443CardThroughThePN532() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.fixture("shanghai-transit/full-read.apdu"))
            defer { pn532.stop() }
            let device = try NFCDevice(connectionString: pn532.connectionString)
            let target = try #require(try device.pollISO14443A())
            #expect(target.isISO14443_4 && target.uid.count == 7)
            let exchange = CardExchange(channel: ISO14443Channel(device: device))
            #expect(try exchange.send(.select(aid: Hex.parse("A00000000386980701"))).statusWord == .success)
            #expect(try exchange.send(.getBalance()).data == [0x80, 0x00, 0x16, 0x4E])
        }
    }

    /// The Suica profile through the real libnfc: the same report as replaying the transcript.
    @Test func suicaProfileThroughLibnfc() throws {
        try Lab.exclusive {
            let file = Lab.fixture("suica/full-read.apdu")
            let pn532 = try Lab.PN532(file)
            defer { pn532.stop() }
            let device = try NFCDevice(connectionString: pn532.connectionString)
            // What `cardscan --device` does: the libnfc detector, then the one entry point.
            let connection = try #require(try NFCDetector.poll(device))
            guard case .felica(let target) = connection.card else {
                Issue.record("not FeliCa: \(connection.card)")
                return
            }
            #expect(target.systemCode == 0x0003)
            let registry = ProfileRegistry(directories: [.init(path: Lab.root + "/profiles", isBuiltIn: true)])
            let outcome = CardReader(registry: registry).read(connection)
            #expect(outcome.profile?.id == "suica")
            let live = try #require(outcome.report)
            let expected = try JSONValue(parsing: String(contentsOfFile: Lab.fixture("suica/full-read.expected.json"), encoding: .utf8))
            #expect(
                ReportDiff.compare(expected: expected, actual: live.json).isEmpty,
                "\(ReportDiff.compare(expected: expected, actual: live.json))")
            #expect(live.exchanges == 4 && live.name == "Suica")  // 3 Read Without Encryption + 1 Request Service
        }
    }

    @Test func cardRemovedMidReadIsATypedError() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(suica, options: ["--remove-after", "1"])
            defer { pn532.stop() }
            let device = try NFCDevice(connectionString: pn532.connectionString)
            device.timeoutMilliseconds = 300
            let target = try #require(try device.pollFeliCa())
            let channel = FeliCaChannel(device: device)
            let frame = try FeliCaCommand.readWithoutEncryption(
                target.idm, services: [ServiceCode(0x008B)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 0)])
            _ = try channel.transmit(frame)
            do {
                _ = try channel.transmit(frame)
                Issue.record("the removed card answered")
            } catch let e as NFCError {
                #expect(e.failure == .timeout || e.failure == .removed, "\(e.message)")
                #expect(e.hint != nil)
            }
            #expect(try device.pollFeliCa() == nil)  // gone from the field
        }
    }

    @Test func noDeviceIsATypedErrorWithAHint() {
        #expect { try NFCDevice(connectionString: "pn532_uart:/tmp/cardscan-no-such-tty") } throws: { error in
            guard let e = error as? NFCError else { return false }
            return e.code == .noDevice && (e.hint ?? "").contains("pcscd")
        }
    }

    /// libnfc's own nfc-list sees the emulated card.
    @Test func nfcListListsTheEmulatedTarget() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(suica)
            defer { pn532.stop() }
            let r = try Lab.shell(["nfc-list"], environment: pn532.environment, timeout: 20)
            #expect(r.stdout.contains("1 Felica (212 kbps) passive target(s) found"), "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("ID (NFCID2): 01  2e  4c  d0  1a  2b  3c  4d"))
        }
    }
}

/// cardsim pn532 serving a FeliCa card image (two systems) through the real libnfc.
@Suite struct FeliCaCardImageLabTests {
    @Test func systemsServicesAndStatusFlags() throws {
        try Lab.exclusive {
            let pn532 = try Lab.PN532(Lab.root + "/Tests/LabCards/octopus-szt-image.json")
            defer { pn532.stop() }
            let device = try NFCDevice(connectionString: pn532.connectionString)
            #expect(try device.pollFeliCa(systemCode: 0x0003) == nil)
            let octopus = try #require(try device.pollFeliCa(systemCode: 0x8008))
            let szt = try #require(try device.pollFeliCa(systemCode: 0x8005))  // stays selected
            #expect(octopus.idm.bytes[0] == 0x01 && szt.idm.bytes[0] == 0x11 && szt.systemCode == 0x8005)  // system 1 in IDm's upper nibble
            let idm = szt.idm
            let x = CardExchange(channel: FeliCaChannel(device: device))
            #expect(
                try FeliCaResponse.requestSystemCode(try x.transmit(FeliCaCommand.requestSystemCode(idm)), idm: idm) == [
                    SystemCode(0x8008), SystemCode(0x8005),
                ])
            let read = { (service: UInt16, block: UInt16) throws -> [[UInt8]] in
                try FeliCaResponse.readWithoutEncryption(
                    try x.transmit(
                        FeliCaCommand.readWithoutEncryption(
                            idm, services: [ServiceCode(service)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: block)])),
                    idm: idm)
            }
            #expect(try read(0x0118, 0)[0].prefix(4) == [0x00, 0x00, 0x01, 0x90])
            #expect(throws: FeliCaError.status(StatusFlags(0x01, 0xA8))) { _ = try read(0x0118, 1) }
            #expect(throws: FeliCaError.status(StatusFlags(0x01, 0xA6))) { _ = try read(0x090F, 0) }  // no such service here
            let write = try FeliCaCommand.writeWithoutEncryption(
                idm, services: [ServiceCode(0x0118)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 0)],
                data: [[UInt8](repeating: 0, count: 16)])
            #expect(throws: FeliCaError.status(StatusFlags(0x01, 0xA5))) {
                try FeliCaResponse.writeWithoutEncryption(try x.transmit(write), idm: idm)
            }
            #expect(
                try FeliCaResponse.requestService(
                    try x.transmit(FeliCaCommand.requestService(idm, nodes: [ServiceCode(0x0118), ServiceCode(0x090F)])), idm: idm) == [
                        0x0000, 0xFFFF,
                    ])
        }
    }
}
