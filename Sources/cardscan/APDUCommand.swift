import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation
import PCSCTransport

struct APDUCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apdu",
        abstract: "Send raw APDUs and print each answer with its status word's meaning.",
        discussion: """
            APDUs come as arguments or from a script in scriptor's format: one APDU a
            line, `#` comments, `reset` to reset the card (the new ATR is printed),
            `exit` to stop. `--script -`, or no APDU with standard input not a terminal,
            reads the script from standard input, as scriptor does. Commands that may change the
            card (anything but SELECT, READ BINARY/RECORD, GET RESPONSE/DATA/CHALLENGE,
            GET BALANCE, CEPAS READ PURSE, the reader's FF CA GET DATA and FF B0 READ
            BINARY, and FeliCa read commands in a FF 00 00 00 pseudo-APDU) are refused
            unless --allow-write is given. The APDUs between two resets are sent in one
            PC/SC transaction: another program's commands to the card wait until they
            are done.

            Examples:
              cardscan apdu 00A4040009A0000000038698070100 805C000204
              cardscan apdu FFCA000000 FF00000006060000030100    (FeliCa: IDm, Polling)
              cardscan apdu --script commands.txt -r 1
              echo 00A4040007A0000000041010 | cardscan apdu
            """)

    @Argument(help: ArgumentHelp("APDUs in hex (quote one with spaces).", valueName: "HEX")) var apdus: [String] = []
    @Option(help: ArgumentHelp("A script file (scriptor format); - for standard input.", valueName: "FILE")) var script: String?
    @Option(name: [.short, .long], help: ArgumentHelp("Reader: index, exact name or unique substring.", valueName: "READER")) var reader:
        String?
    @Flag(name: .customLong("allow-write"), help: "Allow commands that may change the card.") var allowWrite = false
    @Flag(help: "Show 61xx/6Cxx as the card sent them (no GET RESPONSE, no re-send).") var raw = false
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a card. (default: 60)", valueName: "SECONDS"), transform: seconds)
    var timeout: Double =
        60

    @Option(
        name: .customLong("apdu-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Seconds one command may take before the card counts as unresponsive. (default: 5)", valueName: "SECONDS"),
        transform: commandSeconds)
    var apduTimeout: Double = 5

    enum Line { case apdu(CommandAPDU, String), reset }

    func validate() throws {
        if apdus.isEmpty && script == nil && isatty(STDIN_FILENO) == 1 {
            throw ValidationError("give APDUs as arguments, --script FILE, or a script on standard input")
        }
        if !apdus.isEmpty && script != nil { throw ValidationError("give APDUs as arguments or --script FILE, not both") }
    }

    /// The script's lines, each with where it is (`FILE:LINE`, `standard input:LINE`,
    /// `argument N`): the APDUs given, a script file, or standard input (`-`, or no APDUs).
    func source() throws -> [(String, String)] {
        guard let script = script ?? (apdus.isEmpty ? "-" : nil) else {
            return apdus.enumerated().map { ("argument \($0.offset + 1)", $0.element) }
        }
        let text =
            script == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : try TextFile.read(script)
        let name = script == "-" ? "standard input" : script
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            ("\(name):\($0.offset + 1)", String($0.element).trimmingCharacters(in: CharacterSet(charactersIn: "\r")))
        }
    }

    func run() throws {
        var lines: [Line] = []
        try guarded {
            // The known commands (standard + profiles/commands/known-commands.yaml).
            let policy = try CommandCatalog.builtIn.get()
            for (where_, text) in try source() {
                let t =
                    text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?.trimmingCharacters(
                        in: .whitespaces) ?? ""
                if t.isEmpty { continue }
                if t.lowercased() == "reset" {
                    lines.append(.reset)
                    continue
                }
                if t.lowercased() == "exit" || t.lowercased() == "quit" { break }
                let c: CommandAPDU
                do { c = try CommandAPDU(hex: t) } catch {
                    throw ValidationErrorWithPlace(place: where_, message: (error as? UserFacingError)?.message ?? "\(error)")
                }
                if !allowWrite, !PseudoAPDUReads.isReadOnly(c, policy: policy) {
                    throw ValidationErrorWithPlace(
                        place: where_,
                        message: "refused \(c): \(policy.refusal(of: c)); pass --allow-write to send it",
                        status: .usage)
                }
                lines.append(.apdu(c, t))
            }
        }
        let readers = try guarded { try PCSCReaders(choice: reader) }
        guard
            let state = try guarded({
                try readers.waitForOneCard(timeout: .seconds(option: timeout), notify: { announce($0, what: "card") })
            })
        else {
            throw nothingPresented(within: timeout)
        }
        try guarded {
            let card = try readers.context.connect(to: state.name, timeout: .seconds(5))
            card.transmitTimeout = .seconds(option: apduTimeout)
            let exchange = CardExchange(channel: card, handlesT0: !raw)
            let style = Style()
            out(style.dim("Using \(state.name), ATR \(card.atr.hexString)"))
            // The APDUs between two resets are one PC/SC transaction: another program on the
            // same reader cannot send its SELECT between this script's SELECT and the READ
            // that relies on it (it waits, and goes on after).
            var rest = lines[...]
            while !rest.isEmpty {
                if case .reset = rest.first {
                    try card.reconnect(initialization: .reset)
                    out("> reset")
                    out("< \((try? card.status().atr)?.hexString ?? card.atr.hexString) : the ATR after the reset")
                    rest = rest.dropFirst()
                    continue
                }
                let run = rest.prefix { if case .apdu = $0 { true } else { false } }
                rest = rest.dropFirst(run.count)
                try card.withTransaction {
                    for case .apdu(let c, _) in run {
                        out("> \(c)")
                        let r = try exchange.send(c)
                        let sw = r.statusWord
                        let meaning =
                            sw.isSuccess
                            ? style.green(sw.meaning) : (sw.category == .warning ? style.yellow(sw.meaning) : style.red(sw.meaning))
                        out("< \(r.bytes.hexString) : \(meaning)")
                    }
                }
            }
        }
    }
}
