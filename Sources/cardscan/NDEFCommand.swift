import APDU
import ArgumentParser
import CardProfiles
import Foundation
import NDEF
import NFCTransport

struct NDEFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ndef",
        abstract: "NFC Forum tags (NDEF) through a libnfc device.",
        subcommands: [Read.self, Write.self])

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the NDEF message of a Type 2, 3 (FeliCa) or 4 tag.",
            discussion: "Example: cardscan ndef read --device pn532_uart:/dev/ttyUSB0")

        @Option(help: ArgumentHelp("The libnfc device (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb).", valueName: "CONNSTRING"))
        var device: String
        @Option(help: ArgumentHelp("Seconds to wait for a tag.", valueName: "SECONDS")) var timeout: Double = 60
        @Flag(help: "Print as JSON.") var json = false
        @Flag(help: "Print each exchange to stderr.") var trace = false

        func run() throws {
            let nfc = try guarded { try NFCDevice(connectionString: device) }
            eprint("Hold a tag on \(nfc.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let t3 = try guarded({ try nfc.pollFeliCa(systemCode: 0x12FC) }) {
                    let x = exchange(FeliCaChannel(device: nfc, target: t3), felica: true)
                    return try show("type3", try guarded { try NDEFTags.readType3(x, idm: t3.idm) })
                }
                if let a = try guarded({ try nfc.pollISO14443A() }) {
                    let x = exchange(ISO14443Channel(device: nfc))
                    if a.isISO14443_4 { return try show("type4", try guarded { try NDEFTags.readType4(x) }) }
                    return try show("type2", try guarded { try NDEFTags.readType2(x) })
                }
                if Date() >= deadline {
                    throw nothingPresented("tag", within: timeout)
                }
                usleep(200_000)
            }
        }

        func exchange(_ channel: CardChannel, felica: Bool = false) -> CardExchange {
            let x = CardExchange(channel: channel)
            if trace { x.observer = Tracer(felica: felica).observe }
            return x
        }

        func show(_ tag: String, _ result: (NDEFStatus, NDEFMessage?)) throws {
            printNDEF(tag, result, json: json)
        }
    }
}

/// Prints an NDEF tag's status and records (`ndef read`, and `scan`'s NDEF fallback).
func printNDEF(_ tag: String, _ result: (NDEFStatus, NDEFMessage?), json: Bool) {
            let (status, message) = result
            let records = message?.records ?? []
            if json {
                let items: [JSONValue] = records.map { r in
                    var pairs: [(String, JSONValue)] = [("tnf", .string("\(r.tnf)")), ("type", .string(r.typeString))]
                    switch try? NDEFPayload(r) {
                    case .text(let s, let lang)?: pairs += [("text", .string(s)), ("language", .string(lang))]
                    case .uri(let u)?: pairs.append(("uri", .string(u)))
                    default: pairs.append(("payload", .string(r.payload.hexString)))
                    }
                    return .object(pairs)
                }
                out(JSONValue.object([("tag", .string(tag)), ("access", .string(status.access.rawValue)),
                                      ("capacity", .int(status.capacity)), ("records", .array(items))]).serialized(pretty: true))
                return
            }
            out("\(tag.replacingOccurrences(of: "type", with: "Type ")) tag, \(status.access.rawValue), capacity \(status.capacity) bytes")
            if records.isEmpty { out("  (empty: no NDEF message)") }
            for r in records {
                switch try? NDEFPayload(r) {
                case .text(let s, let lang)?: out("  Text (\(lang)): \(s)")
                case .uri(let u)?: out("  URI: \(u)")
                case .smartPoster(let m)?: out("  Smart Poster: \(m.records.count) record(s)")
                case .mime(let type, let data)?: out("  MIME \(type): \(data.count) bytes")
                case .external(let type, let data)?: out("  External \(type): \(data.hexString)")
                default: out("  \(r.tnf) \(r.typeString): \(r.payload.hexString)")
                }
            }
}

extension NDEFCommand {
    struct Write: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a Text or URI record to a Type 2, 3 or 4 tag, then read it back.",
            discussion: """
            The tag's NDEF status is read first: a read-only tag, or one too small for the
            message, is refused and nothing is written. After writing, the message is read
            back and compared.

            Example: cardscan ndef write --device pn532_uart:/dev/ttyUSB0 --uri https://example.com
            """)

        @Option(help: ArgumentHelp("The libnfc device.", valueName: "CONNSTRING")) var device: String
        @Option(help: "Write a Text record with this text.") var text: String?
        @Option(help: "The Text record's language (IANA code).") var lang: String = "en"
        @Option(help: "Write a URI record.") var uri: String?
        @Option(help: ArgumentHelp("Seconds to wait for a tag.", valueName: "SECONDS")) var timeout: Double = 60
        @Flag(help: "Print each exchange to stderr.") var trace = false

        func validate() throws {
            if (text == nil) == (uri == nil) { throw ValidationError("give exactly one of --text or --uri") }
        }

        func run() throws {
            let payload: NDEFPayload = text.map { .text($0, language: lang) } ?? .uri(uri!)
            let message = NDEFMessage(records: [payload.record])
            let nfc = try guarded { try NFCDevice(connectionString: device) }
            eprint("Hold a tag on \(nfc.name)… (\(Int(timeout)) s; Ctrl-C to stop)")
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let t3 = try guarded({ try nfc.pollFeliCa(systemCode: 0x12FC) }) {
                    let x = CardExchange(channel: FeliCaChannel(device: nfc, target: t3))
                    if trace { x.observer = Tracer(felica: true).observe }
                    try guarded { try NDEFTags.writeType3(x, idm: t3.idm, message: message) }
                    return out("Wrote \(message.encoded.count) bytes to the Type 3 tag; read back and verified.")
                }
                if let a = try guarded({ try nfc.pollISO14443A() }) {
                    let x = CardExchange(channel: ISO14443Channel(device: nfc))
                    if trace { x.observer = Tracer().observe }
                    if a.isISO14443_4 {
                        try guarded { try NDEFTags.writeType4(x, message: message) }
                        return out("Wrote \(message.encoded.count) bytes to the Type 4 tag; read back and verified.")
                    }
                    try guarded { try NDEFTags.writeType2(x, message: message) }
                    return out("Wrote \(message.encoded.count) bytes to the Type 2 tag; read back and verified.")
                }
                if Date() >= deadline {
                    throw nothingPresented("tag", within: timeout)
                }
                usleep(200_000)
            }
        }
    }
}
