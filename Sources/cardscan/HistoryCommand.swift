import ArgumentParser
import CardHistory
import CardProfiles
import Foundation

/// `cardscan history [CARD]`, `history forget CARD`: the cards `--save` kept, one card's
/// merged trips and balance over time, and forgetting a card.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The cards saved with --save: their trips, each once across reads, and their balance over time.",
        discussion: """
            Reads are kept only when asked: `cardscan --save`, `cardscan watch --save`. The
            history is $XDG_DATA_HOME/cardscan/history.sqlite (default
            ~/.local/share/cardscan/history.sqlite). A trip seen in several reads is kept
            once: same time, amount and the card's own sequence, terminal or station.

            Examples:
              cardscan history                      the cards, last seen first
              cardscan history 305419896 --chart    a card's trips and balance over time
              cardscan history forget 305419896
            """,
        subcommands: [Show.self, Forget.self], defaultSubcommand: Show.self)

    /// The history file: `--db`, else the default place.
    struct Place: ParsableArguments {
        @Option(help: ArgumentHelp("The history file (default $XDG_DATA_HOME/cardscan/history.sqlite).", valueName: "FILE"))
        var db: String?

        func open() throws -> HistoryStore { try guarded { try HistoryStore(path: db ?? HistoryStore.defaultPath()) } }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "The cards in the history, or one card's trips and balance over time (the default).")
        @Argument(
            help: ArgumentHelp(
                "A card: its number, its position in the list, or a part of its number or name that only it has.", valueName: "CARD"))
        var card: String?
        @OptionGroup var place: Place
        @Flag(help: "Print as JSON.") var json = false
        @Flag(help: "The card's trips as CSV (RFC 4180).") var csv = false
        @Flag(help: "Draw the card's balance over time with block characters (on a UTF-8 terminal).") var chart = false

        func validate() throws {
            if json && csv { throw ValidationError("--json and --csv: choose one") }
            if card == nil && (csv || chart) { throw ValidationError("--csv and --chart show one card: name it") }
        }

        func run() throws {
            let store = try place.open()
            guard let card else {
                let cards = try guarded { try store.cards() }
                return out(json ? JSONValue.array(cards.map(\.json)).serialized(pretty: true) : HistoryText.list(cards, style: Style()))
            }
            let found = try guarded { try store.card(matching: card) }
            let trips = try guarded { try store.trips(of: found) }
            let balances = try guarded { try store.balances(of: found) }
            if json { return out(HistoryText.json(found, trips, balances).serialized(pretty: true)) }
            if csv { return outRaw(HistoryText.csv(found, trips)) }
            out(HistoryText.card(found, trips, balances, chart: chart ? HistoryChart.draw(balances) : nil, style: Style()))
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget", abstract: "Delete everything the history holds about a card: its reads and its trips.")
        @Argument(
            help: ArgumentHelp(
                "A card: its number, its position in the list, or a part of its number or name that only it has.", valueName: "CARD"))
        var card: String
        @OptionGroup var place: Place

        func run() throws {
            let store = try place.open()
            let found = try guarded { try store.card(matching: card) }
            let (reads, trips) = try guarded { try store.forget(found) }
            out("forgot \(found.name) \(found.number ?? found.key): \(reads) read(s), \(trips) trip(s)")
        }
    }
}
