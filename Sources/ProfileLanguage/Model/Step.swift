import APDU

/// One step of a profile: a command (or a loop of them) whose answer gets a name.
public struct Step: Sendable {
    /// `as`: the answer's name, for fields, checks and later steps.
    public var name: String
    /// What the step sends.
    public var action: Action
    /// Status words (besides 9000) that end this step normally (e.g. 6A83 for records).
    public var end: [StatusWord]
    /// When the card answers an error, the answer is absent instead of the read failing.
    public var optional: Bool
    /// Take this step's answer from a BER-TLV object of an earlier answer when it is there
    /// (e.g. EF 0x15 inside the FCI at `app:6F/A5/9F0C`), and send nothing.
    public var useIfPresent: (answer: String, tlvPath: TLVPath)?
    /// The ``BitLayout`` (by name) that decodes this step's answer, or each of its records.
    public var layout: String?
    /// `endian: little`: the card stores the answer (each record) least significant byte first,
    /// so its bytes are reversed before any field reads it (Opal).
    public var reverseBytes = false
    /// `continue: { unit: 16, times: 1 }`: after a `command` step's answer, send the command
    /// again with its one data byte set to the records received so far (bytes ÷ unit), and
    /// append the answer; at most `times` times, ending early on an error or an empty answer
    /// (CEPAS history: the first answer holds the newest 15 records, the next starts there).
    public var continuation: (unit: Int, times: Int)?
    /// `copies: { size: 48, counter: 0 }`: the answer holds two copies written in turn (``Copies``).
    public var copies: Copies?
    /// `records: { size: 16, offset: 4, count: 3 }`: the answer cut into records — at most
    /// `count` (nil: as many as fit) of `size` bytes from `offset` — for trips and contracts:
    /// a FeliCa read's blocks, a DESFire file's records, several records packed in one block.
    public var records: RecordCut?

    /// Two copies of `size` bytes written in turn, from `offset`, each with a counter of its
    /// writes; the newer (the later by serial-number arithmetic over the counter's width, RFC
    /// 1982) becomes the answer, a tie keeping the first (or the second, with `tieKeepsSecond`).
    /// Cards that write a record alternately to two places, so a torn write leaves the other
    /// intact (Tampere; ERG's index; SmartRider's balance, its counter least significant byte
    /// first; CharlieCard's purse, its counter at bit 81).
    public struct Copies: Sendable, Equatable {
        /// `size`: each copy's byte count.
        public var size: Int
        /// `offset`: where the first copy starts (default 0); the second follows it.
        public var offset = 0
        /// Where the counter is in each copy, in bits from the top bit of its byte 0.
        public var counterBit: Int
        /// The counter's width in bits.
        public var counterBits: Int
        /// `endian: little`: a counter of whole bytes stored least significant byte first.
        public var littleEndian = false
        /// `tie: second`: copies with equal counters give the second.
        public var tieKeepsSecond: Bool
        /// Copies of `size` bytes with a `length`-byte counter at byte `counter`.
        public init(size: Int, counter: Int, length: Int = 1, tieKeepsSecond: Bool = false) {
            self.size = size
            counterBit = 8 * counter
            counterBits = 8 * length
            self.tieKeepsSecond = tieKeepsSecond
        }

