import APDU
import DESFireCommands
import Foundation

/// An emulated PN532 on a pseudo-terminal, good enough for libnfc's `pn532_uart` driver
/// (the frames libnfc sends are listed in docs/lab.md). The card in its field
/// is a transcript served by lenient replay:
/// - `technology: felica` (headers `idm`, `pmm`, `system-code`): answers Polling from the
///   headers and FeliCa frames (InCommunicateThru / InDataExchange) from the transcript;
/// - `technology: iso7816`: an ISO 14443-4 card at 106 kbps, APDUs through InDataExchange;
/// - `technology: type2`: a Type 2 tag; READ (`30 pp`) is answered from the transcript.
public final class PN532Emulator {
    enum Card {
        case felica(FeliCaCard)
        /// A transcript's card: ISO 14443-4 (an ATS without TL) or a Type 2 tag (no ATS).
        case iso14443a(uid: [UInt8], sak: UInt8, ats: [UInt8]?)
        /// A card image: ISO 14443-4 type A or type B, with the target data InListPassiveTarget
        /// gives after Tg (type A: SENS_RES, SEL_RES, the UID and the ATS; type B: the ATQB and
        /// the ATTRIB answer).
        case image(any ImageCardResponder, target: [UInt8], typeB: Bool)
        /// A MIFARE Ultralight or NTAG card image: ISO 14443-3 type A, the tag's own commands.
        case ultralight(UltralightImageCard)
        /// A MIFARE Classic card image: AUTHENTICATE (the key in the clear: a PN532 runs the
        /// cipher) and READ.
        case classic(ClassicImageCard)
    }

    let card: Card
    /// ISO 14443 cards: the transcript, by lenient replay.
    let replay: ReplayChannel
    let removeAfter: Int?
    let silentAfter: Int?
    let verbose: Bool
    private var registers: [UInt16: UInt8] = [:]
    private var memory: TagMemory
    private var exchanged = 0
    private var selected = false

    init(transcript: Transcript, file: String, removeAfter: Int?, silentAfter: Int?, verbose: Bool) throws {
        replay = ReplayChannel(transcript, mode: .lenient, file: file)
        memory = TagMemory(seed: transcript)
        self.removeAfter = removeAfter
        self.silentAfter = silentAfter
        self.verbose = verbose
        switch transcript.technology {
        case "felica":
            do { card = .felica(try FeliCaTranscriptCard(transcript, file: file)) } catch { throw ValidationFailure("\(error)") }
        case "iso7816":
            card = .iso14443a(uid: transcript.uid, sak: 0x20, ats: [0x78, 0x80, 0x70, 0x02])
        case "type2":
            card = .iso14443a(uid: transcript.uid, sak: 0x00, ats: nil)
        default:
            throw ValidationFailure("technology '\(transcript.technology)' is not one cardsim pn532 can serve (felica, iso7816, type2)")
        }
    }

    /// A card from a card image: nothing to replay, the image answers.
    private init(imageCard: Card, removeAfter: Int?, silentAfter: Int?, verbose: Bool) {
        replay = ReplayChannel(Transcript(), mode: .lenient)
        memory = TagMemory(seed: Transcript())
        card = imageCard
        self.removeAfter = removeAfter
        self.silentAfter = silentAfter
        self.verbose = verbose
    }

    /// An ISO 7816 card image. Its answers carry the historical bytes of the image's ATR when
    /// that is a PC/SC contactless ATR, so libnfc's ATR is the image's: type A, a 7-byte UID
    /// (ATQA 00 44, SAK 20) and an ATS ending in them; type B, a PUPI and an ATQB whose
    /// application data and protocol info are the ATR's first 7 historical bytes when it has 8.
    convenience init(image: ISO7816ImageCard, removeAfter: Int?, silentAfter: Int?, verbose: Bool) {
        let typeB = image.contents.typeB
        let historical = ISO14443Answers.historicalBytes(atr: image.contents.atr) ?? []
        let target: [UInt8]
        if typeB {
            // ISO/IEC 14443-3 §7.9 ATQB: 50, PUPI, application data, protocol info (default: max
            // frame 256 bytes, ISO 14443-4, FWI 8); then ATTRIB's answer (PN532 UM §7.3.5).
            let pupi: [UInt8] = [0x1A, 0x2B, 0x3C, 0x4D]
            let rest = historical.count == 8 ? Array(historical[0..<7]) : [0x00, 0x00, 0x00, 0x00, 0x80, 0x81, 0x85]
            target = [0x50] + pupi + rest + [0x01, 0x00]
        } else {
            let uid: [UInt8] = [0x04, 0x1A, 0x2B, 0x3C, 0x4D, 0x5E, 0x6F]
            target = Self.typeA(atqa: [0x00, 0x44], sak: 0x20, uid: uid, ats: ISO14443Answers.ats(historicalBytes: historical))
        }
        self.init(
            imageCard: .image(image, target: target, typeB: typeB), removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose)
    }

