import APDU
import ArgumentParser
import CardDumps
import CardProfiles
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a cardscan card image in another tool's format.",
        discussion: """
            Formats: metrodroid (every card), proxmark3 (Classic: mfc v2, Ultralight: mfu),
            flipper (Classic, Ultralight, DESFire), mfd (raw Classic or Ultralight memory),
            mct (Classic). What a format cannot mark (an unknown byte in a raw image) is said
            as a warning. `cardscan import` of the export gives the image back where the
            format holds all of it (docs/dump-formats.md).

            Examples:
              cardscan export classic-1A2B3C4D.json --format mct
              cardscan export desfire-04112233445566.json --format flipper --out card.nfc
            """)

    @Argument(help: ArgumentHelp("A cardscan card image (or any dump `cardscan import` reads).", valueName: "IMAGE")) var image: String
    @Option(help: ArgumentHelp("metrodroid, proxmark3, flipper, mfd or mct.", valueName: "FORMAT")) var format: String
    @Option(help: ArgumentHelp("Write to this file (default: standard output; mfd needs a file).", valueName: "FILE")) var out: String?

    func validate() throws {
        guard let f = DumpExport.Format(rawValue: format) else {
            throw ValidationError("--format: one of \(DumpExport.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if f == .mfd && out == nil { throw ValidationError("--format mfd writes binary: give --out FILE") }
    }

    func run() throws { try guarded { try export() } }

    private func export() throws {
        let result = try DumpImport.images(try TextFile.bytes(image), file: image)
        guard let card = result.images.first else { return }
        let (bytes, warnings) = try DumpExport.bytes(card, as: DumpExport.Format(rawValue: format)!)
        for w in warnings { eprint("warning: \(w)") }
        if let out {
            try TextFile.write(bytes: bytes, to: out)
        } else {
            outRaw(String(decoding: bytes, as: UTF8.self))
        }
    }
}
