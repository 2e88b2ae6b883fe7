import APDU
import CardDumps
import CardProfiles
import CardReading
import CardSimulator
import DESFireCommands
import FeliCaCommands
import Foundation
import NDEF
import PCSCTransport

/// The fuzz targets, by name: each feeds the input to one parser of outside bytes (a card's
/// answer, a transcript, a profile, a card image, a report) and must never crash, leak or
/// hang. Errors are expected; only traps count.
enum Targets {
    nonisolated(unsafe) static let all: [String: ([UInt8]) -> Void] = [
        "hex": { _ = try? Hex.parse(text($0)) },
        "command-apdu": { _ = try? CommandAPDU(bytes: $0) },
        "response-apdu": { _ = try? ResponseAPDU(bytes: $0) },
        "ber-tlv": { b in
            if let node = try? BERTLV.parse(b) { _ = node.first(path: try! TLVPath("6F/A5/BF0C")) }
            _ = try? BERTLV.parseAll(b)
        },
        "tlv-path": { _ = try? TLVPath(text($0)) },
        "atr": { b in
            if let atr = try? ATR(bytes: b) { _ = atr.breakdown }
            _ = PseudoATR(b)?.cardDescription
        },
        "transcript": { b in
            guard let t = try? Transcript(parsing: text(b), file: "fuzz") else { return }
            _ = try? Transcript(parsing: t.serialized())
            _ = try? TranscriptReplay.run(t, file: "fuzz", registry: Fuzz.registry, lenient: b.first.map { $0 & 1 == 1 } ?? false)
        },
        "profile-yaml": { b in
            // The YAML data files: a profile, the known-commands list, the trusted-profiles list.
            let t = text(b)
            _ = try? ProfileLoader.load(yaml: t, file: "fuzz.yaml", options: .init(checkTrust: b.first.map { $0 & 1 == 1 } ?? true))
            _ = try? CommandCatalog.parse(t, file: "fuzz.yaml")
            _ = try? TrustedProfiles.parse(t, path: "fuzz.yaml")
        },
        "field-decoder": FieldFuzz.run,
        "dumps": { b in
            // Other tools' dumps: byte 0 picks the format (or detection), the rest is the file;
            // an import that gives an image is exported again in every format that holds it.
            guard let first = b.first else { return }
            let formats = DumpFormat.allCases
            let format = Int(first) < formats.count ? formats[Int(first)] : nil
            guard let result = try? DumpImport.images(Array(b.dropFirst()), file: "fuzz", format: format) else { return }
            for image in result.images {
                for f in DumpExport.Format.allCases { _ = try? DumpExport.bytes(image, as: f) }
            }
        },
        "bit-layout": FieldFuzz.layout,
        "engine": EngineFuzz.run,
        "emv": { b in
            // A payment card read by the emv profile from scripted answers; an input starting
            // with 00 feeds the rest to the DOL parser and the cardholder-data redaction alone.
            if b.first == 0 {
                let rest = Array(b.dropFirst())
                if let dol = try? DataObjectList(rest) {
                    _ = dol.split(rest) + [(TLVTag(bytes: [0x9A]), dol.values { _, n in ([0x12], n % 2 == 0) })]
                }
                _ = CardholderDataRedaction.positions(in: rest)
                return
            }
            guard let emv = try? Fuzz.registry.resolve("emv") else { return }
            let connection = CardConnection(
                card: .iso7816(.init(atr: [0x3B, 0x02, 0x14, 0x50])), channel: ScriptedChannel(b), reader: "fuzz")
            var reader = CardReader(registry: Fuzz.registry, profile: emv)
            reader.recordsTranscript = true
            let outcome = reader.read(connection)
            _ = outcome.report?.json.serialized()
            if let t = outcome.transcript { _ = try? Transcript(parsing: t.serialized()) }
        },
        "felica-frames": { b in
            let idm = try! IDm([0x01, 0x2E, 0x4C, 0xD0, 0x1A, 0x2B, 0x3C, 0x4D])
            _ = try? FeliCaResponse.polling(b)
            _ = try? FeliCaResponse.readWithoutEncryption(b, idm: idm)
            _ = try? FeliCaResponse.readWithoutEncryption(b, idm: idm, expectedBlocks: 2)
            _ = try? FeliCaResponse.requestService(b, idm: idm)
            _ = try? FeliCaResponse.searchServiceCode(b, idm: idm)
            _ = try? FeliCaResponse.requestSystemCode(b, idm: idm)
            _ = try? FeliCaResponse.requestResponse(b, idm: idm)
            _ = try? FeliCaResponse.writeWithoutEncryption(b, idm: idm)
            _ = FeliCaResponse.summary(b)
        },
        "ndef-message": { b in
            guard let m = try? NDEFMessage(parsing: b) else { return }
            for r in m.records { _ = try? NDEFPayload(r) }
            _ = try? NDEFMessage(parsing: m.encoded)
        },
        "ndef-containers": { b in
            _ = try? Type2Memory(parsing: b)
            _ = try? Type3AttributeBlock(parsing: b)
            if let cc = try? Type4CapabilityContainer(parsing: b) { _ = cc.chunks(from: cc.nlenSize, total: Int(b.count) * 64) }
        },
        "ndef-tags": TagFuzz.run,
        "desfire": { b in
            // The structures a DESFire card answers, and a session fed frames: byte 0 picks the
            // frame count limit, the rest is frames each preceded by its length.
            _ = try? DESFireFileSettings(b)
            _ = try? DESFireVersion(b)
            _ = try? DESFireAID.list(b)
            _ = try? DESFireFileNumber.list(b)
            _ = try? DESFireFileSettings.value(b)
            var frames: [[UInt8]] = []
            var rest = b.dropFirst()
            while let n = rest.first {
                frames.append(Array(rest.dropFirst().prefix(Int(n))))
                rest = rest.dropFirst(1 + Int(n))
            }
            let session = DESFireSession(exchange: CardExchange(channel: FrameScript(frames)), maxFrames: Int(b.first ?? 0) % 16 + 1)
            if let data = try? session.send(.getVersion) { _ = try? DESFireVersion(data) }
            // A DESFire card image (JSON), checked, then asked what a reader asks.
            if let image = try? JSONDecoder().decode(DESFireCardImage.self, from: Data(b)), let contents = try? image.contents() {
                let card = DESFireImageCard(contents)
                for aid in contents.applications.map(\.aid) + [.picc] {
                    _ = card.respond(DESFireCommand.selectApplication(aid).apdu.bytes)
                    _ = card.respond(DESFireCommand.getFileIDs.apdu.bytes)
                    for f in 0..<32 {
                        let file = try! DESFireFileNumber(f)
                        for c in [DESFireCommand.getFileSettings(file), .getValue(file), try! .readData(file), try! .readRecords(file)] {
                            var answer = card.respond(c.apdu.bytes)
                            while answer.suffix(2) == [0x91, 0xAF] { answer = card.respond(DESFireCommand.additionalFrame.apdu.bytes) }
                        }
                    }
                }
            }
        },
        "pseudo-apdu": TagFuzz.pseudoAPDU,
        "ultralight": UltralightFuzz.run,
        "classic": ClassicFuzz.run,
        "felica-card-image": { b in
            guard let image = try? JSONDecoder().decode(FeliCaCardImage.self, from: Data(b)) else { return }
            _ = try? image.contents()
            _ = image.json()
        },
        "iso7816-card-image": { b in
            // The image is the input up to the first 00 byte; what follows, commands for the card.
            let split = b.firstIndex(of: 0) ?? b.count
            guard let image = try? JSONDecoder().decode(ISO7816CardImage.self, from: Data(b[..<split])),
                let contents = try? image.contents()
            else { return }
            let card = ISO7816ImageCard(contents)
            var rest = b[min(split + 1, b.count)...]
            while let n = rest.first, rest.count > Int(n) {
                _ = card.respond(Array(rest.dropFirst().prefix(Int(n))))
                rest = rest.dropFirst(Int(n) + 1)
            }
        },
        "vpcd": LabFuzz.vpcd,
        "pn532": LabFuzz.pn532,
        "json-report": { b in
            guard let v = try? JSONValue(parsing: text(b)) else { return }
            _ = ReportDiff.compare(expected: v, actual: v)
            _ = v.serialized(pretty: true)
        },
    ]