    /// A DESFire card image: ISO 14443-4 type A with the image's UID, ATQA, SAK and ATS.
    convenience init(desfire: DESFireImageCard, removeAfter: Int?, silentAfter: Int?, verbose: Bool) {
        let c = desfire.contents
        self.init(
            imageCard: .image(desfire, target: Self.typeA(atqa: c.atqa, sak: c.sak, uid: c.uid, ats: c.ats), typeB: false),
            removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose)
    }

    /// Type A target data after Tg (PN532 UM §7.3.5): SENS_RES, SEL_RES, NFCID1 with its
    /// length, then the ATS with its length byte TL.
    static func typeA(atqa: [UInt8], sak: UInt8, uid: [UInt8], ats: [UInt8]?) -> [UInt8] {
        atqa + [sak, UInt8(uid.count)] + uid + (ats.map { [UInt8($0.count + 1)] + $0 } ?? [])
    }

    /// A FeliCa card from a card image (FeliCaImageCard).
    convenience init(image: FeliCaImageCard, removeAfter: Int?, silentAfter: Int?, verbose: Bool) {
        self.init(imageCard: .felica(image), removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose)
    }

    struct ValidationFailure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// InDataExchange's answer for a MIFARE Classic or Ultralight image; nil for any other card.
    private func mifareAnswer(_ payload: [UInt8], _ cmd: UInt8) -> [UInt8]? {
        if case .classic(let classic) = card {
            let answer = classic.answer(payload)
            log("> \(WireRedaction.format(payload, secret: WireRedaction.secretRange(in: payload)))\n< \(answer?.hexString ?? "refused")")
            // A wrong key or a forbidden READ: the PN532's "MIFARE authentication error".
            return answer.map { [cmd + 1, 0x00] + $0 } ?? [cmd + 1, 0x14]
        }
        if case .ultralight(let tag) = card {
            let answer = tag.answer(payload)
            log("> \(payload.hexString)\n< \(answer)")
            switch answer {
            case .data(let bytes): return [cmd + 1, 0x00] + bytes
            case .nak: return [cmd + 1, 0x13]  // a 4-bit frame: the PN532's "format error during RF communication"
            case .silent: return [cmd + 1, 0x01]  // time-out
            }
        }
        return nil
    }

    private func log(_ s: @autoclosure () -> String) {
        if verbose { writeToStandardError("cardsim: \(s())\n") }
    }

    /// The emulator for a card file: an ISO 7816, DESFire, FeliCa or Ultralight card image (JSON), or a
    /// transcript (`technology: felica`, `iso7816` or `type2`).
    public static func load(
        _ data: Data, file: String, removeAfter: Int?, silentAfter: Int?, verbose: Bool
    ) throws(CardFileError)
        -> PN532Emulator
    {
        do {
            switch CardImageKind.of(data) {
            case .iso7816?:
                return PN532Emulator(
                    image: try CardImageKind.iso7816(data, file: file), removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose
                )
            case .desfire?:
                return PN532Emulator(
                    desfire: try CardImageKind.desfire(data, file: file), removeAfter: removeAfter, silentAfter: silentAfter,
                    verbose: verbose)
            case .felica?:
                return PN532Emulator(
                    image: try FeliCaImageCard(json: data, file: file), removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose
                )
            case .classic?:
                return PN532Emulator(
                    imageCard: .classic(try CardImageKind.classic(data, file: file)), removeAfter: removeAfter, silentAfter: silentAfter,
                    verbose: verbose)
            case .ultralight?:
                return PN532Emulator(
                    imageCard: .ultralight(try CardImageKind.ultralight(data, file: file)), removeAfter: removeAfter,
                    silentAfter: silentAfter, verbose: verbose)
            case nil:
                return try PN532Emulator(
                    transcript: try Transcript(parsing: String(decoding: data, as: UTF8.self), file: file), file: file,
                    removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose)
            }
        } catch { throw .wrapping(error) }
    }

    /// What goes back on the serial line for one host frame (`PN532Frame.extract`): an ACK and
    /// the answer frame; an ACK alone when the card stays silent (the host's timeout fires); an
    /// ACK and a syntax-error frame for a command the emulator does not know.
    public func reply(to frame: [UInt8]) -> [UInt8] {
        if let body = handle(frame) { return PN532Frame.ack + PN532Frame.response(body) }
        if frame.first == 0x40 || frame.first == 0x42 { return PN532Frame.ack }
        return PN532Frame.ack + PN532Frame.syntaxError
    }

