import APDU
import CLibNFC
import FeliCaCommands
import Foundation

/// A libnfc device (PN532 on a serial port, ACR122U over USB, …) opened as an initiator.
///
/// Connection strings come from `--device`, `LIBNFC_DEVICE`, or libnfc's own scan
/// (`LIBNFC_AUTO_SCAN`). Every exchange has a timeout.
public final class NFCDevice: @unchecked Sendable {
    private let context: OpaquePointer
    private let device: OpaquePointer
    /// The device's name as libnfc gives it (`nfc_device_get_name`).
    public let name: String
    /// The connection string of the device opened (`nfc_device_get_connstring`), e.g.
    /// `pn532_uart:/dev/ttyUSB0`.
    public let connectionString: String
    /// Milliseconds one exchange may take.
    public var timeoutMilliseconds: Int32 = 1000

    /// Connection strings libnfc finds (with LIBNFC_AUTO_SCAN=false: only LIBNFC_DEVICE and
    /// the devices libnfc's configuration names). `probe: false` never scans: it lists only
    /// those configured devices, so that nothing touches a USB reader pcscd may hold. libnfc
    /// takes that setting only from the environment: `probe: false` sets LIBNFC_AUTO_SCAN for
    /// the duration of the call (not safe while another thread starts libnfc).
    public static func list(probe: Bool = true) -> [String] {
        quietLibnfcLog()
        let saved = ProcessInfo.processInfo.environment["LIBNFC_AUTO_SCAN"]
        if !probe { setenv("LIBNFC_AUTO_SCAN", "false", 1) }
        defer { if !probe { if let saved { setenv("LIBNFC_AUTO_SCAN", saved, 1) } else { unsetenv("LIBNFC_AUTO_SCAN") } } }
        var ctx: OpaquePointer? = nil
        nfc_init(&ctx)
        guard let ctx else { return [] }
        defer { nfc_exit(ctx) }
        let capacity = 8
        let strings = UnsafeMutablePointer<nfc_connstring>.allocate(capacity: capacity)
        defer { strings.deallocate() }
        UnsafeMutableRawPointer(strings).initializeMemory(
            as: UInt8.self, repeating: 0, count: capacity * MemoryLayout<nfc_connstring>.stride)
        let n = nfc_list_devices(ctx, strings, capacity)
        return (0..<n).map { i in withUnsafeBytes(of: strings[i]) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
    }

    /// Opens `connectionString` (nil: libnfc's default device) and makes it an initiator.
    public init(connectionString: String? = nil) throws(NFCError) {
        Self.quietLibnfcLog()
        var ctx: OpaquePointer? = nil
        nfc_init(&ctx)
        guard let ctx else { throw NFCError(code: .noDevice, function: "nfc_init", detail: "libnfc could not start") }
        let chosen = connectionString ?? ProcessInfo.processInfo.environment["LIBNFC_DEVICE"]
        let dev: OpaquePointer?
        if let chosen { dev = nfc_open(ctx, chosen) } else { dev = nfc_open(ctx, nil) }
        guard let dev else {
            nfc_exit(ctx)
            throw NFCError(code: .noDevice, function: "nfc_open", detail: chosen.map { "could not open \($0)" } ?? "no device found")
        }
        context = ctx
        device = dev
        name = String(cString: nfc_device_get_name(dev))
        self.connectionString = String(cString: nfc_device_get_connstring(dev))
        guard nfc_initiator_init(dev) >= 0 else {
            let e = lastError("nfc_initiator_init")
            nfc_close(dev)
            nfc_exit(ctx)
            throw e
        }
        nfc_device_set_property_bool(dev, NP_INFINITE_SELECT, false)
    }

    /// libnfc logs its scan failures ("Unable to find USB busses") to stderr; cardscan reports
    /// failures itself, so libnfc stays quiet unless the user set LIBNFC_LOG_LEVEL.
    static func quietLibnfcLog() { setenv("LIBNFC_LOG_LEVEL", "0", 0) }

    deinit {
        nfc_close(device)
        nfc_exit(context)
    }

    func lastError(_ function: String) -> NFCError {
        let code = nfc_device_get_last_error(device)
        return NFCError(
            code: NFCError.Code(rawValue: code) ?? .io, function: function, device: nil,
            detail: String(cString: nfc_strerror(device)))
    }

    /// Polls for a FeliCa card (212 or 424 kbps) with `systemCode` (FF FF: any); nil when
    /// there is none. The Polling payload is sent without its length byte, as libnfc wants.
    public func pollFeliCa(systemCode: SystemCode = .wildcard, baud424: Bool = false) throws(NFCError) -> FeliCaTarget? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_FELICA, nbr: baud424 ? NBR_424 : NBR_212)
        let payload: [UInt8] = [0x00] + systemCode.bigEndianBytes + [0x01, 0x00]
        let n = nfc_initiator_select_passive_target(device, modulation, payload, payload.count, &target)
        if n < 0 { throw lastError("nfc_initiator_select_passive_target") }
        if n == 0 { return nil }
        guard target.nm.nmt == NMT_FELICA else { return nil }
        let info = target.nti.nfi
        func bytes<T>(_ v: T, _ count: Int) -> [UInt8] { withUnsafeBytes(of: v) { Array($0.prefix(count)) } }
        let code = bytes(info.abtSysCode, 2)
        guard let idm = try? IDm(bytes(info.abtId, 8)), let pmm = try? PMm(bytes(info.abtPad, 8)) else { return nil }
        return FeliCaTarget(idm: idm, pmm: pmm, systemCode: SystemCode(UInt16(code[0]) << 8 | UInt16(code[1])))
    }

    /// An ISO 14443-A card at 106 kbps: its UID and (for ISO 14443-4 cards) ATS.
    public struct ISO14443ATarget: Sendable, Equatable {
        /// The UID from anticollision (ISO/IEC 14443-3): 4, 7 or 10 bytes.
        public let uid: [UInt8]
        /// The SAK, select acknowledge (ISO/IEC 14443-3).
        public let sak: UInt8
        /// The ATS, answer to select (ISO/IEC 14443-4), as libnfc gives it; empty when there is none.
        public let ats: [UInt8]
        /// Whether SAK bit 6 says the card speaks ISO/IEC 14443-4, so it takes APDUs.
        public var isISO14443_4: Bool { sak & 0x20 != 0 }
    }

    /// Selects an ISO 14443-A card at 106 kbps (`nfc_initiator_select_passive_target`); nil when
    /// there is none.
    public func pollISO14443A() throws(NFCError) -> ISO14443ATarget? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let n = nfc_initiator_select_passive_target(device, modulation, nil, 0, &target)
        if n < 0 { throw lastError("nfc_initiator_select_passive_target") }
        if n == 0 { return nil }
        let info = target.nti.nai
        let uid = withUnsafeBytes(of: info.abtUid) { Array($0.prefix(Int(info.szUidLen))) }
        let ats = withUnsafeBytes(of: info.abtAts) { Array($0.prefix(Int(info.szAtsLen))) }
        return ISO14443ATarget(uid: uid, sak: info.btSak, ats: ats)
    }

    /// An ISO 14443-B card at 106 kbps (ISO/IEC 14443-3 §7.9): its PUPI (pseudo-unique card
    /// identifier) and ATQB application data and protocol info. Many Calypso cards are type B.
    public struct ISO14443BTarget: Sendable, Equatable {
        /// The PUPI, 4 bytes.
        public let pupi: [UInt8]
        /// The ATQB's application data, 4 bytes.
        public let applicationData: [UInt8]
        /// The ATQB's protocol info, 3 bytes.
        public let protocolInfo: [UInt8]
    }

    /// Selects an ISO 14443-B card at 106 kbps (`nfc_initiator_select_passive_target`); nil when
    /// there is none.
    public func pollISO14443B() throws(NFCError) -> ISO14443BTarget? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106)
        let n = nfc_initiator_select_passive_target(device, modulation, nil, 0, &target)
        if n < 0 { throw lastError("nfc_initiator_select_passive_target") }
        if n == 0 { return nil }
        let info = target.nti.nbi
        return ISO14443BTarget(
            pupi: withUnsafeBytes(of: info.abtPupi) { Array($0) },
            applicationData: withUnsafeBytes(of: info.abtApplicationData) { Array($0) },
            protocolInfo: withUnsafeBytes(of: info.abtProtocolInfo) { Array($0) })
    }

    /// One exchange with the selected card. With `easyFraming` the chip adds the protocol
    /// framing (ISO-DEP for APDUs); without it the bytes go as they are (FeliCa frames).
    public func transceive(_ bytes: [UInt8], easyFraming: Bool) throws(NFCError) -> [UInt8] {
        nfc_device_set_property_bool(device, NP_EASY_FRAMING, easyFraming)
        var rx = [UInt8](repeating: 0, count: 512)
        let n = nfc_initiator_transceive_bytes(device, bytes, bytes.count, &rx, rx.count, timeoutMilliseconds)
        if n < 0 {
            let e = lastError("nfc_initiator_transceive_bytes")
            // PN53x reports a card that left as a time-out (status 01) or an RF error.
            if e.code == .io || e.code == .timeout { throw NFCError(code: .timeout, function: e.function, device: name, detail: e.detail) }
            throw e
        }
        return Array(rx.prefix(Int(n)))
    }

    /// Releases the selected card.
    public func deselect() { nfc_initiator_deselect_target(device) }
}

