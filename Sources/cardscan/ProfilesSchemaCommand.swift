import ArgumentParser
import CardProfiles

extension Profiles {
    /// `profiles schema`: the JSON Schema of profile files, or the key tables of the format's
    /// documentation, both written from the language's one list of keys.
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the JSON Schema of profile files (for editors that check YAML as it is typed).",
            discussion: """
                Both this schema and the key tables of docs/profile-format.md are written from cardscan's \
                one list of the profile language's keys.
                """)
        @Flag(
            help:
                "Print the documentation's key tables instead: each `<!-- keys: PLACE -->` block of the page given as standard input filled in."
        )
        var docs = false

        func run() throws {
            guard docs else {
                print(LanguageSchema.json(), terminator: "")
                return
            }
            var text = ""
            while let line = readLine(strippingNewline: false) { text += line }
            guard let filled = LanguageTables.fill(text) else {
                throw ValidationError("a '<!-- keys: PLACE -->' marker names no place of the language, or has no '<!-- /keys -->'")
            }
            print(filled, terminator: "")
        }
    }
}
