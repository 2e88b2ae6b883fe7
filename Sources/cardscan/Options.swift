import ArgumentParser
import CardProfiles

struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A profile id (see `cardscan profiles list`) or a profile file.", valueName: "ID|FILE"))
    var profile: String?

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Also search this directory for profiles (repeatable).", valueName: "DIR"))
    var profileDirs: [String] = []

    func registry() -> ProfileRegistry {
        ProfileRegistry(directories: ProfileRegistry.searchPath(profileDirs: profileDirs))
    }
}
