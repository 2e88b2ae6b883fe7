import APDU
import Foundation

/// How to turn bytes of an answer into one report value (docs/profile-format.md §Fields).
///
/// Immutable once loaded: the loader fills in a ``Layout`` and wraps it. A class, so the
/// engine shares one instance instead of copying a dozen fields (and their reference
/// counts) for every value it decodes.
public final class FieldSpec: Sendable {
    /// The field's settings.
    public let layout: Layout

    /// The field `layout` describes.
    public init(_ layout: Layout) { self.layout = layout }

    /// The field's settings, as the profile file gives them.
    public struct Layout: Sendable {
        /// Where the value comes from: `from`, `tag`, a derived or constant value, or the current record.
        public var source: Source
        /// `offset`: the first byte (default 0).
        public var offset: Int = 0
        /// Byte count; nil means "to the end of the data".
        public var length: Int?
        /// `type`: the base type the value decodes as (default: the layout element's, else `uint`).
        public var type: FieldType = .uint
        /// `endian: little`: the integer's bytes are least significant first.
        public var littleEndian = false
        /// `bit-range`: keep only these bits of the integer (bit 0 = least significant); with
        /// `int`, the top bit of the range is the sign.
        public var bitRange: ClosedRange<Int>?
        /// `mask`: ANDed with the integer first.
        public var mask: UInt64?
        /// `sign-bit: N`: bit N of the integer (0 = least significant) is a sign, the bits below
        /// it the magnitude: sign and magnitude, not two's complement (Nextfare's amounts).
        public var signBit: Int?
        /// `negative-if: { offset, mask }`: the value is negative when the byte at `offset` of
        /// the same answer or record has a bit of `mask` set (SEQ's balance keeps its sign in the
        /// byte before it); a value already negative stays so.
        public var negativeIf: (offset: Int, mask: UInt8)?
        /// `scale`: the integer is multiplied by this.
        public var scale: Int = 1
        /// `add`: then this is added.
        public var add: Int = 0
        /// `divide: N`: after `× scale + add`, divided by N, the remainder dropped (towards
        /// zero): a purse kept in tenths of a cent reported in cents (Intercard).
        public var divide: Int = 1
        /// Integer → word lookup (`map`), with `default` for codes not listed.
        public var map: [Int: String]?
        /// `{code}` in it stands for the code.
        public var mapDefault: String?
        /// `table: NAME`: the lookup table `map` came from (docs/profile-format.md §Lookup
        /// tables); a code it lacks is shown as the code, in hex when `hexCodes`.
        public var table: String?
        /// The table's `codes: hex`: a code it lacks is shown as hex digits, not a number.
        public var hexCodes = false
        /// `personal: true`: holder data (name, birth date, ID number), reported only when the
        /// user asks (`--show-personal`).
        public var personal = false
        /// `slice: N` (with `from`, in `contracts`): the field reads the N bytes of the answer
        /// that belong to the contract's record number n, at N·(n−1) (a Calypso counter file).
        public var slice: Int?
        /// `record: N`: of a records answer, read record N (1 = the first the card gave; −1,
        /// `record: last`, the last).
        public var record: Int?
        /// `when: { field: tariff, bit-range: 10-12, not-in: 4 }`: report the field only when a
        /// value of the record's layout (some of its bits) is, or is not, among these (MOBIB
        /// counts journeys unless the tariff's counter use is 4); `when: { field: journeys }`:
        /// only when the layout found that value (Navigo's counter counts journeys only for a
        /// contract that has them).
        public var condition: Condition?
        /// `utc: true`: a `seconds` count runs from the epoch's midnight in UTC (Rav-Kav), and
        /// the moment is shown in `zone`; otherwise the count is in the card's local time.
        public var utc = false
        /// A derived field whose second operand was not read (an optional figure the card
        /// may not give) takes it as 0 (`absent-is-zero`).
        public var absentIsZero = false
        /// `clock-shift`: counts before a moment (the operator's clock was off) get `seconds`
        /// added. With `utc`: the moment as seconds after the epoch's UTC midnight.
        public var clockShift: (beforeCount: Int, seconds: Int)?
        /// What the time element of `field: [DATE, TIME]` counts (its type): minutes of the day,
        /// a packed time (an hour in 5 bits, a minute in 6) or seconds of the day.
        public var timeFieldKind = TimeFieldKind.minutes
        /// For `days` / `seconds`: the day counting starts from, and the card's UTC offset.
        public var epoch: CivilDate?
        /// `epoch: NAME`: the card or `let` value giving that day, read with the card (the
        /// report fills ``epoch`` from it before decoding).
        public var epochField: String?
        /// `direction: before`: the count goes back from the epoch (days before a ticket's last day).
        public var countsBack = false
        /// The card's UTC offset, in minutes east (the profile's `zone`; for a zone name, its offset at load time).
        public var zoneMinutes: Int?
        /// `zone: Europe/Paris`: a time zone with summer time (IANA tz database); the offset
        /// shown is the one in force at the card's local date and time.
        public var timeZone: TimeZone?
        /// `year-base`: the year of 00, for `packed-date` and 3-byte `bcd-date` (default 2000).
        public var yearBase = 2000
        /// `day-first`: a `packed-date` written day (5 bits), month (4), then the year.
        public var dayFirst = false
        /// `hex`: drop this many leading digits; strip leading zeros.
        public var dropDigits = 0
        /// `strip-zeros`: for `hex`, leave out leading zeros.
        public var stripZeros = false
        /// `digits`, `prefix`, `suffix`, `check-digit`, `group`: the value written out as a card
        /// number is printed (``NumberText``); nil: the value as it is.
        public var numberText: NumberText?
        /// `unset: 0`: the raw value that means "not written yet" (a date or time the card has
        /// not written): the key is left out quietly.
        public var unset: Int?
        /// `format: decimal`: report the integer as a decimal string (card numbers keep their
        /// digits exact in every JSON reader).
        public var decimalText = false
        /// Bits instead of bytes: a fixed bit range of the answer, or a value its layout decoded.
        public var bitSource: BitSource?
        /// `field: [DATE, TIME]`: with `days` or `packed-date`, the layout value holding the time
        /// of day (EN 1545 date + time), giving a date-time.
        public var timeField: String?
        /// A missing answer or an all-zero date leaves the key out instead of failing.
        public var optional = false
        /// `label`: what the text report calls the value, instead of its name in words.
        public var label: String?
        /// `mask-digits: [6, 4]`: only the first and last digits are shown, the others as `*`,
        /// unless the user asks for the whole number (`--show-pan`): a payment card's PAN.
        public var maskDigits: (first: Int, last: Int)?
        /// `time-tag: 9F21`: with a `bcd-date`, the object holding the time of day (BCD
        /// hhmmss) that goes with it, found as `tag` finds its value: a date-time.
        public var timeTag: TLVTag?
        /// `part`: which part of ISO/IEC 7813 Track 2 data a `track2` field is.
        public var track2Part: Track2Part = .pan
        /// The line the field is written at, for problems found after parsing.
        public var line: Int