        /// The counter of the copy starting at `start` of `d`.
        func count(_ d: [UInt8], _ start: Int) -> UInt64 {
            if littleEndian {
                let first = start + counterBit / 8
                return d[first..<(first + counterBits / 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
            }
            var v: UInt64 = 0
            for bit in counterBit..<(counterBit + counterBits) {
                v = v << 1 | UInt64(d[start + bit / 8] >> (7 - UInt8(bit % 8)) & 1)
            }
            return v
        }

        /// The newer copy of `d` (nil when `d` cannot hold both).
        func newer(_ d: [UInt8]) -> [UInt8]? {
            guard d.count >= offset + 2 * size, counterBit + counterBits <= 8 * size, (1...64).contains(counterBits) else { return nil }
            let modulus: UInt64 = counterBits == 64 ? 0 : 1 << UInt64(counterBits)
            let difference = (count(d, offset + size) &- count(d, offset)) & (modulus &- 1)
            let half = modulus == 0 ? UInt64(1) << 63 : modulus / 2
            let secondIsNewer = difference == 0 ? tieKeepsSecond : difference < half
            let start = offset + (secondIsNewer ? size : 0)
            return Array(d[start..<(start + size)])
        }
    }

    /// How an answer is cut into records (`records`).
    public struct RecordCut: Sendable, Equatable {
        /// `offset`: where the first record starts (default 0).
        public var offset: Int
        /// `size`: each record's byte count.
        public var size: Int
        /// `count`: at most this many records (before `keep`); nil: as many as fit.
        public var count: Int?
        /// `keep`: checks every record kept passes (none: all are kept).
        public var keep: [RecordCheck] = []
        /// Records of `size` bytes from `offset`, at most `count` of them (nil: as many as fit).
        public init(offset: Int = 0, size: Int, count: Int? = nil) {
            self.offset = offset
            self.size = size
            self.count = count
        }
    }

    /// A check a record must pass to be kept (`records.keep`): the record's own bytes at
    /// `offset`, or, with `by`, the byte `offset + i` of that answer for the record numbered i
    /// from 0 — an index with one entry per record (ERG's allocation table) — one of `values`.
    public struct RecordCheck: Sendable, Equatable {
        /// `by`: the answer with one byte per record; nil: the record itself.
        public var by: String?
        /// `offset`: where the bytes checked are.
        public var offset: Int
        /// `equals` or `one-of`: the byte strings allowed, all of one length (`none-of`: those
        /// refused).
        public var values: [[UInt8]]
        /// `none-of`: `values` are the byte strings refused.
        public var refuses = false
        /// The line it is written at.
        public var line: Int
        /// A check of `values` at `offset` of the record, or of `by`'s byte offset + i.
        public init(by: String?, offset: Int, values: [[UInt8]], line: Int) {
            self.by = by
            self.offset = offset
            self.values = values
            self.line = line
        }

        /// Whether record `i` (`record`) passes, with the answers read so far.
        func holds(_ record: [UInt8], number i: Int, in answers: Answers) -> Bool {
            let length = values.first?.count ?? 1
            let bytes: ArraySlice<UInt8>
            if let by {
                guard let index = answers.data(by), offset + i + length <= index.count else { return false }
                bytes = index[(offset + i)..<(offset + i + length)]
            } else {
                guard offset + length <= record.count else { return false }
                bytes = record[offset..<(offset + length)]
            }
            return values.contains { $0.elementsEqual(bytes) } != refuses
        }
    }
    /// `only-if: REF`: sent only when an earlier answer holds that value (EMV's log format is
    /// asked for only when the card has a log entry `9F4D`); otherwise its answer is absent
    /// and nothing is sent.
    public var onlyIf: ValueReference?
    /// The line the step is written at, for problems found after parsing.
    public var line: Int

    /// What the step sends, in its technology's terms: one `StepRunner` per technology
    /// runs its own kind of step, and a new technology adds a case here and a runner.
    public enum Action: Sendable {
        /// An ISO 7816 step: `select`, `read-binary`, `read-record`, `read-records` or `command`.
        case iso7816(ISO7816Step)
        /// A FeliCa step: `poll` or `read-blocks`.
        case felica(FeliCaStep)
        /// A DESFire step: `desfire-select` or `desfire-read`.
        case desfire(DESFireStep)
        /// An Ultralight step: `read-pages`.
        case ultralight(UltralightStep)
        /// A MIFARE Classic step: `read-sector`.
        case classic(ClassicStep)
        /// Steps run once for each entry of a list an earlier answer holds (``EachStep``).
        case each(EachStep)

        /// The technology whose commands the step sends (a `for-each` counts as ISO 7816).
        public var technology: Profile.Technology {
            switch self {
            case .iso7816, .each: return .iso7816
            case .felica: return .felica
            case .desfire: return .desfire
            case .ultralight: return .ultralight
            case .classic: return .classic
            }
        }
    }

    /// The byte count this step's data is known to have, for load-time bounds checks.
    public var declaredLength: Int? {
        if let records { return records.size }
        if let copies { return copies.size }
        switch action {
        case .iso7816(let a): return a.declaredLength
        case .felica(let a): return a.declaredLength
        case .desfire(let a): return a.declaredLength
        case .ultralight(let a): return a.declaredLength
        case .classic(let a): return a.declaredLength
        case .each: return nil
        }
    }

    /// Whether the answer is a list of records (read in `trips`) rather than one block of bytes.
    public var isRecords: Bool {
        if records != nil { return true }
        switch action {
        case .iso7816(let a): return a.isRecords
        case .felica(let a): return a.isRecords
        case .desfire(let a): return a.isRecords
        case .ultralight, .classic: return false
        case .each: return false
        }
    }
}

extension Step {
    /// The answer as the profile reads it: the newer of two `copies`, cut into `records`, the
    /// records `keep` refuses left out (`answers`: those read before it).
    package func shaped(_ answer: Answer, answers: Answers = Answers()) -> Answer {
        guard copies != nil || records != nil, case .data(var d) = answer else { return answer }
        if let c = copies, let newer = c.newer(d) { d = newer }
        guard let cut = records else { return .data(d) }
        var out: [[UInt8]] = []
        var start = cut.offset, number = 0
        while start + cut.size <= d.count, cut.count.map({ number < $0 }) ?? true {
            let record = Array(d[start..<(start + cut.size)])
            if cut.keep.allSatisfy({ $0.holds(record, number: number, in: answers) }) { out.append(record) }
            start += cut.size
            number += 1
        }
        return .records(out)
    }
}

/// An ISO 7816 step: one command APDU, the first of several SELECTs the card accepts, or a
/// loop of READ RECORDs.
public enum ISO7816Step: Sendable {
    /// One command. `retryLength`: a READ RECORD whose Le-00 answer comes back empty is asked
    /// again with this Le (some Calypso cards, docs/cards/calypso.md).
    case command(CommandAPDU, retryLength: Int? = nil)
    /// SELECTs tried in order until one succeeds (DF names, then a path to fall back on).
    case select([CommandAPDU])
    /// `read-records`: READ RECORD of a range of records, as ``RecordReads`` says.
    case readRecords(RecordReads)
    /// READ RECORD of each range in turn (the records a file locator lists), stopping at the
    /// first the card refuses: nothing is probed that the card did not list.
    case recordRanges([RecordRange])
    /// A step built from earlier answers just before it runs (``DependentStep``).
    case dependent(DependentStep)

