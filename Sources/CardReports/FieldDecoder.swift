import APDU
import Foundation
import ProfileLanguage

/// Decodes one field from bytes (pure; no I/O). Returns nil for an empty date (all zero).
enum FieldDecoder {
    struct Failure: Error { var reason: String }

    /// `timeOfDay`: seconds since midnight that go with a `bcd-date` (`time-tag`).
    static func decode(_ spec: FieldSpec, from data: [UInt8], answer: String, timeOfDay: Int? = nil) throws(Failure) -> FieldValue? {
        let length = spec.length ?? (data.count - spec.offset)
        guard spec.offset >= 0, length >= 0, spec.offset + length <= data.count else {
            let end = spec.offset + (spec.length ?? 1) - 1
            throw Failure(reason: "needs bytes \(spec.offset)…\(end) but answer '\(answer)' has \(data.count) byte(s)")
        }
        return written(spec, try decode(spec, bytes: data[spec.offset..<(spec.offset + length)], width: nil, minutes: timeOfDay))
    }

    /// The value as a card number is printed, when the spec says how (``NumberText``).
    @inline(__always) private static func written(_ spec: FieldSpec, _ value: FieldValue?) -> FieldValue? {
        guard let text = spec.numberText, let value else { return value }
        return .string(text.write(value))
    }

    /// A field read by bits: `value` (right-aligned in whole bytes) decoded as the spec's type,
    /// its width standing for the byte length (a 5-bit number is signed at bit 4). `minutes`:
    /// the time of day, in seconds, that goes with a `days` or packed date (EN 1545 date + time).
    static func decode(_ spec: FieldSpec, bits value: BitValue, minutes: Int? = nil) throws(Failure) -> FieldValue? {
        if spec.type.isInteger, spec.type != .bcd, !spec.littleEndian, let raw = value.integer {
            return written(spec, try integer(spec, raw: raw, bytes: (value.width + 7) / 8, width: value.width, minutes: minutes))
        }
        return written(spec, try decode(spec, bytes: value.bytes[...], width: value.width, minutes: minutes))
    }

