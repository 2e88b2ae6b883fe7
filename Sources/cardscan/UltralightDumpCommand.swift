import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation
import MIFARECommands
import NFCTransport

/// `cardscan ultralight`: what a MIFARE Ultralight or NTAG tag lets be read without a password.
struct UltralightDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ultralight",
        abstract: "Show a MIFARE Ultralight or NTAG tag: model, UID, every readable page with its lock state, OTP and counters.",
        discussion: """
            Sends only reading commands: GET_VERSION, READ (four pages at a time) up to the
            tag's last page or the first it refuses (a password-protected area is shown as
            protected, never tried), and on EV1 and NTAG21x chips READ_SIG and READ_CNT.
            Works through a PC/SC contactless reader (which carries READ only: the model is
            then told from the page count) or a libnfc device (--device).

            --image writes what was read as an Ultralight card image (docs/cards/ultralight.md)
            that `cardsim vpcd FILE` and `cardsim pn532 --pty PATH FILE` serve.

            Examples:
              cardscan ultralight
              cardscan ultralight --device pn532_uart:/dev/ttyUSB0 --image ticket.json
            """)

    @OptionGroup var source: CardSourceOptions
    @Option(help: ArgumentHelp("Also write the tag as a cardsim card image.", valueName: "FILE")) var image: String?
    @Flag(help: "Print the image as JSON (what --image writes) instead of a listing.") var json = false
    @Flag(help: "Print each exchange to stderr.") var trace = false

    func run() throws {
        try refuseUnwritableOutput(image)
        let connection = try source.waitForCard(what: "MIFARE Ultralight or NTAG tag")
        guard case .type2Tag(let uid) = connection.card else {
            throw fail(
                NotThisKind(wanted: "a MIFARE Ultralight or NTAG tag", card: "\(connection.card)", reader: connection.reader),
                .notRecognised)
        }
        if trace { eprint("Card on \(connection.reader): \(connection.card)") }
        let exchange = Tracer.exchange(connection.channel, type2: true, trace: trace)
        // Through libnfc a tag that refused a command is halted: poll it again to go on.
        let reselect: (() throws -> Void)? = (connection.channel as? ISO14443Channel).map { c in
            {
                if try c.device.pollISO14443A() == nil {
                    throw NotThisKind(wanted: "a MIFARE Ultralight or NTAG tag", card: "no tag", reader: connection.reader)
                }
            }
        }
        let (dump, error) = try guarded {
            try connection.withExclusiveAccess { UltralightDump.run(exchange: exchange, uid: uid, reselect: reselect) }
        }
        out(json ? dump.json.trimmingCharacters(in: .newlines) : Self.text(dump))
        if let image {
            if dump.partial {
                eprint("note: \(image) not written: the dump did not finish")
            } else {
                try guarded { try TextFile.write(dump.json, to: image) }
                eprint("Wrote \(image): serve it with `cardsim vpcd \(image)` or `cardsim pn532 --pty PATH \(image)`.")
            }
        }
        if let error { throw fail(error, ExitStatus(for: error)) }
    }

    /// The listing: the chip, then each page with what it is and whether the lock bits freeze it.
    static func text(_ dump: UltralightDump) -> String {
        let i = dump.image
        let pages = (try? i.contents().pages) ?? []
        var lines = ["MIFARE \(UltralightPageRoles.name(of: i.model)), UID \(i.uid), \(pages.count) pages"]
        if let v = i.version { lines.append("Version    \(v)") }
        if let c = i.counters { lines.append("Counters   \(c.map(String.init).joined(separator: ", "))") }
        if let s = i.signature { lines.append("Signature  \(s)") }
        lines.append("")
        lines.append("page  data          locked  what")
        let locks = UltralightPageRoles.staticLocks(pages)
        for (n, page) in pages.enumerated() {
            let data = page.contains(nil) ? "protected   " : page.map { [$0 ?? 0].hexString }.joined(separator: " ")
            let locked = locks[n].map { $0 ? "yes" : "no" } ?? "-"
            lines.append(
                String(repeating: " ", count: max(0, 4 - String(n).count)) + String(n) + "  " + data + "  "
                    + locked.padding(toLength: 6, withPad: " ", startingAt: 0) + "  "
                    + UltralightPageRoles.role(n, count: pages.count))
        }
        lines += dump.notes.map { "note: \($0)" }
        lines.append("\(dump.exchanges) exchange(s) with the tag")
        return lines.joined(separator: "\n")
    }
}
