import ProfileLanguage

/// The bytes a report value was decoded from, as the card sent them: which of them (`positions`)
/// inside the smallest piece of an answer that holds them (`unit`: an answer, a record, a BER-TLV
/// object's value). Transcripts and traces hide the personal ones (the card's answers are
/// searched for `unit`, ``WireLocation``); a replay tells from them that a value came from bytes a
/// recording hid.
public struct FieldBytes: Sendable, Equatable {
    /// The report path of the value: `card.birthDate`, `balance`, `trips[3].station`.
    public var field: String
    /// The smallest piece of an answer that holds the bytes: an answer, a record, or a BER-TLV
    /// object's value.
    public var unit: [UInt8]
    /// Positions in `unit`, ascending.
    public var positions: [Int]
    /// For each position, the bits of that byte the value uses (FF: all; a value packed in
    /// bits starts and ends inside bytes it shares with others).
    public var masks: [UInt8]
    /// The field is marked `personal`.
    public var personal: Bool

    /// The bytes at `positions` in `unit`; without `masks`, every bit of each (FF).
    public init(field: String, unit: [UInt8], positions: [Int], masks: [UInt8]? = nil, personal: Bool = false) {
        self.field = field
        self.unit = unit
        self.positions = positions
        self.masks = masks ?? Array(repeating: 0xFF, count: positions.count)
        self.personal = personal
    }

    /// Which values a report notes the bytes of.
    public enum Scope: Sendable {
        /// None: the report notes no bytes.
        case none
        /// Fields marked `personal` (to hide them in a transcript or trace).
        case personal
        /// Every field read from bytes (a replay of a transcript that hides some).
        case all
    }
}

/// Where a report builder puts ``FieldBytes`` as it goes (a reference, so that the builder's
/// functions need not pass it along).
final class FieldBytesLog {
    let scope: FieldBytes.Scope
    var entries: [FieldBytes] = []
    init(scope: FieldBytes.Scope) { self.scope = scope }

    func wants(_ spec: FieldSpec) -> Bool {
        switch scope {
        case .none: return false
        case .personal: return spec.personal
        case .all: return true
        }
    }

    /// An `origin` for a field named `name`, or nil when its bytes are not wanted.
    func sink(_ name: @autoclosure () -> String, _ spec: FieldSpec) -> FieldOrigin? {
        guard wants(spec) else { return nil }
        let field = name(), personal = spec.personal
        return { [self] unit, positions, masks in
            entries.append(FieldBytes(field: field, unit: unit, positions: positions, masks: masks, personal: personal))
        }
    }
}

/// Told the bytes a value came from: the unit, the positions in it, and the bits of each.
typealias FieldOrigin = (_ unit: [UInt8], _ positions: [Int], _ masks: [UInt8]) -> Void

extension FieldBytes {
    /// The bytes and bits `bits` bits from bit `offset` occupy (bit 0 the top bit of byte 0).
    static func bitSpan(offset: Int, count: Int) -> (positions: Range<Int>, masks: [UInt8]) {
        let first = offset / 8, last = (offset + count - 1) / 8
        var masks = [UInt8](repeating: 0xFF, count: last - first + 1)
        masks[0] &= 0xFF >> UInt8(offset % 8)
        masks[masks.count - 1] &= 0xFF << UInt8(7 - (offset + count - 1) % 8)
        return (first..<(last + 1), masks)
    }
}