/// A FeliCa card as a `CardChannel`: whole frames (starting with their length byte) in
/// and out, so the exchange layer, tracing and `technology: felica` transcripts work.
public final class FeliCaChannel: CardChannel {
    /// The device the card was selected on.
    public let device: NFCDevice
    /// A channel to the FeliCa card selected on `device`.
    public init(device: NFCDevice) { self.device = device }
    /// One frame out and one in, as they are (easy framing off); throws ``NFCError``.
    public func transmit(_ command: [UInt8]) throws -> [UInt8] { try device.transceive(command, easyFraming: false) }
}

/// An ISO 14443-4 card through libnfc as a `CardChannel`: APDUs in, responses out, so an
/// ISO 7816 profile reads through a PN532 as through a PC/SC reader — including the reader's
/// own GET DATA for the card's UID or PUPI (`FF CA 00 00 00`), answered here from what the
/// anticollision gave, as a PC/SC reader answers it (`ReaderGetData`).
public final class ISO14443Channel: CardChannel {
    /// The device the card was selected on.
    public let device: NFCDevice
    /// The UID (type A) or PUPI (type B) the card gave when it was polled.
    public let identifier: [UInt8]?
    /// A channel to the ISO 14443-4 card selected on `device`; without `identifier`, the
    /// reader's GET DATA goes to the card.
    public init(device: NFCDevice, identifier: [UInt8]? = nil) {
        self.device = device
        self.identifier = identifier
    }
    /// Answers the reader's GET DATA for ``identifier`` itself; sends any other APDU to the
    /// card with easy framing on (the chip does the ISO-DEP framing). Throws ``NFCError``.
    public func transmit(_ command: [UInt8]) throws -> [UInt8] {
        if let identifier, let answer = ReaderGetData.answer(command, identifier: identifier) { return answer }
        return try device.transceive(command, easyFraming: true)
    }
}
