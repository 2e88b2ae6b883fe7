import APDU
import ArgumentParser
import CardProfiles
import CardReading
import FeliCaCommands
import Foundation
import NFCTransport
import PCSCTransport

/// `cardscan felica`: what a FeliCa card holds, for someone writing a profile for it.
struct FeliCaSurveyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "felica",
        abstract: "List a FeliCa card's systems, areas and services; with --blocks, read what needs no key.",
        discussion: """
            Sends only read commands: Polling, Request System Code, Search Service Code
            and, with --blocks, Read Without Encryption of each service whose attribute
            needs no key. Works through a PC/SC contactless reader or a libnfc device
            (--device).

            Examples:
              cardscan felica
              cardscan felica --device pn532_uart:/dev/ttyUSB0 --blocks --json
            """)

    @OptionGroup var source: CardSourceOptions
    @Flag(help: "Also read the blocks of every service readable without a key.") var blocks = false
    @Flag(help: "Print as JSON.") var json = false
    @Flag(help: "Print each exchange to stderr.") var trace = false
    @Option(
        help: ArgumentHelp(
            "Also write the card as a cardsim card image (implies --blocks): a virtual copy to develop a profile against.",
            valueName: "FILE"))
    var image: String?

    func run() throws {
        try refuseUnwritableOutput(image)
        let connection = try waitForFeliCa()
        guard case .felica = connection.card, let poll = connection.felicaPoller else { preconditionFailure() }
        let exchange = Tracer.exchange(connection.channel, felica: true, trace: trace)
        let (survey, error) = try guarded {
            try connection.withExclusiveAccess { FeliCaSurvey.run(exchange: exchange, poll: poll, readBlocks: blocks || image != nil) }
        }
        out(json ? Self.json(survey).serialized(pretty: true) : Self.text(survey))
        if let image {
            if survey.partial || survey.systems.isEmpty {
                eprint("note: \(image) not written: the survey did not finish")
            } else {
                try guarded { try TextFile.write(survey.cardImage.json(), to: image) }
                eprint("Wrote \(image): serve it with `cardsim vpcd \(image)` or `cardsim pn532 --pty PATH \(image)`.")
            }
        }
        if let error { throw fail(error, ExitStatus(for: error)) }
    }

    /// Waits for a card through libnfc (`--device`) or PC/SC; one that is not FeliCa is exit 76.
    func waitForFeliCa() throws -> CardConnection {
        let connection = try source.waitForCard(what: "FeliCa card")
        if case .felica = connection.card { return connection }
        if let atr = connection.atr {
            throw fail(
                NotFeliCa(
                    what: "the card on \(connection.reader) is not a FeliCa card (ATR \(atr.hexString))",
                    hint: "`cardscan atr \(Hex.format(atr, separator: ""))` says what it is; `cardscan` reads it if a profile knows it"),
                .notRecognised)
        }
        var what = "\(connection.card)"
        if case .iso7816(let c) = connection.card, let uid = c.uid { what = "ISO 14443-A, UID \(uid.hexString)" }
        if case .type2Tag(let uid?) = connection.card { what = "ISO 14443-A, UID \(uid.hexString)" }
        throw fail(NotFeliCa(what: "the card on \(connection.reader) is not a FeliCa card (\(what))"), .notRecognised)
    }

    static func text(_ s: FeliCaSurvey) -> String {
        var lines: [String] = []
        if s.systems.isEmpty { return "No FeliCa system answered." }
        lines.append("FeliCa card, PMm \(s.pmm.hexString)")
        var services = 0, open = 0, blockCount = 0
        for system in s.systems {
            lines.append("System \(Hex.format(system.code))  IDm \(system.idm.hexString)")
            if system.nodes.isEmpty { lines.append("  (no areas or services listed)") }
            for n in system.nodes {
                let indent = String(repeating: "  ", count: n.depth + 1)
                switch n.node {
                case .area:
                    lines.append(indent + n.node.description)
                case .service(let code):
                    services += 1
                    var line = indent + "Service \(Hex.format(code.value))h  \(code.attributeName)"
                    if let b = n.blocks {
                        open += 1
                        blockCount += b.count
                        line += "  \(b.count) block(s)"
                    }
                    lines.append(line)
                    for (i, block) in (n.blocks ?? []).enumerated() {
                        lines.append(indent + "  " + Hex.format(UInt16(i)) + "  " + block.hexString)
                    }
                }
            }
        }
        let read = open > 0 ? " (\(open) read without a key: \(blockCount) blocks)" : ""
        lines.append(
            "\(services) service(s)\(read) in \(s.systems.count) system(s), \(s.exchanges) exchange(s) with the card\(s.partial ? "; stopped early" : "")"
        )
        return lines.joined(separator: "\n")
    }

    static func json(_ s: FeliCaSurvey) -> JSONValue {
        .object([
            ("pmm", .string(s.pmm.hexString)),
            (
                "systems",
                .array(
                    s.systems.map { system in
                        .object([
                            ("code", .string(Hex.format(system.code))),
                            ("idm", .string(system.idm.hexString)),
                            (
                                "nodes",
                                .array(
                                    system.nodes.map { n in
                                        var pairs: [(String, JSONValue)] = [("depth", .int(n.depth))]
                                        switch n.node {
                                        case .area(let code, let end):
                                            pairs += [("area", .string(Hex.format(code))), ("end", .string(Hex.format(end)))]
                                        case .service(let code):
                                            pairs += [
                                                ("service", .string(Hex.format(code.value))), ("attribute", .string(code.attributeName)),
                                            ]
                                            if let b = n.blocks { pairs.append(("blocks", .array(b.map { .string($0.hexString) }))) }
                                        }
                                        return .object(pairs)
                                    })
                            ),
                        ])
                    })
            ),
            ("exchanges", .int(s.exchanges)),
            ("partial", .bool(s.partial)),
        ])
    }
}
