import APDU
import ArgumentParser
import CardSimulator
import Foundation

struct VPCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vpcd",
        abstract: "Be a card in a vpcd virtual reader: an ISO 7816 transcript, or a FeliCa card behind a contactless reader.",
        discussion: """
            Connects to pcscd's vpcd driver (vsmartcard-vpcd) as the card in a virtual
            reader: port 35963 is "Virtual PCD 00 00", 35964 is "Virtual PCD 00 01". If
            pcscd is not up yet, cardsim keeps trying; on SIGTERM it leaves the reader
            (the card is removed).

            An ISO 7816 transcript: commands are answered by lenient replay (unknown
            ones get 6D 00); the ATR comes from the transcript's `atr` header or --atr.
            A Type 4 tag's files, and a Type 2 tag's pages (`technology: type2`, behind
            a storage-card reader: FF B0 reads, FF D6 writes), can be written and read
            back.

            An ISO 7816 card image (JSON, `technology: iso7816`, docs/lab.md) is a
            file system: SELECT, READ BINARY and READ RECORD are answered as a card
            does, plus the image's fixed answers.

            A FeliCa card (a `technology: felica` transcript, or a card image: see
            docs/felica.md) is served as an ACS contactless reader shows one: the PC/SC
            pseudo-ATR, its IDm for FF CA 00 00 00, and frames in FF 00 00 00 Lc FRAME
            (ACR1252U style) or, with --acr122 or for a transcript recorded through one,
            in FF 00 00 00 Lc D4 40 01 FRAME (the PN532-based ACR122U).

            MIFARE DESFire, Ultralight and Classic images are served as an ACS reader
            shows those cards. Other tools' dumps are served as they are, as the image
            `cardscan import` makes of them: a raw .mfd (keys from its sector
            trailers), a Proxmark3 JSON dump, a Flipper .nfc file, a MIFARE Classic
            Tool .mct file, a Metrodroid or Farebot file of one card.
            """)

    @Argument(
        help: ArgumentHelp("The card: a transcript, a card image (JSON), or another tool's dump of one card.", valueName: "CARDFILE"))
    var transcript: String
    @Option(help: "vpcd's TCP port.") var port: Int = 35963
    @Option(help: "vpcd's host.") var host: String = "127.0.0.1"
    @Option(help: ArgumentHelp("ATR to present (hex), instead of the transcript's.", valueName: "HEX")) var atr: String?
    @Flag(help: "FeliCa: be a PN532-based ACR122U (ATR ... 03 F0 11 ..., frames in D4 40 01 pseudo-APDUs).") var acr122 = false
    @Option(name: .customLong("remove-after"), help: ArgumentHelp("Vanish (card removed) when command N+1 arrives.", valueName: "N"))
    var removeAfter: Int?
    @Option(name: .customLong("latency-ms"), help: ArgumentHelp("Delay each answer by D milliseconds.", valueName: "D"))
    var latencyMs: Int = 0
    @Option(
        name: .customLong("mute-after"),
        help: ArgumentHelp("Stop answering after N answers (the client's timeout must fire).", valueName: "N"))
    var muteAfter: Int?
    @Flag(help: "Exit when the connection ends instead of reconnecting.") var once = false
    @Flag(
        name: .customLong("multi-app"),
        help:
            "ISO 7816: be one application of several: a SELECT of another AID selects it, and other commands then answer 6A 82 until the transcript's application is selected again."
    )
    var multiApp = false
    @Flag(name: .shortAndLong, help: "Log each exchange to stderr.") var verbose = false
    @Option(
        help: ArgumentHelp(
            "Tap the card again and again: present it for P ms, take it away for A ms (the soak, scripts/soak.sh).",
            valueName: "P:A"))
    var cycle: String?
    @Option(help: ArgumentHelp("With --cycle: stop after N presentations (default: until stopped).", valueName: "N")) var taps: Int?
    @Option(
        name: .customLong("remove-mid-read-every"),
        help: ArgumentHelp("With --cycle and --remove-after: remove the card mid-read only on every K-th presentation.", valueName: "K"))
    var removeMidReadEvery: Int?

    /// `--cycle P:A` in milliseconds.
    var cycleTimes: (present: Int, absent: Int)? {
        guard let cycle else { return nil }
        let parts = cycle.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 && parts.allSatisfy({ (1...600_000).contains($0) }) ? (parts[0], parts[1]) : nil
    }

    func validate() throws {
        if !(1...65535).contains(port) { throw ValidationError("--port is a TCP port, 1 to 65535 (not \(port))") }
        if cycle != nil, cycleTimes == nil {
            throw ValidationError("--cycle is P:A in milliseconds, each 1 to 600000, e.g. 800:400 (not '\(cycle!)')")
        }
        // Each of these became a sleep in microseconds (32 bits) or a divisor: bounded here.
        if !(0...60_000).contains(latencyMs) { throw ValidationError("--latency-ms is 0 to 60000 (not \(latencyMs))") }
        if let k = removeMidReadEvery, k < 1 { throw ValidationError("--remove-mid-read-every is 1 or more (not \(k))") }
        if let n = taps, n < 1 { throw ValidationError("--taps is 1 or more (not \(n))") }
        for (name, value) in [("--remove-after", removeAfter), ("--mute-after", muteAfter)] {
            if let value, value < 0 { throw ValidationError("\(name) is 0 or more (not \(value))") }
        }
        if taps != nil || removeMidReadEvery != nil, cycle == nil {
            throw ValidationError("--taps and --remove-mid-read-every go with --cycle")
        }
        if removeMidReadEvery != nil, removeAfter == nil { throw ValidationError("--remove-mid-read-every needs --remove-after N") }
    }

    func run() throws {
        guard let raw = FileManager.default.contents(atPath: transcript) else {
            writeToStandardError("cardsim: \(transcript): cannot read\n")
            throw ExitCode(66)
        }
        let data: Data
        do { data = try ForeignDump.asImage(raw, file: transcript) } catch {
            writeToStandardError("cardsim: \((error as? UserFacingError)?.message ?? "\(error)")\n")
            throw ExitCode(65)
        }
        var options = VirtualCardOptions()
        do { options.atr = try atr.map { try Hex.parse($0) } } catch {
            writeToStandardError("cardsim: --atr: \((error as? UserFacingError)?.message ?? "\(error)")\n")
            throw ExitCode(64)
        }
        options.acr122 = acr122
        options.removeAfter = removeAfter
        options.latencyMs = latencyMs
        options.muteAfter = muteAfter
        options.multiApp = multiApp
        options.verbose = verbose
        let card: VirtualCard
        do { card = try VirtualCard.load(data, file: transcript, options: options) } catch {
            // The library's hint names its own option; cardsim's is --atr.
            let hint = error == .noATR ? "add the card's ATR as an `# atr:` header, or give --atr" : error.hint
            writeToStandardError("cardsim: \(error.message)\n" + (hint.map { "hint: \($0)\n" } ?? ""))
            throw ExitCode(error == .noATR ? 64 : 65)
        }
        installSignalHandlers()
        if let (present, absent) = cycleTimes {
            // Taps: each presentation a fresh card; one that pcscd cut short (it went away)
            // is presented again, so `--taps` counts presentations a reader saw through.
            var tap = 0
            while taps.map({ tap < $0 }) ?? true {
                let fd = VPCDConnection.connect(host: host, port: port)
                tap += 1
                card.present()
                if let k = removeMidReadEvery { card.removeAfter = tap % k == 0 ? removeAfter : nil }
                let ended = card.serve(fd, until: .now + .milliseconds(present))
                close(fd)
                if ended == .disconnected { tap -= 1 }
                usleep(useconds_t(absent * 1000))
            }
            return
        }
        while true {
            let fd = VPCDConnection.connect(host: host, port: port)
            let ended = card.serve(fd)
            close(fd)
            if ended == .removed || once { return }
            usleep(200_000)  // pcscd went away: wait for it to come back
        }
    }
}

func installSignalHandlers() {
    // A parent may have spawned us with signals blocked (libdispatch worker threads block
    // them, and the mask is inherited): unblock, or SIGTERM would never leave the reader.
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
    signal(SIGTERM) { _ in _exit(0) }  // the kernel closes the socket: vpcd sees the card leave
    signal(SIGINT) { _ in _exit(0) }
    signal(SIGPIPE, SIG_IGN)
}
