import ArgumentParser

@main
struct CardSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardsim",
        abstract:
            "Virtual cards for tests and demos: a transcript served as a card to pcscd's vpcd reader, or by an emulated PN532 to libnfc.",
        version: "cardsim \(BuildInfo.version) (\(BuildInfo.source))",
        subcommands: [VPCD.self, PN532.self])
}