    /// The answer body (command code + 1 first) to one host command, or nil to stay silent.
    public func handle(_ frame: [UInt8]) -> [UInt8]? {
        guard let cmd = frame.first else { return nil }
        let data = Array(frame.dropFirst())
        switch cmd {
        case 0x00: return [0x01] + data  // Diagnose: echo
        case 0x02: return [0x03, 0x32, 0x01, 0x06, 0x07]  // GetFirmwareVersion: PN532 1.6
        case 0x06:  // ReadRegister
            var out: [UInt8] = [0x07]
            for i in stride(from: 0, to: data.count - 1, by: 2) { out.append(registers[UInt16(data[i]) << 8 | UInt16(data[i + 1])] ?? 0) }
            return out
        case 0x08:  // WriteRegister
            for i in stride(from: 0, to: data.count - 2, by: 3) { registers[UInt16(data[i]) << 8 | UInt16(data[i + 1])] = data[i + 2] }
            return [0x09]
        case 0x12: return [0x13]  // SetParameters
        case 0x14: return [0x15]  // SAMConfiguration
        case 0x16:
            selected = false
            return [0x17, 0x00]  // PowerDown
        case 0x32: return [0x33]  // RFConfiguration
        case 0x4A: return inListPassiveTarget(data)
        case 0x40, 0x42:  // InDataExchange / InCommunicateThru
            let payload = cmd == 0x40 ? Array(data.dropFirst()) : data
            guard selected else { return [cmd + 1, 0x01] }  // no target: time-out
            if let n = removeAfter, exchanged >= n {
                selected = false
                log("card removed")
                return [cmd + 1, 0x01]
            }
            if let n = silentAfter, exchanged >= n {
                log("silent")
                return nil
            }
            exchanged += 1
            if case .felica(let felica) = card {
                guard let answer = felica.answer(payload) else { return [cmd + 1, 0x01] }  // silent: time-out
                log("> \(payload.hexString)\n< \(answer.hexString)")
                return [cmd + 1, 0x00] + answer
            }
            if let answer = mifareAnswer(payload, cmd) { return answer }
            if case .image(let image, _, _) = card {
                let answer = image.respond(payload)
                log("> \(payload.hexString)\n< \(answer.hexString)")
                return [cmd + 1, 0x00] + answer
            }
            if let fromMemory = memory.answer(payload, felica: false) {
                log("> \(payload.hexString)\n< \(fromMemory.hexString) (memory)")
                return [cmd + 1, 0x00] + fromMemory
            }
            do {
                let answer = try replay.transmit(payload)
                log("> \(payload.hexString)\n< \(answer.hexString)")
                return [cmd + 1, 0x00] + answer
            } catch {
                selected = false
                return [cmd + 1, 0x01]  // timeout: the card is gone
            }
        case 0x44:
            selected = false
            return [0x45, 0x00]  // InDeselect
        case 0x52:
            selected = false
            return [0x53, 0x00]  // InRelease
        default: return nil
        }
    }

    private func inListPassiveTarget(_ data: [UInt8]) -> [UInt8] {
        guard data.count >= 2 else { return [0x4B, 0x00] }
        let baud = data[1]
        log("InListPassiveTarget, baud rate \(baud)")  // a poll: how a test knows a reader looked again
        selected = false
        if let n = removeAfter, exchanged >= n { return [0x4B, 0x00] }  // removed cards stay gone
        switch (card, baud) {
        case (.felica(let felica), 0x01), (.felica(let felica), 0x02):
            // Initiator data: the Polling payload without its length byte: 00 SC SC RC TSN.
            let requested = data.count >= 5 ? UInt16(data[3]) << 8 | UInt16(data[4]) : 0xFFFF
            guard let hit = felica.poll(requested) else { return [0x4B, 0x00] }
            let rc = data.count >= 6 ? data[5] : 0
            let pol = [0x01] + hit.idm + felica.pmm + (rc == 1 ? hit.system : [])
            selected = true
            felica.reset()
            return [0x4B, 0x01, 0x01, UInt8(pol.count + 1)] + pol
        case (.iso14443a(let uid, let sak, let ats), 0x00):
            selected = true
            replay.reset()
            return [0x4B, 0x01, 0x01] + Self.typeA(atqa: [0x00, 0x44], sak: sak, uid: uid, ats: ats)
        case (.classic(let classic), 0x00):
            selected = true
            classic.reset()
            let c = classic.contents
            return [0x4B, 0x01, 0x01] + Self.typeA(atqa: c.atqa, sak: c.sak, uid: c.uid, ats: nil)
        case (.ultralight(let tag), 0x00):
            selected = true
            let c = tag.contents
            return [0x4B, 0x01, 0x01] + Self.typeA(atqa: c.atqa, sak: c.sak, uid: c.uid, ats: nil)
        case (.image(let image, let target, false), 0x00), (.image(let image, let target, true), 0x03):
            selected = true
            image.reset()
            return [0x4B, 0x01, 0x01] + target
        default:
            return [0x4B, 0x00]
        }
    }
}
