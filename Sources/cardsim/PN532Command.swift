import APDU
import ArgumentParser
import CardSimulator
import Foundation

struct PN532: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pn532",
        abstract: "Be a PN532 reader with a card in its field, on a pseudo-terminal, for libnfc.",
        discussion: """
            Creates a pseudo-terminal, links PATH to it, and answers libnfc's pn532_uart
            driver:
              LIBNFC_AUTO_SCAN=false LIBNFC_DEVICE=pn532_uart:PATH nfc-list
            The card is a transcript: `technology: felica` (with `idm`, `pmm`,
            `system-code` headers), `iso7816` (an ISO 14443-4 card) or `type2`, its
            commands answered by lenient replay; or a card image (JSON, docs/lab.md): an
            ISO 7816 image (type A, or type B with `"iso14443": "b"`; its answers carry
            the historical bytes of its ATR), a DESFire image (its UID, ATQA, SAK and
            ATS), an Ultralight or Classic image, or a FeliCa image (docs/felica.md); or
            another tool's dump of one card, served as the image `cardscan import` makes
            of it (.mfd, Proxmark3 JSON, Flipper .nfc, .mct, Metrodroid, Farebot). PATH
            must not contain ':' (libnfc splits connection strings on it).
            """)

    @Option(help: ArgumentHelp("Where to link the pseudo-terminal (no ':').", valueName: "PATH")) var pty: String
    @Argument(help: ArgumentHelp("The card: a transcript, a card image, or another tool's dump.", valueName: "CARDFILE"))
    var card: String
    @Option(name: .customLong("remove-after"), help: ArgumentHelp("The card leaves after N exchanges.", valueName: "N")) var removeAfter:
        Int?
    @Option(name: .customLong("silent-after"), help: ArgumentHelp("The PN532 stops answering after N exchanges.", valueName: "N"))
    var silentAfter: Int?
    @Flag(name: .shortAndLong, help: "Log each exchange to stderr.") var verbose = false

    func validate() throws {
        if pty.contains(":") { throw ValidationError("the pty path must not contain ':' (libnfc splits connection strings on it)") }
        for (name, value) in [("--remove-after", removeAfter), ("--silent-after", silentAfter)] {
            if let value, value < 0 { throw ValidationError("\(name) is 0 or more (not \(value))") }
        }
    }

    func run() throws {
        guard let raw = FileManager.default.contents(atPath: card) else {
            writeToStandardError("cardsim: \(card): cannot read\n")
            throw ExitCode(66)
        }
        let data: Data
        do { data = try ForeignDump.asImage(raw, file: card) } catch {
            writeToStandardError("cardsim: \((error as? UserFacingError)?.message ?? "\(error)")\n")
            throw ExitCode(65)
        }
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator.load(data, file: card, removeAfter: removeAfter, silentAfter: silentAfter, verbose: verbose)
        } catch {
            writeToStandardError("cardsim: \(error)\n")
            throw ExitCode(65)
        }
        installSignalHandlers()
        // posix_openpt/unlockpt/ptsname are not visible from Swift's Glibc module: use
        // /dev/ptmx and the Linux ioctls they wrap (TIOCSPTLCK, TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            writeToStandardError("cardsim: cannot open a pseudo-terminal\n")
            throw ExitCode(71)
        }
        let slavePath = "/dev/pts/\(number)"
        // Keep a slave descriptor open so the master never sees EIO between clients; raw mode.
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        var tio = termios()
        tcgetattr(slave, &tio)
        cfmakeraw(&tio)
        tcsetattr(slave, TCSANOW, &tio)
        unlink(pty)
        guard symlink(slavePath, pty) == 0 else {
            writeToStandardError("cardsim: cannot link \(pty) → \(slavePath)\n")
            throw ExitCode(73)
        }
        writeToStandardError("cardsim: PN532 on \(pty) (\(slavePath))\n")
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &chunk, chunk.count)
            if n <= 0 {
                usleep(10_000)
                continue
            }
            buffer += chunk[0..<n]
            for frame in PN532Frame.extract(from: &buffer) {
                let reply = emulator.reply(to: frame)
                _ = reply.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            }
        }
    }
}
