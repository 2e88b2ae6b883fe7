import APDU
import ArgumentParser
import BuiltInProfiles
import CardProfiles
import Foundation
import NFCTransport
import PCSCTransport

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the setup: pcscd, readers, libnfc devices, the ATR list, profile directories.",
        discussion: """
            Each line is a check; a failing one says what to do. Exit 0 when cardscan can read \
            cards (through pcscd, or through a libnfc device that opens), 69 when it cannot.
            """)

    @OptionGroup var profiles: ProfileSearchOptions

    func run() throws {
        let checks = Checklist(style: Style())
        // A libnfc device that opens reads cards without pcscd (`--device`): then a missing
        // pcscd is a warning, not the end of reading.
        let nfcDevices = NFCDevice.list()
        let nfcOpened = nfcDevices.map { connstring in
            Result { () throws(NFCError) in try NFCDevice(connectionString: connstring).name }
        }
        checkPCSC(checks, nfcWorks: nfcOpened.contains { if case .success = $0 { true } else { false } })
        checkTools(checks, nfcDevices: nfcDevices, nfcOpened: nfcOpened)
        checkProfiles(checks)
        if checks.blocking { throw ExitStatus.unavailable.exit }
    }

    /// pcscd and its readers.
    private func checkPCSC(_ checks: Checklist, nfcWorks: Bool) {
        do {
            let ctx = try PCSCContext()
            checks.check(true, "pcscd is running")
            let readers = try ctx.readers()
            checks.check(
                !readers.isEmpty,
                readers.isEmpty
                    ? "no PC/SC reader"
                    : "\(readers.count) reader(s): " + readers.map { "\($0.name)\($0.isPresent ? " [card]" : "")" }.joined(separator: ", "),
                fix: "plug in a reader (for one without hardware: scripts/lab.sh start Tests/Fixtures/shanghai-transit/full-read.apdu)",
                warnOnly: nfcWorks)
        } catch {
            let down = error.code == .noService || error.code == .serviceStopped
            checks.check(
                false, error.message + (nfcWorks && down ? " (only PC/SC readers need it: the libnfc device below reads without)" : ""),
                fix: error.hint, warnOnly: nfcWorks)
        }
    }

    /// Where Debian's vsmartcard-vpcd puts the driver.
    static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

    /// The lab's driver, the ATR list, libnfc devices.
    private func checkTools(_ checks: Checklist, nfcDevices: [String], nfcOpened: [Result<String, NFCError>]) {
        // The driver itself: the lab's pcscd loads it from its own configuration, the system's
        // pcscd only when /etc/reader.conf.d/vpcd says so (scripts/lab.sh system-vpcd on).
        let vpcd = FileManager.default.fileExists(atPath: Self.vpcdDriver)
        let systemLoads = FileManager.default.fileExists(atPath: "/etc/reader.conf.d/vpcd")
        checks.check(
            vpcd,
            vpcd
                ? "vsmartcard vpcd driver installed (virtual readers for the lab"
                    + (systemLoads ? ", the system's pcscd loads it too)" : "; scripts/lab.sh starts a pcscd that loads it)")
                : "vsmartcard vpcd driver not installed (only needed for the virtual-card lab)",
            fix: "apt-get install vsmartcard-vpcd", warnOnly: true)
        let list = FileManager.default.fileExists(atPath: SmartcardList.path)
        checks.check(
            list, list ? "ATR list \(SmartcardList.path)" : "no ATR list at \(SmartcardList.path): `cardscan atr` cannot name cards",
            fix: "apt-get install pcsc-tools", warnOnly: true)
        let nfcFix = "set LIBNFC_DEVICE, e.g. pn532_uart:/dev/ttyUSB0; an ACR122U held by pcscd cannot be opened by libnfc (docs/felica.md)"
        if nfcDevices.isEmpty {
            checks.check(
                false, "no libnfc device (PN532, ACR122U in libnfc mode); only needed for `cardscan --device`", fix: nfcFix, warnOnly: true)
        }
        for (connstring, opened) in zip(nfcDevices, nfcOpened) {
            switch opened {
            case .success(let name): checks.check(true, "libnfc device \(connstring) opens: \(name) (use with --device \(connstring))")
            case .failure(let e):
                checks.check(false, "libnfc device \(connstring) does not open: \(e.message)", fix: nfcFix, warnOnly: true)
            }
        }
    }

    /// The profile folders, the built-in profiles, the trusted list.
    private func checkProfiles(_ checks: Checklist) {
        let style = checks.style
        let registry = profiles.registry()
        for dir in registry.directories {
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir) && isDir.boolValue
            let count = registry.entries.filter { $0.directory == dir }.count
            if dir.isBuiltIn {
                checks.check(
                    exists && count > 0, "built-in profiles: \(dir.path) (\(count))",
                    fix: "reinstall cardscan (make install) so share/cardscan/profiles sits beside bin/")
            } else {
                out(
                    "\(exists ? style.green("ok  ") : style.dim("--  ")) profile directory \(dir.path)\(exists ? " (\(count))" : " (absent)")"
                )
            }
        }
        if registry.directories.allSatisfy({ !$0.isBuiltIn }) {
            checks.check(
                false, "built-in profiles not found (looked in \(BuiltInProfiles.places().joined(separator: ", ")))",
                fix: "set CARDSCAN_BUILTIN_PROFILES, or reinstall cardscan so share/cardscan/profiles sits beside bin/")
        }
        for bad in registry.invalid {
            checks.check(
                false, "invalid profile \(bad.file): \(bad.error.issues.first?.description ?? "")",
                fix: "cardscan profiles validate \(bad.file)", warnOnly: true)
        }
        if let why = TrustedProfiles.user.unreadable {
            checks.check(
                false, "the list of trusted profiles cannot be read: \(why)",
                fix: "correct or remove \(TrustedProfiles.user.path); until then no profile may send commands of its own",
                warnOnly: true)
        }
    }
}

/// What `doctor` found: each check printed as it is made, and whether one blocks reading.
private final class Checklist {
    let style: Style
    var blocking = false
    init(style: Style) { self.style = style }

    func check(_ ok: Bool, _ what: String, fix: String? = nil, warnOnly: Bool = false) {
        let mark = ok ? style.green("ok  ") : (warnOnly ? style.yellow("warn") : style.red("FAIL"))
        out("\(mark) \(what)")
        if !ok, let fix { out("     → \(fix)") }
        if !ok && !warnOnly { blocking = true }
    }
}
