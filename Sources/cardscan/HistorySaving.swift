import CardHistory
import CardProfiles
import CardReading
import Foundation

/// `--save` on `scan` and `watch`: each read kept in the history (`cardscan history`). Only
/// what the read showed is kept — personal data only with `--show-personal` — and a payment
/// card's PAN never beyond its masked form, even with `--show-pan`.
struct HistorySaving {
    let store: HistoryStore

    /// The history at its usual place, opened before any card is waited for (a history that
    /// cannot be opened is said at once, not after a read).
    init() throws { store = try guarded { try HistoryStore(path: HistoryStore.defaultPath()) } }

    /// Saves `outcome`'s report, complete or partial, read on `reader`; says on stderr what it
    /// added. A read with no report (a card no profile knew) is not saved.
    func keep(_ outcome: CardReadOutcome, reader: String) {
        guard let report = outcome.report else { return }
        do {
            let saved = try store.save(Self.storable(report, profile: outcome.profile), reader: reader)
            eprint("saved in the history: \(saved.newTrips) new trip(s), \(saved.knownTrips) already kept (`cardscan history`)")
        } catch {
            printError(error, hint: "the read is printed but not kept; `cardscan history` shows what the history holds")
        }
    }

    /// `report` with every number its profile masks (`mask-digits`: a PAN) masked, whatever
    /// the screen showed.
    static func storable(_ report: CardReport, profile: Profile?) -> CardReport {
        guard let profile else { return report }
        var r = report
        func mask(_ fields: inout CardFields) {
            for f in profile.card {
                guard let keep = f.spec.maskDigits, let i = fields.fields.firstIndex(where: { $0.name == f.name }) else { continue }
                let text = fields.fields[i].value.description
                if !text.contains("*") { fields.fields[i].value = .string(ReportBuilder.masked(text, keeping: keep)) }
            }
        }
        mask(&r.card)
        for i in r.applications.indices { mask(&r.applications[i]) }
        r.otherApplications = r.otherApplications.map { storable($0, profile: nil) }
        return r
    }
}
