import APDU
import ArgumentParser
import Foundation

struct VPCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vpcd",
        abstract: "Be an ISO 7816 card on a vpcd virtual reader, answering from a transcript.",
        discussion: """
        Connects to pcscd's vpcd driver (vsmartcard-vpcd) as the card in a virtual reader:
        port 35963 is "Virtual PCD 00 00", 35964 is "Virtual PCD 00 01". Commands are
        answered from the transcript by lenient replay (unknown ones get 6D 00). The ATR
        comes from the transcript's `atr` header or --atr. If pcscd is not up yet, cardsim
        keeps trying; on SIGTERM it leaves the reader (the card is removed).
        """)

    @Argument(help: ArgumentHelp("The transcript to serve.", valueName: "TRANSCRIPT")) var transcript: String
    @Option(help: "vpcd's TCP port.") var port: Int = 35963
    @Option(help: "vpcd's host.") var host: String = "127.0.0.1"
    @Option(help: ArgumentHelp("ATR to present (hex), instead of the transcript's.", valueName: "HEX")) var atr: String?
    @Option(name: .customLong("remove-after"), help: ArgumentHelp("Vanish (card removed) when command N+1 arrives.", valueName: "N"))
    var removeAfter: Int?
    @Option(name: .customLong("latency-ms"), help: ArgumentHelp("Delay each answer by D milliseconds.", valueName: "D"))
    var latencyMs: Int = 0
    @Option(name: .customLong("mute-after"), help: ArgumentHelp("Stop answering after N answers (the client's timeout must fire).", valueName: "N"))
    var muteAfter: Int?
    @Flag(help: "Exit when the connection ends instead of reconnecting.") var once = false
    @Flag(name: .shortAndLong, help: "Log each exchange to stderr.") var verbose = false

    func run() throws {
        let text: String
        do { text = try String(contentsOfFile: transcript, encoding: .utf8) } catch {
            FileHandle.standardError.write(Data("cardsim: \(transcript): cannot read: \(error.localizedDescription)\n".utf8))
            throw ExitCode(66)
        }
        let parsed: Transcript
        do { parsed = try Transcript(parsing: text, file: transcript) } catch {
            FileHandle.standardError.write(Data("cardsim: \(error.message)\n".utf8))
            throw ExitCode(65)
        }
        let atrBytes: [UInt8]
        do {
            if let atr { atrBytes = try Hex.parse(atr) } else if let a = parsed.atr { atrBytes = a } else {
                FileHandle.standardError.write(Data("cardsim: no ATR: the transcript has no `# atr:` header; give --atr\n".utf8))
                throw ExitCode(64)
            }
        }
        let card = VirtualCard(replay: ReplayChannel(parsed, mode: .lenient, file: transcript), atr: atrBytes,
                               removeAfter: removeAfter, latencyMs: latencyMs, muteAfter: muteAfter, verbose: verbose)
        installSignalHandlers()
        while true {
            let fd = VPCDConnection.connect(host: host, port: port)
            let ended = card.serve(fd)
            close(fd)
            if ended == .removed || once { return }
            usleep(200_000)     // pcscd went away: wait for it to come back
        }
    }
}

func installSignalHandlers() {
    // A parent may have spawned us with signals blocked (libdispatch worker threads block
    // them, and the mask is inherited): unblock, or SIGTERM would never leave the reader.
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
    signal(SIGTERM) { _ in _exit(0) }       // the kernel closes the socket: vpcd sees the card leave
    signal(SIGINT) { _ in _exit(0) }
    signal(SIGPIPE, SIG_IGN)
}