        /// A field reading `source`, written at `line`, every other setting at its default.
        public init(source: Source, line: Int) {
            self.source = source
            self.line = line
        }
    }

    /// Where the value comes from (``Layout/source``).
    public var source: Source { layout.source }
    /// The first byte (``Layout/offset``).
    public var offset: Int { layout.offset }
    /// The byte count; nil: to the end (``Layout/length``).
    public var length: Int? { layout.length }
    /// The base type (``Layout/type``).
    public var type: FieldType { layout.type }
    /// Whether the integer is least significant byte first (``Layout/littleEndian``).
    public var littleEndian: Bool { layout.littleEndian }
    /// The integer's bits kept (``Layout/bitRange``).
    public var bitRange: ClosedRange<Int>? { layout.bitRange }
    /// ANDed with the integer first (``Layout/mask``).
    public var mask: UInt64? { layout.mask }
    /// The integer's multiplier (``Layout/scale``).
    public var scale: Int { layout.scale }
    /// Added after scaling (``Layout/add``).
    public var add: Int { layout.add }
    /// The divisor after `× scale + add` (``Layout/divide``).
    public var divide: Int { layout.divide }
    /// Names for the integer's values (``Layout/map``).
    public var map: [Int: String]? { layout.map }
    /// What a code without a name gives (``Layout/mapDefault``).
    public var mapDefault: String? { layout.mapDefault }
    /// The lookup table the names come from (``Layout/table``).
    public var table: String? { layout.table }
    /// Whether a code the table lacks is shown as hex digits (``Layout/hexCodes``).
    public var hexCodes: Bool { layout.hexCodes }
    /// Whether the value is holder data (``Layout/personal``).
    public var personal: Bool { layout.personal }
    /// Whether a `seconds` count runs from the epoch's midnight in UTC (``Layout/utc``).
    public var utc: Bool { layout.utc }
    /// What the time element of `field: [DATE, TIME]` counts (``Layout/timeFieldKind``).
    public var timeFieldKind: TimeFieldKind { layout.timeFieldKind }

