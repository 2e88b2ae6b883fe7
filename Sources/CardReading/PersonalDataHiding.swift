import APDU
import CardProfiles
import Foundation

/// What a read hides of the personal values it found, and what a replay could not read
/// because its recording hid it.
///
/// - A transcript (`--record`) and a trace (`--trace`) write the bytes of every value a profile
///   marks `personal` as `..`, wherever the card's answers hold them (``WireLocation``), unless
///   the user asks for raw bytes (`--record-raw`). A value whose bytes cannot be found is hidden
///   by hiding every answer's data: never shown by accident.
/// - A replay of a transcript with hidden bytes reports a value that came only from hidden bytes
///   as redacted (``CardReport/redacted``), never the filler the hidden bytes replay as: a
///   masked number stays masked, anything else is left out.
enum PersonalDataHiding {
    /// The bits of each answer (round trip → position → bits) that hold the report's personal
    /// values.
    static func masks(of report: CardReport, in answers: [[UInt8]?], statusWordLength: Int) -> [Int: [Int: UInt8]] {
        let personal = report.fieldBytes.filter(\.personal)
        guard !personal.isEmpty else { return [:] }
        let (masks, notFound) = WireLocation(answers: answers, statusWordLength: statusWordLength).hiding(personal)
        guard notFound.isEmpty else { return everything(answers, statusWordLength: statusWordLength) }
        return masks
    }

    /// Every data byte of every answer.
    static func everything(_ answers: [[UInt8]?], statusWordLength: Int) -> [Int: [Int: UInt8]] {
        var out: [Int: [Int: UInt8]] = [:]
        for (i, a) in answers.enumerated() {
            if let a, a.count > statusWordLength {
                out[i] = Dictionary(uniqueKeysWithValues: (0..<(a.count - statusWordLength)).map { ($0, UInt8(0xFF)) })
            }
        }
        return out
    }

    /// `report` with each value that came only from bytes `replayed` hid marked redacted: left
    /// out, or for a number shown masked (`mask-digits`), masked again whatever was asked.
    static func markRedacted(_ report: inout CardReport, profile: Profile?, replayed: [Transcript.Entry], statusWordLength: Int) {
        let answers: [[UInt8]?] = replayed.map {
            if case .response(let r) = $0.outcome { return r }
            return nil
        }
        var hidden: [Int: [Int: UInt8]] = [:]
        for (i, e) in replayed.enumerated() where !e.hidden.isEmpty || !e.hiddenBits.isEmpty { hidden[i] = e.hiddenMasks }
        guard !hidden.isEmpty else { return }
        let location = WireLocation(answers: answers, statusWordLength: statusWordLength)
        var done: Set<String> = []
        for value in report.fieldBytes where !done.contains(value.field) && location.isRedacted(value, hidden: hidden) {
            done.insert(value.field)
            let mask = profile?.card.first { "card." + $0.name == value.field }?.spec.maskDigits
            report.markRedacted(value.field, maskedAs: mask)
        }
    }
}

extension CardReport {
    /// Marks the value at `path` (`card.birthDate`, `trips[2].station`, `balance`) as redacted by
    /// the recording: a number masked with `maskedAs` stays, masked; anything else is left out,
    /// with what its filler bytes decoded to or warned of. A value the report hides anyway
    /// (personal data not asked for) stays only in `hidden`.
    mutating func markRedacted(_ path: String, maskedAs mask: (first: Int, last: Int)?) {
        func redact<Row: ReportRow>(_ row: inout Row, _ key: String) -> Bool {
            guard let i = row.firstIndex(where: { $0.0 == key }) else { return false }
            // A number shown masked whatever was asked: its hidden digits replayed as zeros.
            if let mask, case .string(let text) = row[i].1 {
                row[i].1 = .string(ReportBuilder.masked(text, keeping: mask))
                if !masked.contains(path) { masked.append(path) }
            } else {
                row.remove(at: i)
            }
            return true
        }
        guard !hidden.contains(path) else { return }  // personal data not asked for, or a number shown masked
        if path == "balance" {
            balance = nil
        } else if path.hasPrefix("card.") {
            let key = String(path.dropFirst(5))
            _ = redact(&card, key)
            // The first application of a directory read is the report's `card` too.
            if !applications.isEmpty { _ = redact(&applications[0], key) }
        } else if let (list, n, key) = Self.rowPath(path) {
            switch list {
            case "trips" where trips.indices.contains(n): _ = redact(&trips[n], key)
            case "contracts" where contracts.indices.contains(n): _ = redact(&contracts[n], key)
            case "applications" where applications.indices.contains(n) && key.hasPrefix("card."):
                _ = redact(&applications[n], String(key.dropFirst(5)))
            default: return  // another application's trips: merged with the others', not kept apart
            }
        } else {
            return
        }
        warnings.removeAll { $0.field == path }
        redacted.append(path)
    }

    /// `trips[3].station` → ("trips", 3, "station").
    static func rowPath(_ path: String) -> (String, Int, String)? {
        guard let open = path.firstIndex(of: "["), let close = path.firstIndex(of: "]"), open < close,
            let n = Int(path[path.index(after: open)..<close]), path[close...].hasPrefix("].")
        else { return nil }
        return (String(path[..<open]), n, String(path[path.index(close, offsetBy: 2)...]))
    }
}
