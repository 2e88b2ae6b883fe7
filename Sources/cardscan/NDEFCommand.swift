import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation
import NDEF
import NFCTransport

struct NDEFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ndef",
        abstract: "NFC Forum tags (NDEF): read or write a Type 2, 3 (FeliCa) or 4 tag, or a MIFARE Classic card formatted for NDEF.",
        discussion: """
            Through a PC/SC contactless reader (the default; -r picks one), or a libnfc
            device (--device). Over PC/SC the reader's pseudo-ATR says what the tag is:
            FeliCa (Type 3, frames in the reader's pseudo-APDUs), MIFARE Ultralight/NTAG
            (Type 2, pages through FF B0 / FF D6), anything else ISO 14443-4 (Type 4).
            """,
        subcommands: [Read.self, Write.self])

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Read the NDEF message of a Type 2, 3 (FeliCa) or 4 tag, or of a MIFARE Classic card formatted for NDEF.",
            discussion: """
                Examples:
                  cardscan ndef read
                  cardscan ndef read --device pn532_uart:/dev/ttyUSB0 --json
                """)

        @OptionGroup var tag: TagOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            let (connection, found) = try tag.waitForTag()
            let (status, message) = try guarded { try connection.withExclusiveAccess { try found.read() } }
            printNDEF(NDEFContent(tag: found.name, status: status, message: message), json: json)
        }
    }
}

/// Prints an NDEF tag's status and records (`ndef read`, and `scan`'s NDEF fallback).
func printNDEF(_ content: NDEFContent, json: Bool) {
    let (tag, status) = (content.tag, content.status)
    let records = content.message?.records ?? []
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
        out(
            JSONValue.object([
                ("tag", .string(tag)), ("access", .string(status.access.rawValue)),
                ("capacity", .int(status.capacity)), ("records", .array(items)),
            ]).serialized(pretty: true))
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
            commandName: "write",
            abstract: "Write a Text or URI record to a Type 2, 3 or 4 tag or an NDEF-formatted MIFARE Classic card, then read it back.",
            discussion: """
                The tag's NDEF status is read first: a read-only tag, or one too small for
                the message, is refused and nothing is written. After writing, the message
                is read back and compared.

                Examples:
                  cardscan ndef write --uri https://example.com
                  cardscan ndef write --device pn532_uart:/dev/ttyUSB0 --text "hello" --lang en
                """)

        @OptionGroup var tag: TagOptions
        @Option(help: "Write a Text record with this text.") var text: String?
        @Option(help: "The Text record's language (IANA code).") var lang: String = "en"
        @Option(help: "Write a URI record.") var uri: String?

        func validate() throws {
            if (text == nil) == (uri == nil) { throw ValidationError("give exactly one of --text or --uri") }
            // NFC Forum Text RTD 1.0 §3.2.1: the language code's length has 6 bits (≤ 63 bytes);
            // RFC 5646 tags are letters, digits and hyphens. A longer one was cut short unasked.
            if text != nil,
                lang.isEmpty || lang.utf8.count > 63 || !lang.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            {
                throw ValidationError("--lang is a language tag of 1 to 63 letters, digits and hyphens (en, de-CH), not '\(lang)'")
            }
            if uri?.isEmpty == true { throw ValidationError("--uri is empty: give the URI to write") }
        }

        func run() throws {
            let payload: NDEFPayload = text.map { .text($0, language: lang) } ?? .uri(uri!)
            let message = NDEFMessage(records: [payload.record])
            let (connection, found) = try tag.waitForTag()
            try guarded { try connection.withExclusiveAccess { try found.write(message) } }
            let kind = found.name.replacingOccurrences(of: "type", with: "Type ")
            out("Wrote \(message.encoded.count) bytes to the \(kind) tag; read back and verified.")
        }
    }
}

/// `--device` or `-r`, and waiting for a tag: what the `ndef` commands share.
struct TagOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp("PC/SC reader: index, exact name or unique substring (default: any).", valueName: "READER"))
    var reader: String?
    @Option(
        help: ArgumentHelp("Use this libnfc device instead of PC/SC (e.g. pn532_uart:/dev/ttyUSB0, acr122_usb).", valueName: "CONNSTRING"))
    var device: String?
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a tag. (default: 60)", valueName: "SECONDS"), transform: seconds)
    var timeout: Double =
        60
    @Flag(help: "Print each exchange to stderr.") var trace = false

    /// Waits for a tag (exit 75 after the timeout); exit 76 for a FeliCa card without NDEF.
    /// The connection is returned with the tag: the tag's commands go through it.
    func waitForTag() throws -> (CardConnection, NDEFTag) {
        // (The tag's Polling for 12FC runs before the caller's transaction: it only asks
        // which system answers, and reads nothing another client could disturb.)
        let connection = try waitForCard(device: device, reader: reader, timeout: timeout, apduTimeout: nil, what: "tag")
        let exchange = Tracer.exchange(
            connection.channel, felica: connection.card.technology == .felica, type2: connection.card.technology == .ultralight,
            trace: trace)
        guard let tag = try guarded({ try connection.ndefTag(through: exchange) }) else {
            throw fail(NDEFTags.Failure.notNDEF("the FeliCa card has no NDEF system (12FC)"), .notRecognised)
        }
        return (connection, tag)
    }
}
