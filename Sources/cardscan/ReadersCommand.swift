import APDU
import ArgumentParser
import CardProfiles
import NFCTransport
import PCSCTransport

struct Readers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List PC/SC readers: index, name, whether a card is present, its ATR (and what a contactless one is).",
        discussion: """
            The index or any unique part of the name can be given to -r (or CARDSCAN_READER). \
            With pcscd down, the libnfc devices are still listed, then the error (exit 69).
            """)

    @Flag(help: "Print as JSON.") var json = false
    @Flag(
        name: .customLong("nfc"),
        help:
            "Also let libnfc scan for devices (PN532, ACR122U in libnfc mode); without it only the configured ones (LIBNFC_DEVICE, libnfc.conf) are listed."
    )
    var includeNFC = false

    func run() throws {
        // Configured libnfc devices (LIBNFC_DEVICE, libnfc.conf) always; a scan only with --nfc.
        let nfcDevices = NFCDevice.list(probe: includeNFC)
        var states: [ReaderState] = []
        // No pcscd: a libnfc device does without it, so those are still listed; the exit
        // status stays pcscd's (69), which scripts read as "the readers cannot be told".
        var pcscFailure: (any Error)? = nil
        do { states = try PCSCContext().readers() } catch {
            guard !nfcDevices.isEmpty else { throw fail(error, ExitStatus(for: error)) }
            pcscFailure = error
        }
        // A configured device is opened to tell whether it is there: LIBNFC_DEVICE names one
        // libnfc lists whether or not it exists.
        let opened = nfcDevices.map { d in Result { () throws(NFCError) in try NFCDevice(connectionString: d).name } }
        list(states, Array(zip(nfcDevices, opened)))
        if let pcscFailure { throw fail(pcscFailure, ExitStatus(for: pcscFailure)) }
    }

    /// Prints the readers and the libnfc devices, as JSON with --json.
    private func list(_ states: [ReaderState], _ nfcDevices: [(String, Result<String, NFCError>)]) {
        func problem(_ r: Result<String, NFCError>) -> String? { if case .failure(let e) = r { e.message } else { nil } }
        if json {
            out(
                JSONValue.array(
                    states.enumerated().map { i, s in
                        .object([
                            ("name", .string(s.name)), ("present", .bool(s.isPresent)), ("index", .int(i)),
                            ("exclusive", .bool(s.isExclusive)), ("atr", s.atr.isEmpty || !s.isPresent ? .null : .string(s.atr.hexString)),
                            ("contactless", (s.isPresent ? contactlessDescription(s.atr) : nil).map { .string($0) } ?? .null),
                        ])
                    }
                        + nfcDevices.map { d, opened in
                            .object(
                                [("name", .string(d)), ("libnfc", .bool(true)), ("usable", .bool(problem(opened) == nil))]
                                    + (problem(opened).map { [("problem", JSONValue.string($0))] } ?? []))
                        }
                ).serialized(pretty: true))
            return
        }
        for (d, opened) in nfcDevices {
            if let problem = problem(opened) {
                out("libnfc  \(d)   " + Style().yellow("(cannot be opened: \(problem))"))
            } else {
                out("libnfc  \(d)   (use: cardscan --device \(d))")
            }
        }
        if states.isEmpty && nfcDevices.isEmpty {
            out("No readers. (`cardscan doctor` checks the setup; scripts/lab.sh starts virtual ones.)")
            return
        }
        let style = Style()
        let width = states.map(\.name.count).max() ?? 0
        for (i, s) in states.enumerated() {
            var card = s.isPresent ? style.green("card") + "   " + s.atr.hexString : style.dim("empty")
            if s.isPresent, let kind = contactlessDescription(s.atr) { card += style.dim("  (\(kind))") }
            out("\(i)  \(s.name.padding(width))  \(card)\(s.isExclusive ? style.yellow("  (in exclusive use)") : "")")
        }
    }

    /// What a contactless reader's ATR says the card is: a storage card or FeliCa by its
    /// pseudo-ATR, an ISO 14443-4 card (and whether Type B) by its historical bytes.
    func contactlessDescription(_ atr: [UInt8]) -> String? {
        PseudoATR(atr)?.cardDescription ?? ContactlessATR(atr)?.cardDescription
    }
}
