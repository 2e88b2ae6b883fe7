/// How a value decodes, as a type gives it (docs/profile-format.md §Types): a base type and the
/// settings that go with it — an EN 1545 date is `days` counted from 1997-01-01 in 14 bits — each
/// optional, so that a field's own settings override a type's one by one, and a type may refine
/// another. A layout element with a type knows how it decodes, so a field reading it needs
/// only `field:`.
public struct FieldSettings: Sendable, Equatable {
    /// `type`: the base type the value decodes as (a named type gives its base's).
    public var type: FieldType?
    /// The width of a layout element of this type.
    public var bits: Int?
    /// `epoch`: the date `days` and `seconds` count from.
    public var epoch: CivilDate?
    /// `epoch: NAME`: the card or `let` value whose date `days` and `seconds` count from.
    public var epochField: String?
    /// `direction: before`: the count goes back from the epoch.
    public var countsBack: Bool?
    /// `utc`: a `seconds` count runs from the epoch's midnight in UTC, not in the card's zone.
    public var utc: Bool?
    /// `year-base`: the year of 00, for `packed-date` and 3-byte `bcd-date`.
    public var yearBase: Int?
    /// `day-first`: a `packed-date` whose day comes first, then the month and the year.
    public var dayFirst: Bool?
    /// `endian: little`: the integer's bytes are least significant first.
    public var littleEndian: Bool?
    /// `scale`: multiply the integer by this.
    public var scale: Int?
    /// `add`: then add this.
    public var add: Int?
    /// `divide`: then divide by this, the remainder dropped.
    public var divide: Int?
    /// `map`, or the entries of the `table` named: names for the integer's values.
    public var map: [Int: String]?
    /// `table`: the name of the lookup table the names come from.
    public var table: String?
    /// With `table`: the table shows a code it lacks as hex digits (its `codes: hex`).
    public var hexCodes: Bool?
    /// `default`, else the table's own: what a code without a name gives (`{code}` stands for it).
    public var mapDefault: String?
    /// `unset`: the raw value that means "not written yet".
    public var unset: Int?
    /// `drop-digits`: for `hex`, how many leading digits to leave out.
    public var dropDigits: Int?
    /// `strip-zeros`: for `hex`, leave out leading zeros.
    public var stripZeros: Bool?
    /// `format: decimal`: the integer as decimal text.
    public var decimalText: Bool?

    /// Settings giving only `type`.
    public init(type: FieldType? = nil) { self.type = type }

    /// These settings over `base`: each one given here wins.
    public func over(_ base: FieldSettings) -> FieldSettings {
        var out = base
        if let type { out.type = type }
        if let bits { out.bits = bits }
        if let epoch {
            out.epoch = epoch
            out.epochField = nil
        }
        if let epochField {
            out.epochField = epochField
            out.epoch = nil
        }
        if let countsBack { out.countsBack = countsBack }
        if let utc { out.utc = utc }
        if let yearBase { out.yearBase = yearBase }
        if let dayFirst { out.dayFirst = dayFirst }
        if let littleEndian { out.littleEndian = littleEndian }
        if let scale { out.scale = scale }
        if let add { out.add = add }
        if let divide { out.divide = divide }
        if let map {
            out.map = map
            out.table = table
            out.hexCodes = hexCodes
        } else if let table {
            out.table = table
            out.map = nil
            out.hexCodes = hexCodes
        }
        if let mapDefault { out.mapDefault = mapDefault }
        if let unset { out.unset = unset }
        if let dropDigits { out.dropDigits = dropDigits }
        if let stripZeros { out.stripZeros = stripZeros }
        if let decimalText { out.decimalText = decimalText }
        return out
    }

    /// The settings written into a field's layout (what is not given keeps its default).
    public func apply(to f: inout FieldSpec.Layout) {
        if let type { f.type = type }
        if let epoch { f.epoch = epoch }
        if let epochField { f.epochField = epochField }
        if let countsBack { f.countsBack = countsBack }
        if let utc { f.utc = utc }
        if let yearBase { f.yearBase = yearBase }
        if let dayFirst { f.dayFirst = dayFirst }
        if let littleEndian { f.littleEndian = littleEndian }
        if let scale { f.scale = scale }
        if let add { f.add = add }
        if let divide { f.divide = divide }
        if let map { f.map = map }
        if let table { f.table = table }
        if let hexCodes { f.hexCodes = hexCodes }
        if let mapDefault { f.mapDefault = mapDefault }
        if let unset { f.unset = unset }
        if let dropDigits { f.dropDigits = dropDigits }
        if let stripZeros { f.stripZeros = stripZeros }
        if let decimalText { f.decimalText = decimalText }
    }
}
