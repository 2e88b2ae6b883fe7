/// How a value decodes, as a type gives it (docs/profile-format.md §Types): a base type and the
/// settings that go with it — an EN 1545 date is `days` counted from 1997-01-01 in 14 bits — each
/// optional, so that a field's own settings override a type's one by one, and a type may refine
/// another. A layout element with a type knows how it decodes, so a field reading it needs
/// only `field:`.
public struct FieldSettings: Sendable, Equatable {
    public var type: FieldType?
    /// The width of a layout element of this type.
    public var bits: Int?
    public var epoch: CivilDate?
    public var utc: Bool?
    public var yearBase: Int?
    public var littleEndian: Bool?
    public var scale: Int?
    public var add: Int?
    public var divide: Int?
    public var map: [Int: String]?
    public var table: String?
    public var hexCodes: Bool?
    public var mapDefault: String?
    public var unset: Int?
    public var dropDigits: Int?
    public var stripZeros: Bool?
    public var decimalText: Bool?

    public init(type: FieldType? = nil) { self.type = type }

    /// These settings over `base`: each one given here wins.
    public func over(_ base: FieldSettings) -> FieldSettings {
        var out = base
        if let type { out.type = type }
        if let bits { out.bits = bits }
        if let epoch { out.epoch = epoch }
        if let utc { out.utc = utc }
        if let yearBase { out.yearBase = yearBase }
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
        if let utc { f.utc = utc }
        if let yearBase { f.yearBase = yearBase }
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