    /// How the time of day of `field: [DATE, TIME]` counts (the time element's type).
    public enum TimeFieldKind: String, Sendable {
        /// Minutes since midnight (EN 1545's 11-bit time).
        case minutes
        /// An hour in the top 5 bits and a minute in the low 6 (Venezia).
        case packedTime = "packed-time"
        /// Seconds since midnight (Edy's 17-bit time).
        case seconds = "seconds-of-day"
    }
    /// The bytes of `from` per contract record (``Layout/slice``).
    public var slice: Int? { layout.slice }
    /// The record read, 1 the first (``Layout/record``).
    public var record: Int? { layout.record }
    /// The test deciding whether the field is reported (``Layout/condition``).
    public var condition: Condition? { layout.condition }
    /// The date `days` and `seconds` count from (``Layout/epoch``).
    public var epoch: CivilDate? { layout.epoch }
    /// The card's UTC offset in minutes (``Layout/zoneMinutes``).
    public var zoneMinutes: Int? { layout.zoneMinutes }
    /// The card's time zone, when it has summer time (``Layout/timeZone``).
    public var timeZone: TimeZone? { layout.timeZone }
    /// The year of 00 (``Layout/yearBase``).
    public var yearBase: Int { layout.yearBase }
    /// Whether a packed date starts with its day (``Layout/dayFirst``).
    public var dayFirst: Bool { layout.dayFirst }
    /// The leading hex digits left out (``Layout/dropDigits``).
    public var dropDigits: Int { layout.dropDigits }
    /// Whether leading zeros of hex are left out (``Layout/stripZeros``).
    public var stripZeros: Bool { layout.stripZeros }
    /// How the value is written as a printed card number (``Layout/numberText``).
    public var numberText: NumberText? { layout.numberText }
    /// Whether the integer is reported as decimal text (``Layout/decimalText``).
    public var decimalText: Bool { layout.decimalText }
    /// Whether a value that does not decode is left out quietly (``Layout/optional``).
    public var optional: Bool { layout.optional }
    /// What the text report calls the value (``Layout/label``).
    public var label: String? { layout.label }
    /// The bits read instead of bytes (``Layout/bitSource``).
    public var bitSource: BitSource? { layout.bitSource }
    /// The layout value holding the time of day (``Layout/timeField``).
    public var timeField: String? { layout.timeField }
    /// The line the field is written at (``Layout/line``).
    public var line: Int { layout.line }
    /// The digits shown at each end of a masked number (``Layout/maskDigits``).
    public var maskDigits: (first: Int, last: Int)? { layout.maskDigits }
    /// The object holding a `bcd-date`'s time of day (``Layout/timeTag``).
    public var timeTag: TLVTag? { layout.timeTag }
    /// Which part of Track 2 data a `track2` field is (``Layout/track2Part``).
    public var track2Part: Track2Part { layout.track2Part }

    /// The parts of Track 2 data (ISO/IEC 7813 §10): the PAN, a separator (BCD nibble D), the
    /// expiry date YYMM, the service code (3 digits), discretionary data, F padding.
    public enum Track2Part: String, Sendable, CaseIterable {
        /// The account number: the digits before the separator (or before the F padding).
        case pan
        /// The expiry date, written `YYYY-MM`.
        case expiry
        /// The 3-digit service code after the expiry date.
        case serviceCode = "service-code"
    }

    /// Where a field's value comes from (docs/profile-format.md §Fields).
    public enum Source: Sendable, Equatable {
        /// Bytes of a named answer, or of the value at a BER-TLV path inside it.
        case answer(String, tlvPath: TLVPath?)
        /// The current record (inside `trips`).
        case record
        /// `difference: [a, b]` = a − b; `sum: [a, b]` = a + b. `older.NAME` in trips
        /// names the field of the next older record.
        case derived(DerivedOperation, [String])
        /// `constant: top-up`: the same value in every report (a kind that the source of a
        /// record says, not its bytes).
        case constant(FieldValue)
        /// `tag: 5A` (or a list, first preferred): the value of the first BER-TLV object with
        /// that tag — in a trip record laid out by a `dol`, that record's value; else in the
        /// record itself, then in every answer, newest first (``Answers/tlvValue(_:)``).
        case tags([TLVTag])
    }

    /// How a derived field works out its value from two fields.
    public enum DerivedOperation: String, Sendable {
        /// `difference: [a, b]`: a − b.
        case difference
        /// `sum: [a, b]`: a + b.
        case sum
        /// `xor: [a, b]`: the bits of a and b, exclusive-or (HSL's ticket number folds its UID so).
        case xor
    }

    /// Where in an answer's bits a field is (docs/profile-format.md §Bit-packed records).
    public enum BitSource: Sendable, Equatable {
        /// `bit-offset`, `bit-length`: bits at a fixed place, bit 0 the top bit of byte 0.
        case position(offset: Int, length: Int)
        /// `field: NAME`: a value the answer's `layout` decoded (`list[2].tariff` inside repeats).
        case named(String)
    }

