import APDU
import ArgumentParser
import CardDumps
import CardProfiles
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn other tools' card dumps into cardscan card images.",
        discussion: """
            Reads Metrodroid JSON (ISO 7816, FeliCa, DESFire, Classic, Ultralight) and its
            ZIP exports, Farebot's JSON and legacy XML, Proxmark3 JSON (mfc, mfu), Flipper
            Zero .nfc (Classic, Ultralight, DESFire, FeliCa), MIFARE Classic Tool .mct and
            raw .mfd images (docs/dump-formats.md). Each card becomes an
            image named TECHNOLOGY-UID.json in --out (default: the current folder), which
            `cardscan read` reads and cardsim serves. What a dump does not keep (an unreadable
            sector, a file that needs a key) stays so in the image, never invented; what had
            to be guessed is said as a warning. A dump that is not well formed is refused
            (exit 65) naming the place, and nothing is written for it.

            Examples:
              cardscan import Metrodroid-0411223344.json
              cardscan import hf-mf-1A2B3C4D-dump.json card.nfc --out images/
              cardscan import Metrodroid-export.zip --out images/
            """)

    @Argument(help: ArgumentHelp("Dump files.", valueName: "FILE")) var files: [String]
    @Option(help: ArgumentHelp("Write the images in this folder.", valueName: "DIR")) var out: String = "."
    @Option(help: ArgumentHelp("The dump's format, when it cannot be told from its content.", valueName: "FORMAT"))
    var format: String?
    @Option(help: ArgumentHelp("ISO 7816: the ATR to give the card (no dump keeps one). (default: 3B 80 80 01 01)", valueName: "HEX"))
    var atr: String?
    @Flag(name: .customLong("type-b"), help: "ISO 7816: the card is ISO 14443 type B.") var typeB = false
    @Option(help: ArgumentHelp("Classic: the card's size when the dump cannot tell (mini, 1k, 2k, 4k).", valueName: "TYPE"))
    var classicType: String?
    @Option(help: ArgumentHelp("Classic: the UID, when the dump has no manufacturer block.", valueName: "HEX")) var uid: String?
    @Flag(help: "Replace image files that exist.") var force = false

    func validate() throws {
        if let format, DumpFormat(rawValue: format) == nil {
            throw ValidationError("--format: one of \(DumpFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let classicType, ClassicCardImage.Kind(rawValue: classicType) == nil {
            throw ValidationError("--classic-type: mini, 1k, 2k or 4k")
        }
    }

    func run() throws {
        var options = ImportOptions()
        if let atr { options.atr = try guarded { try Hex.parse(atr) } }
        options.typeB = typeB
        options.classicKind = classicType.flatMap(ClassicCardImage.Kind.init(rawValue:))
        if let uid { options.uid = try guarded { try Hex.parse(uid) } }
        var worst: Int32 = 0
        for file in files {
            do {
                let result = try DumpImport.images(
                    try TextFile.bytes(file), file: file, format: format.flatMap(DumpFormat.init(rawValue:)), options: options)
                for w in result.warnings { eprint("warning: \(file): \(w)") }
                try write(result.images, from: file)
            } catch {
                printError(error, file: files.count > 1 ? file : nil)
                worst = max(worst, ExitStatus(for: error).rawValue)
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Each image as TECHNOLOGY-ID.json in --out (TECHNOLOGY-ID-N.json when a file holds the same
    /// card more than once); none is written when one would replace a file (without --force).
    private func write(_ images: [CardImage], from file: String) throws {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let names = images.map { $0.technology + "-" + ($0.identifier.isEmpty ? stem : $0.identifier) }
        // The same card twice in one file (two reads of it in an archive): numbered, in order.
        let targets = names.enumerated().map { i, name in
            out + "/" + name + (names.filter { $0 == name }.count > 1 ? "-\(i + 1)" : "") + ".json"
        }
        if !force, let existing = targets.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw ImportTargetExists(path: existing)
        }
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (image, target) in zip(images, targets) {
            try TextFile.write(image.json, to: target)
            cardscan.out("\(target): \(image.technology) card image")
        }
    }
}

/// An image import would write exists already (without --force).
struct ImportTargetExists: UserFacingError {
    let path: String
    var message: String { "\(path) exists" }
    var hint: String? { "give another --out folder, or --force to replace it" }
}
