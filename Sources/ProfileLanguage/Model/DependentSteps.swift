import APDU

/// ISO 7816 steps whose command depends on earlier answers (docs/profile-format.md §Steps
/// that depend on earlier answers). The engine turns each into a plain ``ISO7816Step``
/// just before it runs (`resolve(in:terminal:)`); a value it needs that the card did not
/// give leaves the step's answer absent, like a refusal.
public enum DependentStep: Sendable {
    /// `select: { aid-from: REF }`: SELECT by the DF name an earlier answer holds (an AID a
    /// directory listed).
    case select(aid: ValueReference, returning: CommandAPDU.SelectResponse)
    /// `command` + `dol`: the command with a data field built from a data object list the
    /// card gave (EMV Book 3 §5.4), each value from the profile's `terminal` values, wrapped in
    /// `template` (GET PROCESSING OPTIONS: `83`). No list (the card gave none): an empty one.
    case dolCommand(CommandAPDU, dol: ValueReference, template: UInt8?)
    /// `read-records: { locator: [REF, …] }`: the records a file locator lists (EMV's AFL,
    /// Book 3 §10.2): 4-byte entries, SFI in the top 5 bits, first and last record, a count
    /// the reader does not need. The first reference that gives bytes is used.
    case locatedRecords([ValueReference])
    /// `read-records` whose SFI (and last record) an earlier answer gives (EMV's log entry
    /// `9F4D`: SFI, record count).
    case records(sfi: ValueReference, last: ValueReference?, ISO7816Step.RecordReads)

    /// A plain step, or why it cannot be sent.
    package func resolve(in answers: Answers, terminal: (TLVTag, Int) -> (bytes: [UInt8], numeric: Bool)) -> Result<ISO7816Step, Absence> {
        switch self {
        case .select(let ref, let returning):
            guard let aid = ref.bytes(in: answers) else { return .failure(.missingInput("\(ref) is not in the answers")) }
            guard (1...16).contains(aid.count) else {
                return .failure(.invalidAnswer("\(ref) is \(aid.count) bytes, not an AID (1 to 16)"))
            }
            return .success(.command(.select(aid: aid, returning: returning)))
        case .dolCommand(var c, let ref, let template):
            var list = DataObjectList(entries: [])
            if let bytes = ref.bytes(in: answers) {
                guard let parsed = try? DataObjectList(bytes) else {
                    return .failure(.invalidAnswer("\(ref) is not a data object list: \(bytes.hexString)"))
                }
                list = parsed
            }
            var data = list.values(terminal)
            if let template {
                guard data.count < 0x80 else {
                    return .failure(.invalidAnswer("\(ref) asks for \(data.count) bytes, more than a command carries"))
                }
                data = [template, UInt8(data.count)] + data
            }
            guard data.count <= 255 else {
                return .failure(.invalidAnswer("\(ref) asks for \(data.count) bytes, more than a command carries"))
            }
            c.data = data
            c.le = 256
            return .success(.command(c))
        case .locatedRecords(let refs):
            guard let bytes = refs.lazy.compactMap({ $0.bytes(in: answers) }).first else {
                return .failure(.missingInput("no file locator (\(refs.map(\.description).joined(separator: ", ")))"))
            }
            guard bytes.count % 4 == 0 else {
                return .failure(.invalidAnswer("a file locator is 4-byte entries, not \(bytes.count) bytes (\(bytes.hexString))"))
            }
            var ranges: [ISO7816Step.RecordRange] = []
            for i in stride(from: 0, to: bytes.count, by: 4) {
                let sfi = bytes[i] >> 3, first = bytes[i + 1], last = bytes[i + 2]
                guard (1...30).contains(sfi), first >= 1, first <= last else {
                    return .failure(
                        .invalidAnswer("file locator entry \(bytes[i..<(i + 4)].hexString) is not SFI 1…30 with records first ≤ last"))
                }
                ranges.append(.init(sfi: sfi, first: first, last: last))
            }
            return .success(.recordRanges(ranges))
        case .records(let sfiRef, let lastRef, var reads):
            guard let s = sfiRef.bytes(in: answers), s.count == 1 else { return .failure(.missingInput("\(sfiRef) is not in the answers")) }
            guard (1...30).contains(s[0]) else { return .failure(.invalidAnswer("\(sfiRef) is \(s[0]), not a short EF identifier (1…30)")) }
            reads.sfi = s[0]
            if let lastRef {
                guard let l = lastRef.bytes(in: answers), l.count == 1 else {
                    return .failure(.missingInput("\(lastRef) is not in the answers"))
                }
                if l[0] < reads.first { return .success(.recordRanges([])) }  // the card says it holds none
                reads.last = l[0]
            }
            return .success(.readRecords(reads))
        }
    }
}

