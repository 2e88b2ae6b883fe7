import APDU
import ArgumentParser
import Foundation
import NDEF
import NFCTransport
import PCSCTransport

/// An NFC Forum tag on a reader, whichever transport found it: the `ndef` commands and the
/// NDEF fallback of `scan` read and write it the same way.
enum PresentedTag {
    case type2(CardExchange)
    case type3(CardExchange, idm: [UInt8])
    case type4(CardExchange)

    /// `type2`, `type3`, `type4`: as the JSON output names it.
    var name: String {
        switch self { case .type2: return "type2"; case .type3: return "type3"; case .type4: return "type4" }
    }

    func read() throws -> (NDEFStatus, NDEFMessage?) {
        switch self {
        case .type2(let x): return try NDEFTags.readType2(x)
        case .type3(let x, let idm): return try NDEFTags.readType3(x, idm: idm)
        case .type4(let x): return try NDEFTags.readType4(x)
        }
    }

    func write(_ message: NDEFMessage) throws {
        switch self {
        case .type2(let x): try NDEFTags.writeType2(x, message: message)
        case .type3(let x, let idm): try NDEFTags.writeType3(x, idm: idm, message: message)
        case .type4(let x): try NDEFTags.writeType4(x, message: message)
        }
    }

    /// The tag on a PC/SC reader, told by its ATR: a FeliCa pseudo-ATR is a Type 3 tag when
    /// the card answers Polling for 12FC (nil otherwise), an Ultralight pseudo-ATR a Type 2
    /// tag, anything else an ISO 14443-4 card to ask for the Type 4 NDEF application.
    static func onPCSC(_ card: PCSCCard, trace: Bool) throws -> PresentedTag? {
        if let felica = PCSCFeliCaChannel(apdus: card, atr: card.atr) {
            guard let target = try felica.poll(systemCode: 0x12FC) else { return nil }
            return .type3(Tracer.exchange(felica, felica: true, trace: trace), idm: Array(target.prefix(8)))
        }
        if let type2 = PCSCType2Channel(apdus: card, atr: card.atr) { return .type2(Tracer.exchange(type2, trace: trace)) }
        return .type4(Tracer.exchange(card, trace: trace))
    }
}

/// `--device` or `-r`, and waiting for a tag: what the `ndef` commands share.
struct TagOptions: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp("PC/SC reader: index, exact name or unique substring (default: any).", valueName: "READER"))
    var reader: String?
    @Option(help: ArgumentHelp("Use this libnfc device instead of PC/SC (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb).", valueName: "CONNSTRING"))
    var device: String?
    @Option(help: ArgumentHelp("Seconds to wait for a tag.", valueName: "SECONDS")) var timeout: Double = 60
    @Flag(help: "Print each exchange to stderr.") var trace = false

    /// Waits for a tag (exit 75 after the timeout); exit 76 for a FeliCa card without NDEF.
    func waitForTag() throws -> PresentedTag {
        if let device { return try waitOnLibnfc(device) }
        let access = ReaderAccess(choice: reader)
        let ctx = try guarded { try access.context() }
        guard let state = try guarded({ try access.waitForOneCard(ctx, timeout: .milliseconds(Int(timeout * 1000))) }) else {
            throw nothingPresented("tag", within: timeout)
        }
        let card = try guarded { try ctx.connect(to: state.name) }
        guard let tag = try guarded({ try PresentedTag.onPCSC(card, trace: trace) }) else {
            throw fail(NDEFTags.Failure.notNDEF("the FeliCa card has no NDEF system (12FC)"), code: 76)
        }
        return tag
    }

    private func waitOnLibnfc(_ connectionString: String) throws -> PresentedTag {
        let nfc = try guarded { try NFCDevice(connectionString: connectionString) }
        eprint("Hold a tag on \(nfc.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let t3 = try guarded({ try nfc.pollFeliCa(systemCode: 0x12FC) }) {
                return .type3(Tracer.exchange(FeliCaChannel(device: nfc, target: t3), felica: true, trace: trace), idm: t3.idm)
            }
            if try guarded({ try nfc.pollFeliCa() }) != nil {
                throw fail(NDEFTags.Failure.notNDEF("the FeliCa card has no NDEF system (12FC)"), code: 76)
            }
            if let a = try guarded({ try nfc.pollISO14443A() }) {
                let x = Tracer.exchange(ISO14443Channel(device: nfc), trace: trace)
                return a.isISO14443_4 ? .type4(x) : .type2(x)
            }
            if Date() >= deadline { throw nothingPresented("tag", within: timeout) }
            usleep(200_000)
        }
    }
}
