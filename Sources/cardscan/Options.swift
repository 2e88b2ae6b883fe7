import ArgumentParser
import CardProfiles
import Foundation

/// Where profiles are looked for: what every command that knows profiles takes.
struct ProfileSearchOptions: ParsableArguments {
    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Also search this directory for profiles (repeatable).", valueName: "DIR"))
    var profileDirs: [String] = []

    func registry() -> ProfileRegistry { ProfileRegistry(directories: ProfileRegistry.searchPath(profileDirs: profileDirs)) }
}

/// What a read takes: which profile, where profiles are, what the report shows and what a
/// payment card is told (`cardscan`, `watch`, `replay`, `test`).
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A profile id (see `cardscan profiles list`) or a profile file.", valueName: "ID|FILE"))
    var profile: String?

    @OptionGroup var search: ProfileSearchOptions

    @Flag(
        name: .customLong("first-match"),
        help:
            "Stop at the first profile that recognises the card; without it the profiles after it are tried too, and each other application found (Edy beside PASMO) gets its own part of the report."
    )
    var firstMatch = false

    @Flag(
        name: .customLong("show-personal"),
        help: "Show the holder's personal data the card holds (name, birth date, ID number); without it the report names what it hid.")
    var showPersonal = false

    @Flag(
        name: .customLong("show-pan"),
        help: "Show a payment card's whole account number (PAN); without it only the first 6 and last 4 digits are shown.")
    var showPAN = false

    @Flag(
        name: .customLong("record-raw"),
        help:
            "Keep cardholder data (a PAN's middle digits, Track 2's secret part, the holder's name) and the bits of every value a profile marks personal in --record transcripts and --trace; without it they are written '..' (and --trace prints a read's exchanges when it ends)."
    )
    var recordRaw = false

    @Option(
        name: .customLong("terminal-country"),
        help: ArgumentHelp(
            "The terminal country a payment card is told when it asks (ISO 3166-1 numeric, default 840 as the emv profile says).",
            valueName: "CODE"))
    var terminalCountry: UInt64?

    @Option(
        name: .customLong("terminal-currency"),
        help: ArgumentHelp(
            "The transaction currency a payment card is told when it asks (ISO 4217 numeric, e.g. 978 for EUR; default 840).",
            valueName: "CODE"))
    var terminalCurrency: UInt64?

    func validate() throws {
        // A --profile that names a file that is not there: said before any reader is looked
        // for, with both ways to name a profile.
        if let profile, ProfileRegistry.namesFile(profile), access(profile, F_OK) != 0 {
            printError(
                FileError(path: profile, reason: .missing), hint: "check the path, or give a profile id from `cardscan profiles list`")
            throw ExitStatus.noSuchInput.exit
        }
        for (name, v) in [("--terminal-country", terminalCountry), ("--terminal-currency", terminalCurrency)] {
            if let v, v > 999 { throw ValidationError("\(name) takes a numeric code of up to 3 digits (ISO 3166-1 / ISO 4217), not \(v)") }
        }
    }

    /// The terminal settings a read answers a card with (`dol` steps).
    var terminal: TerminalSettings {
        var t = TerminalSettings()
        if let terminalCountry { t.options["country"] = terminalCountry }
        if let terminalCurrency { t.options["currency"] = terminalCurrency }
        return t
    }

    func registry() -> ProfileRegistry { search.registry() }
}