/// `for-each`: the steps under it run once for each entry of a list in an earlier answer —
/// each BER-TLV object `tag` inside `list` (a directory's application templates) — in the
/// order of `order-by` (lowest first; 0 or missing last, as EMV's Application Priority
/// Indicator `87` means), leaving out entries whose `skip` tag starts with one of its values.
/// The entry itself is the step's answer inside the loop; each run's answers make one
/// *application* of the report (docs/report.md §applications).
public struct EachStep: Sendable {
    /// `list`: where the entries are.
    public var list: ValueReference
    /// `tag`: the tag of each entry.
    public var tag: TLVTag
    /// `order-by`: the one-byte value of each entry that orders them (its low 4 bits, 1 first; 0 or missing last).
    public var orderBy: TLVTag?
    /// `skip`: entries to leave out, by tag: the values their object starts with.
    public var skip: [(tag: TLVTag, prefixes: [[UInt8]])] = []
    /// The `card` field whose value names a run's trips (`application`), when given.
    public var label: String?
    /// `steps`: what runs for each entry.
    public var steps: [Step]

    /// The entries, each a whole BER-TLV object (tag, length, value: a template, so `tag`
    /// searches find what is inside it), in the order they are read; nil when the list is
    /// not there.
    package func entries(in answers: Answers) -> [[UInt8]]? {
        guard let bytes = list.bytes(in: answers), let nodes = try? BERTLV.parseAll(bytes) else { return nil }
        var found = nodes.filter { $0.tag == tag }
        found.removeAll { node in
            skip.contains { rule in
                guard let v = node.children.first(where: { $0.tag == rule.tag })?.value else { return false }
                return rule.prefixes.contains { v.starts(with: $0) }
            }
        }
        if let orderBy {
            func rank(_ n: BERTLV) -> Int {
                guard let v = n.children.first(where: { $0.tag == orderBy })?.value.first, v & 0x0F != 0 else { return 16 }
                return Int(v & 0x0F)
            }
            found = found.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
        return found.map { $0.tag.bytes + BERTLV.lengthBytes($0.value.count) + $0.value }
    }
}

/// A terminal's value for a data object a card asks for in a DOL (`terminal:` in a profile).
public enum TerminalValue: Sendable, Equatable {
    /// The options a `number` value may name, each set from the command line
    /// (`--terminal-country`, `--terminal-currency`).
    public static let optionNames = ["country", "currency"]

    /// Bytes as written (binary: zero bytes appended or rightmost dropped to fit).
    case bytes([UInt8])
    /// A number written in BCD, right-aligned (EMV format n); `option` names the command-line
    /// setting that replaces it (`country`, `currency`).
    case number(UInt64, option: String?)
    /// Today's date, YYMMDD (EMV 9A), the machine's local date.
    case today
    /// The time now, HHMMSS (EMV 9F21).
    case now
    /// Random bytes (EMV's Unpredictable Number 9F37).
    case random

    /// Whether the value changes from one read to the next (so a transcript records it).
    public var varies: Bool { self == .today || self == .now || self == .random }
}