    /// A test on a value a record's layout decoded (``Layout/condition``).
    public struct Condition: Sendable {
        /// `field`: the layout value tested.
        public var field: String
        /// Bits of the value (0 the least significant), as a field's `bits`.
        public var bits: ClosedRange<Int>?
        /// `in` or `not-in`: the values tested for.
        public var values: [ClosedRange<UInt64>]
        /// `not-in`: the test passes when the value is none of `values`.
        public var negated: Bool
        /// No `in` or `not-in`: the test passes when the record holds the value.
        public var presence: Bool

        /// A test of `field` (its `bits`) against `values`, `negated` for `not-in`, or of its `presence` alone.
        public init(field: String, bits: ClosedRange<Int>?, values: [ClosedRange<UInt64>], negated: Bool, presence: Bool) {
            self.field = field
            self.bits = bits
            self.values = values
            self.negated = negated
            self.presence = presence
        }

        /// Whether `decoded` passes. A value its bitmap left out counts as 0 (EN 1545: not
        /// set); one the record does not reach never passes.
        public func holds(in decoded: BitLayout.Decoded?) -> Bool {
            guard let decoded else { return false }
            if presence { return decoded.values[field] != nil }
            var v: UInt64
            if let value = decoded.values[field]?.integer {
                v = value
            } else if decoded.isAbsent(field) {
                v = 0
            } else {
                return false
            }
            if let bits {
                v >>= UInt64(bits.lowerBound)
                if bits.count < 64 { v &= (1 << UInt64(bits.count)) - 1 }
            }
            return values.contains { $0.contains(v) } != negated
        }
    }

}

/// A base type: how a field's bytes or bits become a value (docs/profile-format.md §Types).
public enum FieldType: String, Sendable, CaseIterable {
    /// An unsigned integer: 1–8 bytes, or up to 64 bits.
    case uint
    /// A signed (two's complement) integer: 1–8 bytes, or up to 64 bits.
    case int
    /// An integer in BCD digits: 1–9 bytes.
    case bcd
    /// An amount of the profile's currency, in its minor unit (an unsigned integer): a price,
    /// a balance after a trip, a limit.
    case money
    /// A BCD date, `YYYYMMDD` (4 bytes) or `YYMMDD` (3); all 00 or all FF is no date.
    case bcdDate = "bcd-date"
    /// A BCD date-time, `YYYYMMDDhhmmss` (7 bytes); all 00 or all FF is no date.
    case bcdDateTime = "bcd-datetime"
    /// An integer counting days after `epoch`: a date.
    case days
    /// An integer counting seconds after `epoch`: a date-time.
    case seconds
    /// FeliCa's 16-bit date: year (7 bits, after `year-base`), month (4), day (5); 0 is no date.
    case packedDate = "packed-date"
    /// Any bytes, as upper-case hex digits.
    case hex
    /// Printable ASCII text, trailing 00, 20 and FF removed.
    case ascii
    /// Minutes since midnight → `hh:mm` (EN 1545 time).
    case minutes
    /// Seconds since midnight → `hh:mm:ss` (Edy's 17-bit time).
    case secondsOfDay = "seconds-of-day"
    /// 5-bit letters, 1 = A … 26 = Z, 0 and 31 a space (EN 1545 strings); bits only.
    case letters
    /// ISO 8859-1 text (Lisboa Viva's holder name): zero bytes dropped, trailing spaces trimmed.
    case latin1
    /// An hour in 5 bits then a minute in 6 → `hh:mm` (Venezia Unica's times).
    case packedTime = "packed-time"
    /// ISO/IEC 7813 Track 2 data (EMV 57, 9F6B) or a BCD PAN padded with F (EMV 5A): the
    /// `part` the field names, as text (`2028-05` for the expiry).
    case track2

    /// The exact byte length a type needs, when it has one.
    var fixedLength: Int? {
        switch self {
        case .bcdDate: return 4
        case .bcdDateTime: return 7
        case .packedDate: return 2
        default: return nil
        }
    }

    package var isInteger: Bool {
        switch self {
        case .uint, .int, .bcd, .money, .days, .seconds, .minutes, .secondsOfDay: return true
        default: return false
        }
    }

    /// A date type that gives nothing for a date of zeros (or FF).
    public var isDate: Bool { self == .bcdDate || self == .bcdDateTime || self == .packedDate }

    /// Whether the type gives a number (`uint`, `int`, `bcd`, `money`); the others give dates, times or text.
    public var givesNumber: Bool { self == .uint || self == .int || self == .bcd || self == .money }

    /// The kind of time of day it is, when it is one (the second of `field: [DATE, TIME]`).
    public var timeOfDay: FieldSpec.TimeFieldKind? {
        switch self {
        case .minutes: return .minutes
        case .packedTime: return .packedTime
        case .secondsOfDay: return .seconds
        default: return nil
        }
    }
}