    static func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
}

enum Fuzz {
    /// The repository's root folder (where this file was compiled).
    static let root: URL = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The built-in profiles (from the repository), loaded once.
    nonisolated(unsafe) static let registry: ProfileRegistry = {
        ProfileRegistry(directories: [.init(path: root.appendingPathComponent("profiles").path, isBuiltIn: true)])
    }()
}

/// A channel that answers each command with the next chunk of the input: a length byte, then
/// that many bytes (what a hostile card or reader could say).
final class ScriptedChannel: CardChannel {
    private var rest: ArraySlice<UInt8>
    private(set) var sent = 0
    init(_ bytes: [UInt8]) { rest = bytes[...] }

    struct Gone: CardTransportError {
        var failure: TransportFailure { .removed }
        var message: String { "the scripted card ran out of answers" }
    }

    func transmit(_ command: [UInt8]) throws -> [UInt8] {
        sent += 1
        guard sent < 400, let n = rest.popFirst() else { throw Gone() }
        let answer = Array(rest.prefix(Int(n)))
        rest = rest.dropFirst(Int(n))
        return answer
    }
}

/// Answers each command with the next scripted frame (then `6F 00`).
final class FrameScript: CardChannel {
    var frames: [[UInt8]]
    init(_ frames: [[UInt8]]) { self.frames = frames }
    func transmit(_ command: [UInt8]) throws -> [UInt8] { frames.isEmpty ? [0x6F, 0x00] : frames.removeFirst() }
}

extension CommandAPDU {
    /// The encoded bytes (the fuzz harness's commands are all well formed).
    var bytes: [UInt8] { (try? encoded()) ?? [] }
}
