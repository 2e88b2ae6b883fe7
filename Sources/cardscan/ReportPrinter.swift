import CardProfiles

/// The human summary of a report: aligned card details, the balance with its currency
/// symbol, and the trips as a table, newest first.
struct ReportPrinter {
    let style: Style

    /// The report: a section for each application the card holds (the first found, then
    /// ``CardReport/otherApplications``), then what the read counted.
    func render(_ r: CardReport) -> String {
        var lines = section(r)
        for other in r.otherApplications {
            lines.append("")
            lines += section(other)
        }
        let counts = ([r] + r.otherApplications).compactMap { a -> String? in
            guard let called = a.tripsCalled else { return nil }
            return (r.otherApplications.isEmpty ? "" : a.name + ": ") + Self.count(a.trips.count, String(called.dropLast()))
        }
        lines.append(style.dim("  " + (counts + [Self.count(r.exchanges, "exchange") + " with the card"]).joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }

    /// One application's part of the report: its name, values, trips, contracts and notes.
    private func section(_ r: CardReport) -> [String] {
        var lines: [String] = []
        lines.append(style.bold(r.name) + style.dim("  (\(r.profile))") + (r.partial ? "  " + style.yellow("[partial read]") : ""))
        var rows: [(String, String)] = []
        if let n = r.card.number { rows.append(("Number", n)) }
        if let valid = Self.validity(r.card["validFrom"], r.card["validUntil"]) { rows.append(("Valid", valid)) }
        if let b = r.balance { rows.append(("Balance", style.bold(b.description))) }
        for (k, v) in r.card where !["number", "validFrom", "validUntil"].contains(k) { rows.append((r.label("card." + k), Self.text(v))) }
        let width = rows.map(\.0.count).max() ?? 0
        for (k, v) in rows { lines.append("  " + k.padding(width) + "  " + v) }
        lines += tripTable(r)
        if !r.contracts.isEmpty {
            lines.append("")
            lines.append(style.bold("  Contracts"))
            for c in r.contracts {
                let title = c.first { $0.0 == "name" }?.1.description ?? c.first { $0.0 == "tariff" }?.1.description ?? "contract"
                var parts: [String] = []
                if let valid = Self.validity(c["validFrom"], c["validUntil"]) { parts.append("valid " + valid) }
                for (k, v) in c where !["name", "validFrom", "validUntil"].contains(k) {
                    // `value`: a stored value in the card's minor units (Rav-Kav, Zapping).
                    parts.append("\(Self.inline(r.label("contracts." + k))) \(Self.text(v))")
                }
                lines.append("  • " + title + (parts.isEmpty ? "" : style.dim("  " + parts.joined(separator: ", "))))
            }
        }
        if r.applications.count > 1 {
            lines.append("")
            lines.append(style.bold("  Applications"))
            for a in r.applications {
                let title = a.first { $0.0 == "application" }?.1.description ?? a.first?.1.description ?? "application"
                let rest = a.filter { $0.0 != "application" }.map { "\(Self.inline(r.label("card." + $0.0))) \(Self.text($0.1))" }
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
        if !r.locked.isEmpty {
            let list = r.locked.map(String.init).joined(separator: ", ")
            lines.append(
                style.yellow("  locked: ") + "sector\(r.locked.count == 1 ? "" : "s") \(list) not read: no key of yours opens them "
                    + "(or the locked sector before them in a run); what they hold is not shown (cardscan keys add FILE imports a card's keys)"
            )
        }
        return lines
    }

    /// `1 trip`, `10 trips`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// A value as the text report writes it: money as money, a date and time with a space
    /// (`2024-03-05 08:30:15 +08:00`), the rest as the JSON report does.
    static func text(_ v: FieldValue) -> String {
        switch v {
        case .money(let m): return m.description
        case .dateTime(let moment): return moment.spaced
        default: return v.description
        }
    }

    /// `2024-03-01 → 2024-03-31`, `until 2029-12-31`, `from 2024-03-10`: what is known of a
    /// validity, an unknown end left out rather than written `?`.
    static func validity(_ from: FieldValue?, _ until: FieldValue?) -> String? {
        switch (from.map(text), until.map(text)) {
        case let (f?, u?): return "\(f) → \(u)"
        case let (f?, nil): return "from \(f)"
        case let (nil, u?): return "until \(u)"
        case (nil, nil): return nil
        }
    }

    /// A label inside a sentence: `Remaining` → `remaining`, `ATC` stays.
    static func inline(_ label: String) -> String {
        guard let first = label.first, label.dropFirst().first?.isLowercase == true else { return label }
        return first.lowercased() + label.dropFirst()
    }

    /// The trips as a table (a column per key any trip has), or why there are none.
    func tripTable(_ r: CardReport) -> [String] {
        var out: [String] = []
        guard let called = r.tripsCalled else { return out }
        if r.trips.isEmpty {
            out.append("")
            out.append(
                r.partial
                    ? "  No \(called) read: the read stopped early."
                    : r.locked.isEmpty ? "  No \(called) recorded on the card." : "  No \(called) read; some sectors are locked (below).")
        } else {
            var columns: [String] = []
            for t in r.trips { for (k, _) in t where !columns.contains(k) { columns.append(k) } }
            let header = columns.map { r.label("trips." + $0) }
            let cells: [[String]] = r.trips.map { t in columns.map { c in t[c].map(Self.text) ?? "" } }
            let widths = columns.indices.map { i in max(header[i].count, cells.map { $0[i].count }.max() ?? 0) }
            // Numbers and money right-aligned, so their digits line up.
            let numeric = columns.map { c in r.trips.contains { $0[c]?.isNumber == true } && !r.trips.contains { $0[c]?.isText == true } }
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
