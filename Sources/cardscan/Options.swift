import ArgumentParser
import CardProfiles

struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A profile id (see `cardscan profiles list`) or a profile file.", valueName: "ID|FILE"))
    var profile: String?

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Also search this directory for profiles (repeatable).", valueName: "DIR"))
    var profileDirs: [String] = []

    @Flag(
        name: .customLong("show-personal"),
        help: "Show the holder's personal data the card holds (name, birth date, ID number); without it the report names what it hid.")
    var showPersonal = false

    func registry() -> ProfileRegistry {
        ProfileRegistry(directories: ProfileRegistry.searchPath(profileDirs: profileDirs))
    }
}
