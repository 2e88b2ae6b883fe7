import CardProfiles

/// The human summary of a report: aligned card details, the balance with its currency
/// symbol, and the trips as a table, newest first.
struct ReportPrinter {
    let style: Style

    func render(_ r: CardReport) -> String {
        var lines: [String] = []
        lines.append(style.bold(r.name) + style.dim("  (\(r.profile))") + (r.partial ? "  " + style.yellow("[partial read]") : ""))
        var rows: [(String, String)] = []
        if let n = r.card.number { rows.append(("Number", n)) }
        let from = r.card["validFrom"]?.description, until = r.card["validUntil"]?.description
        if from != nil || until != nil { rows.append(("Valid", "\(from ?? "?") → \(until ?? "?")")) }
        if let b = r.balance { rows.append(("Balance", style.bold(b.description))) }
        for (k, v) in r.card where !["number", "validFrom", "validUntil"].contains(k) { rows.append((k, v.description)) }
        let width = rows.map(\.0.count).max() ?? 0
        for (k, v) in rows { lines.append("  " + k.padding(width) + "  " + v) }
        lines += tripTable(r)
        if !r.contracts.isEmpty {
            lines.append("")
            lines.append(style.bold("  Contracts"))
            for c in r.contracts {
                let title = c.first { $0.0 == "name" }?.1.description ?? c.first { $0.0 == "tariff" }?.1.description ?? "contract"
                var parts: [String] = []
                let from = c.first { $0.0 == "validFrom" }?.1.description, until = c.first { $0.0 == "validUntil" }?.1.description
                if from != nil || until != nil { parts.append("valid \(from ?? "?") → \(until ?? "?")") }
                for (k, v) in c where !["name", "validFrom", "validUntil"].contains(k) {
                    // `value`: a stored value in the card's minor units (Rav-Kav, Zapping).
                    parts.append("\(k) \(v.money?.description ?? v.description)")
                }
                lines.append("  • " + title + (parts.isEmpty ? "" : style.dim("  " + parts.joined(separator: ", "))))
            }
        }
        if r.applications.count > 1 {
            lines.append("")
            lines.append(style.bold("  Applications"))
            for a in r.applications {
                let title = a.first { $0.0 == "application" }?.1.description ?? a.first?.1.description ?? "application"
                let rest = a.filter { $0.0 != "application" }.map { "\($0.0) \($0.1)" }
                lines.append("  • " + title + (rest.isEmpty ? "" : style.dim("  " + rest.joined(separator: ", "))))
            }
        }
        if !r.notes.isEmpty { lines.append("") }
        for n in r.notes { lines.append("  note: " + n) }
        let personal = r.hidden.filter { !r.masked.contains($0) }
        if !personal.isEmpty {
            lines.append(style.dim("  personal data hidden: \(personal.joined(separator: ", ")) (--show-personal shows it)"))
        }
        let masked = r.masked.filter { !r.redacted.contains($0) }
        if !masked.isEmpty {
            lines.append(style.dim("  masked: \(masked.joined(separator: ", ")) (--show-pan shows every digit)"))
        }
        if !r.redacted.isEmpty {
            lines.append(
                style.dim("  redacted in the recording: \(r.redacted.joined(separator: ", ")) (the transcript holds '..' for its bytes)"))
        }
        for w in r.warnings { lines.append(style.yellow("  warning: ") + "\(w.field) left out: \(w.reason)") }
        lines.append(style.dim("  \(r.trips.count) trip(s), \(r.exchanges) exchange(s) with the card"))
        return lines.joined(separator: "\n")
    }

    /// The trips as a table (a column per key any trip has), or why there are none.
    private func tripTable(_ r: CardReport) -> [String] {
        var out: [String] = []
        if r.trips.isEmpty {
            out.append("")
            out.append(r.partial ? "  No trips read: the read stopped early." : "  No trips recorded on the card.")
        } else {
            var columns: [String] = []
            for t in r.trips { for (k, _) in t where !columns.contains(k) { columns.append(k) } }
            let header = columns.map { $0.prefix(1).uppercased() + $0.dropFirst() }
            let cells: [[String]] = r.trips.map { t in
                columns.map { c in
                    switch t[c] {
                    case .money(let m)?: return m.description
                    case .dateTime(let moment)?: return moment.spaced
                    case let v?: return v.description
                    case nil: return ""
                    }
                }
            }
            let widths = columns.indices.map { i in max(header[i].count, cells.map { $0[i].count }.max() ?? 0) }
            let numeric = columns.map { $0 == "amount" || $0 == "sequence" }
            func row(_ c: [String]) -> String {
                var line =
                    "  " + c.indices.map { numeric[$0] ? c[$0].leftPadding(widths[$0]) : c[$0].padding(widths[$0]) }.joined(separator: "  ")
                while line.last == " " { line.removeLast() }
                return line
            }
            out.append("")
            out.append(style.bold(row(header)))
            out += cells.map(row)
        }
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

extension CivilDateTime {
    /// `2024-03-05 08:30:15 +08:00`, `2024-03-05 08:30:15` without an offset: for a table.
    var spaced: String {
        let offset = description.dropFirst(19)
        return "\(date) \(time)" + (offset.isEmpty ? "" : " \(offset)")
    }
}
