import APDU
import ArgumentParser
import CardDumps
import CardReading
import Foundation
import MIFARECommands
import NFCTransport
import ProfileLanguage

/// `cardscan classic`: a MIFARE Classic card, read with the keys the user has.
struct ClassicDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classic",
        abstract:
            "Read a MIFARE Classic card with your keys: each sector, the key that opened it, its blocks; --image writes a card image.",
        discussion: """
            Tries, for each sector, the keys imported with `cardscan keys add` and those of
            --keys files (the card's own first, then dictionaries), then the well-known keys.
            Sends only AUTHENTICATE and READ. Works through a PC/SC contactless reader (LOAD
            KEY and GENERAL AUTHENTICATE, as ACS and Identiv readers take them) or a libnfc
            device (--device). Keys are shown by their first and last byte; --trace and
            transcripts write them `..`.

            --image writes the card as a Classic card image (JSON, keys included, mode 0600)
            that `cardsim vpcd FILE` and `cardsim pn532 --pty PATH FILE` serve and
            `cardscan export --format mfd` turns into an nfc-mfclassic dump.

            Examples:
              cardscan keys add hf-mf-1A2B3C4D-key.bin
              cardscan classic --image card.json
              cardscan classic --keys extra.keys --json
            """)

    @OptionGroup var source: CardSourceOptions
    @Option(name: .customLong("keys"), help: ArgumentHelp("Also try the keys of this file (repeatable).", valueName: "FILE"))
    var keyFiles: [String] = []
    @Option(help: ArgumentHelp("Also write the card as a cardsim card image.", valueName: "FILE")) var image: String?
    @Flag(help: "Print the image as JSON (what --image writes) instead of a listing.") var json = false
    @Flag(help: "Print each exchange to stderr (keys written `..`).") var trace = false

    func run() throws {
        try refuseUnwritableOutput(image)
        var keys = try guarded { try ClassicKeyStore.load().map(\.stored.keys) }
        for file in keyFiles { keys.append(try guarded { try ClassicKeyStore.keys(of: file) }) }
        let connection = try source.waitForCard(what: "MIFARE Classic card")
        guard case .classic(let uid?, let sectors) = connection.card,
            let kind = ClassicCardImage.Kind.allCases.first(where: { $0.sectorCount == sectors })
        else {
            throw fail(NotThisKind(wanted: "a MIFARE Classic card", card: "\(connection.card)", reader: connection.reader), .notRecognised)
        }
        if trace { eprint("Card on \(connection.reader): \(connection.card)") }
        let exchange = Tracer.exchange(connection.channel, classic: true, trace: trace)
        // Through libnfc a card that refused a key is halted: poll it again to go on.
        let reselect: (() throws -> Void)? = (connection.channel as? ISO14443Channel).map { c in
            {
                if try c.device.pollISO14443A() == nil {
                    throw NotThisKind(wanted: "a MIFARE Classic card", card: "no card", reader: connection.reader)
                }
            }
        }
        let sak: UInt8 = [5: 0x09, 16: 0x08, 32: 0x19, 40: 0x18][sectors] ?? 0x08
        let result = try guarded {
            try connection.withExclusiveAccess {
                ClassicDump.run(
                    uid: uid, atqa: sectors == 40 ? [0x00, 0x02] : [0x00, 0x04], sak: sak, kind: kind, keys: keys,
                    transmit: exchange.transmit,
                    reselect: reselect)
            }
        }
        let text = CardImage.classic(result.image).json
        out(json ? text.trimmingCharacters(in: .newlines) : Self.listing(result, exchanges: exchange.roundTrips))
        if let image, result.error == nil {
            try guarded { try TextFile.write(text, to: image) }
            chmod(image, 0o600)
            eprint("Wrote \(image) (it holds the keys: readable by you only).")
        }
        if let error = result.error { throw fail(error, ExitStatus(for: error)) }
    }

    /// Each sector: the keys that opened it (masked) and its blocks.
    static func listing(_ r: ClassicDump.Result, exchanges: Int) -> String {
        let c = try? r.image.contents()
        var lines = ["MIFARE Classic \(r.image.type.uppercased()), UID \(r.image.uid)", ""]
        let sectors = c?.sectors ?? []
        lines += madListing(sectors)
        for (n, s) in sectors.enumerated() {
            guard let s else {
                lines.append("sector \(n): no key opened it")
                continue
            }
            let keys = [s.keyA.map { "key A " + ClassicKeyStore.masked($0) }, s.keyB.map { "key B " + ClassicKeyStore.masked($0) }]
                .compactMap { $0 }.joined(separator: ", ")
            lines.append("sector \(n): \(keys)")
            for b in s.blocks { lines.append("  " + patternText(b)) }
            if let t = s.blocks.last, t.count == 16, let b6 = t[6], let b7 = t[7], let b8 = t[8], let access = AccessBits(b6, b7, b8) {
                let data = s.blocks.count > 4 ? "data blocks" : "blocks 0–2"
                let same = Set((0..<3).map { access.describe(block: $0) }).count == 1
                let parts =
                    same
                    ? ["\(data) \(access.describe(block: 0))"] : (0..<3).map { "block \($0) \(access.describe(block: $0))" }
                lines.append("  access: " + (parts + ["trailer: \(access.describe(block: 3))"]).joined(separator: "; "))
            }
        }
        lines += r.notes.map { "note: \($0)" }
        lines.append("\(r.authentications) authentication(s), \(exchanges) exchange(s) with the card")
        return lines.joined(separator: "\n")
    }

    /// The application directory (AN10787) when sector 0 was read and holds one: each sector's
    /// application, runs of free sectors joined.
    static func madListing(_ sectors: [ClassicCardImage.SectorContents?]) -> [String] {
        func bytes(_ s: ClassicCardImage.SectorContents?) -> [[UInt8]]? { s.map { $0.blocks.map { $0.map { $0 ?? 0 } } } }
        guard let s0 = bytes(sectors.first ?? nil),
            let mad = ClassicMAD.decode(sector0: s0, sector16: sectors.count > 16 ? bytes(sectors[16]) : nil)
        else { return [] }
        let crc = mad.crcMatches.allSatisfy { $0 } ? "CRC right" : "CRC wrong: the directory may be damaged"
        var lines = [
            "application directory (MAD\(mad.version), \(crc))" + (mad.publisherSector.map { ", publisher in sector \($0)" } ?? "")
        ]
        var i = 0
        let entries = mad.entries.filter { $0.sector < sectors.count }
        while i < entries.count {
            var j = i
            while j + 1 < entries.count, entries[j + 1].aid == entries[i].aid { j += 1 }
            let range = i == j ? "sector \(entries[i].sector)" : "sectors \(entries[i].sector)–\(entries[j].sector)"
            lines.append("  \(range): \(entries[i].name)")
            i = j + 1
        }
        return lines + [""]
    }
}