    /// Records `first…last` of the file with short EF identifier `sfi`.
    public struct RecordRange: Sendable, Equatable {
        /// The short EF identifier (1–30).
        public var sfi: UInt8
        /// The first record.
        public var first: UInt8
        /// The last record.
        public var last: UInt8
    }

    /// Whether the step reads the current EF rather than naming its file (READ RECORD or
    /// READ BINARY without a short EF identifier, ISO/IEC 7816-4 §11.3.3, §11.4.3).
    public var readsCurrentFile: Bool {
        switch self {
        case .command(let c, _):
            if c.ins == 0xB2 || c.ins == 0xB3 { return c.p2 >> 3 == 0 }
            if c.ins == 0xB0 || c.ins == 0xB1 { return c.p1 & 0x80 == 0 }
            return false
        case .select, .recordRanges, .dependent: return false
        case .readRecords(let r): return r.sfi == nil
        }
    }

    /// How a `read-records` step reads: which file, which records, with which Le.
    public struct RecordReads: Sendable {
        /// `sfi`: the short EF identifier; nil: the current file.
        public var sfi: UInt8?
        /// `first`: the first record (default 1).
        public var first: UInt8
        /// `last`: the last record; nil: until a status in the step's `end`.
        public var last: UInt8?
        /// `length`: each record's length (Le); nil: Le 00.
        public var length: Int?
        /// `try-all-first`: first ask for all records from P1 at once, cut every `length` bytes; on an error, one at a time.
        public var tryAllFirst = false
        /// `retry-length`: with Le 00, a card answering nothing but 90 00 is asked again with this Le.
        public var retryLength: Int?
        /// `transaction-number: { offset, length }`: where each record keeps its transaction
        /// number (big-endian). A record numbered 1 is the card's first transaction: nothing
        /// older exists, so no READ RECORD is sent after it (PBOC's log: a card with exactly its
        /// first ten transactions costs no eleventh command).
        public var transactionNumber: (offset: Int, length: Int)?
    }

    var declaredLength: Int? {
        switch self {
        case .command(let c, let retry): return c.ins == 0xB0 || c.ins == 0xB2 || c.cla == 0x80 ? (c.le == 256 ? retry : c.le) : nil
        case .select, .recordRanges, .dependent: return nil
        case .readRecords(let r): return r.length ?? r.retryLength
        }
    }

    var isRecords: Bool {
        switch self {
        case .readRecords, .recordRanges, .dependent(.locatedRecords), .dependent(.records): return true
        default: return false
        }
    }
}

/// A FeliCa step (JIS X 6319-4): Polling for a system, or Read Without Encryption.
public enum FeliCaStep: Sendable {
    /// Polling for a system code; the answer is IDm (8) + PMm (8) + system code (2).
    case poll(systemCode: UInt16)
    /// Read Without Encryption of `count` blocks of `service` from `first`, at most
    /// `perCommand` blocks a command; the answer is the blocks joined (a step's `records` cuts
    /// them into records).
    case readBlocks(service: UInt16, first: UInt16, count: Int, perCommand: Int)

    var declaredLength: Int? {
        switch self {
        case .poll: return 18
        case .readBlocks(_, _, let count, _): return count * 16
        }
    }

    var isRecords: Bool { false }
}