    private static func decode(
        _ spec: FieldSpec, bytes: ArraySlice<UInt8>, width bitWidth: Int?, minutes: Int?
    ) throws(Failure) -> FieldValue? {
        switch spec.type {
        case .uint, .int, .money, .days, .seconds, .minutes, .secondsOfDay:
            guard bytes.count <= 8 else { throw Failure(reason: "an integer field is at most 8 bytes, not \(bytes.count)") }
            var raw: UInt64 = 0
            if spec.littleEndian {
                for b in bytes.reversed() { raw = raw << 8 | UInt64(b) }
            } else {
                for b in bytes { raw = raw << 8 | UInt64(b) }
            }
            return try integer(spec, raw: raw, bytes: bytes.count, width: bitWidth, minutes: minutes)
        case .bcd:
            return try finish(spec, try bcdNumber(bytes))
        case .letters:
            guard let bitWidth, bitWidth % 5 == 0 else { throw Failure(reason: "5-bit letters take a multiple of 5 bits") }
            let bits = BitValue(bytes: Array(bytes), width: bitWidth).bits
            var text = ""
            for i in stride(from: 0, to: bits.count, by: 5) {
                let code = bits[i..<(i + 5)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
                text.append(code >= 1 && code <= 26 ? Character(Unicode.Scalar(UInt8(64 + code))) : " ")
            }
            while text.last == " " { text.removeLast() }
            return .string(text)
        case .bcdDate: return try bcdDate(spec, bytes, timeOfDay: minutes)
        case .track2: return try track2(spec.track2Part, Array(bytes))
        case .bcdDateTime: return try bcdDateTime(spec, bytes)
        case .packedDate: return try packedDate(spec, bytes, width: bitWidth ?? bytes.count * 8, timeOfDay: minutes)
        case .packedTime: return try packedTime(bytes)
        case .hex, .latin1, .ascii: return try text(spec, bytes)
        }
    }

    /// Hex digits, ISO 8859-1 or ASCII text.
    private static func text(_ spec: FieldSpec, _ bytes: ArraySlice<UInt8>) throws(Failure) -> FieldValue? {
        switch spec.type {
        case .hex:
            // `endian: little`: the bytes are written last first (a UID read backwards).
            let hex = spec.littleEndian ? bytes.reversed().compactHex : bytes.compactHex
            if spec.dropDigits == 0 && !spec.stripZeros { return .string(hex) }
            var text = Substring(hex)
            text = text.dropFirst(min(spec.dropDigits, text.count))
            if spec.stripZeros {
                text = text.drop { $0 == "0" }
                if text.isEmpty { text = "0" }
            }
            return .string(String(text))
        case .latin1:
            // ISO 8859-1 maps each byte to the code point of the same number.
            var scalars = bytes.filter { $0 != 0 }.map { Unicode.Scalar($0) }
            while let last = scalars.last, last == " " || last == "\u{FF}" { scalars.removeLast() }
            guard scalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
                throw Failure(reason: "\(bytes.hexString) is not ISO 8859-1 text")
            }
            return .string(String(String.UnicodeScalarView(scalars)))
        default:
            var chars = Array(bytes)
            while let last = chars.last, last == 0 || last == 0x20 || last == 0xFF { chars.removeLast() }
            guard chars.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw Failure(reason: "\(bytes.hexString) is not printable ASCII")
            }
            return .string(String(decoding: chars, as: UTF8.self))
        }
    }

    /// An integer field from its raw bits (`bytes` whole bytes; `width` bits when read by bits):
    /// mask, bit range, sign, then the type (a date, a time of day) or scale and offset.
    private static func integer(
        _ spec: FieldSpec, raw: UInt64, bytes: Int, width bitWidth: Int?, minutes: Int?
    ) throws(Failure) -> FieldValue? {
        let original = raw
        var raw = raw
        if let mask = spec.mask { raw &= mask }
        if let unset = spec.layout.unset, raw == UInt64(truncatingIfNeeded: unset) { return nil }  // "never" (HOLO's last transaction)
        var width = bytes * 8
        var signed = false
        if let s = spec.layout.signBit {
            signed = raw >> UInt64(s) & 1 == 1
            raw &= (1 << UInt64(s)) - 1
        }
        if let bits = spec.bitRange {
            width = bits.count
            raw = (raw >> UInt64(bits.lowerBound)) & (width >= 64 ? .max : (1 << UInt64(width)) - 1)
        } else if let bitWidth {
            width = bitWidth
        }
        var value: Int
        if spec.type == .int {
            // Two's complement over `width` bits (64 bits: the bit pattern as it is).
            // Sign-extend by setting the bits above the width (no subtraction: 2^63 overflows).
            let negative = width > 0 && width < 64 && raw & (1 << UInt64(width - 1)) != 0
            value = Int(truncatingIfNeeded: negative ? raw | (UInt64.max << UInt64(width)) : raw)
        } else {
            guard raw <= UInt64(Int.max) else {
                let shown = (0..<min(bytes, 8)).reversed().map { UInt8(truncatingIfNeeded: original >> UInt64(8 * $0)) }
                throw Failure(reason: "\(shown.hexString) is \(raw), too large for a 64-bit signed integer")
            }
            value = Int(raw)
        }
        if signed { value = -value }  // a magnitude below 2^63: no overflow
        if spec.type == .days || spec.type == .seconds {
            // `scale` turns another unit into the type's (minutes into seconds: scale 60); `add`
            // moves the count (an epoch at another hour: Podorozhnik's midnight UTC+3).
            let (scaled, o1) = value.multipliedReportingOverflow(by: spec.scale)
            let (count, o2) = scaled.addingReportingOverflow(spec.add)
            guard !o1, !o2 else {
                throw Failure(reason: "\(value) × scale \(spec.scale) + add \(spec.add) does not fit a 64-bit signed integer")
            }
            return try epochValue(spec, count, minutes: minutes)
        }
        if spec.type == .minutes {
            guard (0..<1440).contains(value), let time = TimeOfDay(hour: value / 60, minute: value % 60) else {
                throw Failure(reason: "\(value) is not a time of day (0…1439 minutes)")
            }
            return .time(time)
        }
        if spec.type == .secondsOfDay {
            guard let time = TimeOfDay(secondsOfDay: value) else {
                throw Failure(reason: "\(value) is not a time of day (0…86399 seconds)")
            }
            return .time(time)
        }
        return try finish(spec, value)
    }

    /// The bytes of `bytes` (Track 2 data or an F-padded PAN) that hold `part`'s digits, and
    /// which of their nibbles (F0, 0F, FF); nil when the data has no such part.
    static func track2Bytes(_ part: FieldSpec.Track2Part, _ bytes: [UInt8]) -> (positions: [Int], masks: [UInt8])? {
        let nibbles = bytes.flatMap { [$0 >> 4, $0 & 0x0F] }
        let separator = nibbles.firstIndex(of: 0x0D)
        let range: Range<Int>
        switch part {
        case .pan: range = 0..<(separator ?? (nibbles.firstIndex(of: 0x0F) ?? nibbles.count))
        case .expiry, .serviceCode:
            guard let separator, separator + 8 <= nibbles.count else { return nil }
            range = part == .expiry ? (separator + 1)..<(separator + 5) : (separator + 5)..<(separator + 8)
        }
        var masks: [Int: UInt8] = [:]
        for n in range { masks[n / 2, default: 0] |= n % 2 == 0 ? 0xF0 : 0x0F }
        let positions = masks.keys.sorted()
        return (positions, positions.map { masks[$0]! })
    }

    /// A part of Track 2 data (ISO/IEC 7813): digits up to the separator D are the PAN (F is
    /// padding); then YYMM and the service code. A BCD PAN without a separator (EMV 5A) has
    /// only the PAN.
    static func track2(_ part: FieldSpec.Track2Part, _ bytes: [UInt8]) throws(Failure) -> FieldValue? {
        let nibbles = bytes.flatMap { [$0 >> 4, $0 & 0x0F] }
        let separator = nibbles.firstIndex(of: 0x0D)
        let panEnd = separator ?? (nibbles.firstIndex(of: 0x0F) ?? nibbles.count)
        func digits(_ r: Range<Int>) throws(Failure) -> String {
            var out = ""
            for n in nibbles[r] {
                guard n <= 9 else {
                    throw Failure(
                        reason:
                            "\(bytes.hexString) is not Track 2 data: nibble \(String(n, radix: 16, uppercase: true)) where a digit belongs")
                }
                out.append(Character(Unicode.Scalar(0x30 + n)))
            }
            return out
        }
        switch part {
        case .pan:
            guard panEnd > 0 else { throw Failure(reason: "\(bytes.hexString) holds no account number") }
            return .string(try digits(0..<panEnd))
        case .expiry, .serviceCode:
            guard let separator else { throw Failure(reason: "\(bytes.hexString) is not Track 2 data: no separator (D)") }
            guard separator + 8 <= nibbles.count else {
                throw Failure(reason: "\(bytes.hexString) ends before the expiry date and service code")
            }
            if part == .serviceCode { return .string(try digits((separator + 5)..<(separator + 8))) }
            let yymm = try digits((separator + 1)..<(separator + 5))
            let month = Int(yymm.suffix(2))!
            guard (1...12).contains(month) else { throw Failure(reason: "\(yymm) is not an expiry date (YYMM)") }
            return .string("20\(yymm.prefix(2))-\(yymm.suffix(2))")
        }
    }

    /// Scale, offset, then the map, check digit or decimal text. Overflow is a failure, never a trap.
    private static func finish(_ spec: FieldSpec, _ raw: Int) throws(Failure) -> FieldValue {
        let (scaled, o1) = raw.multipliedReportingOverflow(by: spec.scale)
        let (sum, o2) = scaled.addingReportingOverflow(spec.add)
        guard !o1, !o2 else {
            throw Failure(reason: "\(raw) × scale \(spec.scale) + add \(spec.add) does not fit a 64-bit signed integer")
        }
        let value = spec.divide == 1 ? sum : sum / spec.divide  // towards zero; divide ≥ 1 (checked at load)
        if let map = spec.map {
            if let word = map[value] { return .string(word) }
            let code = spec.hexCodes ? hexDigits(value) : String(value)
            if let d = spec.mapDefault {
                return .string(d.utf8.contains(UInt8(ascii: "{")) ? d.replacingOccurrences(of: "{code}", with: code) : d)
            }
            if spec.table != nil { return spec.hexCodes ? .string(code) : .int(value) }  // a table shows an unknown code as it is
            return .string("unknown-\(value < 256 && value >= 0 ? [UInt8(value)].compactHex : String(value))")
        }
        return spec.decimalText ? .string(String(value)) : .int(value)
    }

    /// Upper-case hex digits, an even number of them (`250901`, `0A`); negative numbers keep a sign.
    static func hexDigits(_ value: Int) -> String {
        let digits = String(value.magnitude, radix: 16, uppercase: true)
        return (value < 0 ? "-" : "") + (digits.count % 2 == 1 ? "0" : "") + digits
    }

    /// Every nibble must be a decimal digit (a wrong date must not pass as a right one).
    static func checkBCD(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        for (i, b) in bytes.enumerated() {
            for nibble in [b >> 4, b & 0x0F] where nibble > 9 {
                throw Failure(
                    reason: "non-decimal BCD digit \(String(nibble, radix: 16, uppercase: true)) in byte \(i) (\(bytes.hexString))")
            }
        }
    }

    /// One checked BCD byte as 0…99.
    @inline(__always) static func bcd(_ b: UInt8) -> Int { Int(b >> 4) * 10 + Int(b & 0x0F) }

    static func bcdNumber(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int {
        guard bytes.count <= 9 else { throw Failure(reason: "a BCD number is at most 9 bytes") }
        try checkBCD(bytes)
        return bytes.reduce(0) { $0 * 100 + bcd($1) }
    }
}
