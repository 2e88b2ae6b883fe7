import APDU
import Foundation

/// How a card file is turned into a card in a vpcd reader (`cardsim vpcd`'s options).
public struct VirtualCardOptions: Sendable {
    /// The ATR to present instead of the card file's.
    public var atr: [UInt8]?
    /// FeliCa: be a PN532-based ACR122U (frames in `D4 40 01` pseudo-APDUs).
    public var acr122 = false
    /// `--remove-after N`: the card leaves when command N+1 arrives (nil: never).
    public var removeAfter: Int?
    /// `--latency-ms`: milliseconds to wait before answering each command APDU (0: none).
    public var latencyMs = 0
    /// `--mute-after N`: after N answered commands the card never answers again (nil: never).
    public var muteAfter: Int?
    /// ISO 7816: be one application of several (`ApplicationGate`).
    public var multiApp = false
    /// `-v`: log every exchange to standard error.
    public var verbose = false

    /// Every option off: the card file's ATR, no fault injection, no latency, quiet.
    public init() {}
}

/// Why a card file cannot be served.
public enum CardFileError: UserFacingError, Equatable, Sendable {
    /// The file is not a transcript or card image cardsim can serve: what is wrong, naming the file.
    case invalid(String)
    /// An ISO 7816 transcript with no `# atr:` header and no ATR given.
    case noATR

    public var message: String {
        switch self {
        case .invalid(let message): message
        case .noATR: "no ATR: the transcript has no `# atr:` header, and none was given"
        }
    }

    public var hint: String? {
        switch self {
        case .invalid: "serve a cardscan transcript or card image (docs/transcripts.md, docs/lab.md)"
        case .noATR: "add the card's ATR as an `# atr:` header, or give it in VirtualCardOptions.atr"
        }
    }

    /// `error`, met while reading a card file, as this type: a `CardFileError` as it is, any
    /// other error by its message alone (its own hint would repeat this type's).
    static func wrapping(_ error: any Error) -> CardFileError {
        if let e = error as? CardFileError { return e }
        return .invalid((error as? UserFacingError)?.message ?? "\(error)")
    }
}

extension VirtualCard {
    /// The card `data` describes (read from `file`): an ISO 7816 or DESFire card image, a
    /// FeliCa card image or transcript behind an ACS-style contactless reader, a Type 2 tag
    /// behind a storage-card reader, or an ISO 7816 transcript served by lenient replay.
    public static func load(_ data: Data, file: String, options o: VirtualCardOptions) throws(CardFileError) -> VirtualCard {
        do { return try make(data, file: file, options: o) } catch { throw .wrapping(error) }
    }

    private static func make(_ data: Data, file: String, options o: VirtualCardOptions) throws -> VirtualCard {
        func card(atr: [UInt8], respond: @escaping ([UInt8]) throws -> [UInt8], powerOn: @escaping () -> Void) -> VirtualCard {
            VirtualCard(
                atr: o.atr ?? atr, removeAfter: o.removeAfter, latencyMs: o.latencyMs, muteAfter: o.muteAfter, verbose: o.verbose,
                respond: respond, powerOn: powerOn)
        }
        var felica: FeliCaCard? = nil
        var parsed: Transcript? = nil
        var recordedOnACR122 = false
        switch CardImageKind.of(data) {
        case .iso7816?:
            let image = try CardImageKind.iso7816(data, file: file)
            return card(atr: image.contents.atr, respond: image.respond, powerOn: image.reset)
        case .desfire?:
            let image = try CardImageKind.desfire(data, file: file)
            let uid = image.contents.uid
            // The reader in front of the card answers its own GET DATA for the UID.
            return card(
                atr: image.contents.atr, respond: { ReaderGetData.answer($0, identifier: uid) ?? image.respond($0) }, powerOn: image.reset)
        case .felica?:
            felica = try FeliCaImageCard(json: data, file: file)
        case .ultralight?:
            let tag = try CardImageKind.ultralight(data, file: file)
            return card(atr: PCSCTagReader.ultralightATR, respond: tag.pcscAnswer, powerOn: tag.reset)
        case .classic?:
            let classic = try CardImageKind.classic(data, file: file)
            return card(atr: classic.atr, respond: classic.pcscAnswer, powerOn: classic.reset)
        case nil:
            let t = try Transcript(parsing: String(decoding: data, as: UTF8.self), file: file)
            if t.technology == "felica" { felica = try FeliCaTranscriptCard(t, file: file) } else { parsed = t }
            // A FeliCa transcript recorded through an ACR122U keeps that reader's ATR: play it again.
            if let a = t.atr, a.count == 20, a[12] == 0x03, a[13] == 0xF0 { recordedOnACR122 = true }
        }
        if let felica {
            guard let reader = PCSCFeliCaReader(card: felica, style: o.acr122 || recordedOnACR122 ? .pn532 : .direct) else {
                throw CardFileError.invalid("\(file): the FeliCa card answers no Polling")
            }
            return card(atr: reader.atr, respond: reader.respond, powerOn: reader.reset)
        }
        guard let parsed else { throw CardFileError.invalid("no card in \(file)") }
        if parsed.technology == "type2" {
            let reader = PCSCTagReader(parsed, file: file, type2UID: parsed.uid)
            return card(atr: PCSCTagReader.ultralightATR, respond: reader.respond, powerOn: reader.reset)
        }
        guard let atr = o.atr ?? parsed.atr else { throw CardFileError.noATR }
        let tag = PCSCTagReader(parsed, file: file, type2UID: nil)
        if o.multiApp {
            let gate = ApplicationGate(parsed, respond: tag.respond)
            return card(
                atr: atr, respond: gate.respond,
                powerOn: {
                    tag.reset()
                    gate.reset()
                })
        }
        return card(atr: atr, respond: tag.respond, powerOn: tag.reset)
    }
}
