/// Hexadecimal text ⇄ bytes, in the forms people paste from traces and datasheets:
/// `00A40400`, `00 A4 04 00`, `00:a4:04:00`.
public enum Hex {
    /// Why a hex string was refused. `position` is the 0-based offset in Unicode scalars.
    public enum ParseError: UserFacingError, Equatable {
        /// A character that is neither a hex digit nor a separator (space, tab, colon).
        case invalidCharacter(Character, position: Int)
        /// The text ends halfway through a byte; the value is the number of digits.
        case oddDigitCount(Int)
        /// A separator between a byte's two digits.
        case splitByte(position: Int)

        public var message: String {
            switch self {
            case .invalidCharacter(let c, let p): return "invalid hex character '\(c)' at position \(p + 1)"
            case .oddDigitCount(let n): return "odd number of hex digits (\(n)): every byte needs two"
            case .splitByte(let p): return "a separator splits a byte at position \(p + 1)"
            }
        }
        public var hint: String? { "write bytes as pairs of hex digits, e.g. 00 A4 04 00 or 00:A4:04:00" }
    }

    /// The value of one ASCII hex digit (`0`-`9`, `A`-`F`, `a`-`f`), or nil.
    @inline(__always) public static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c &- 0x30
        case 0x41...0x46: return c &- 0x37
        case 0x61...0x66: return c &- 0x57
        default: return nil
        }
    }

    /// Parses hex digits, allowing spaces, tabs and colons between bytes (never inside one).
    public static func parse(_ text: some StringProtocol) throws(ParseError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var digits = 0
        var position = 0
        for c in text.utf8 {
            defer { position += 1 }
            if let v = nibble(c) {
                digits += 1
                if let h = high {
                    out.append(h << 4 | v)
                    high = nil
                } else {
                    high = v
                }
            } else if c == 0x20 || c == 0x09 || c == 0x3A {
                if high != nil { throw .splitByte(position: position) }
            } else {
                // `position` counts UTF-8 bytes, all ASCII so far: this byte starts a scalar.
                let whole = String(text)
                let scalars = whole.unicodeScalars
                let index = whole.utf8.index(whole.utf8.startIndex, offsetBy: position)
                let scalar = index.samePosition(in: scalars) ?? scalars.startIndex
                throw .invalidCharacter(Character(scalars[scalar]), position: scalars.distance(from: scalars.startIndex, to: scalar))
            }
        }
        if high != nil { throw .oddDigitCount(digits) }
        return out
    }

    @usableFromInline static let digitsUpper: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A 16-bit value as four upper-case hex digits, big-endian: `008B`, `1CC8` (service,
    /// system and area codes, file identifiers).
    public static func format(_ value: UInt16) -> String {
        format([UInt8(value >> 8), UInt8(value & 0xFF)], separator: "")
    }

    /// Formats bytes as upper-case hex, `separator` between bytes (a space by default).
    @inlinable
    public static func format(_ bytes: some Collection<UInt8>, separator: String = " ") -> String {
        if bytes.isEmpty { return "" }
        let sep = Array(separator.utf8)
        let capacity = bytes.count * 2 + (bytes.count - 1) * sep.count
        return String(unsafeUninitializedCapacity: capacity) { out in
            var i = 0
            for b in bytes {
                if i > 0 {
                    for s in sep {
                        out[i] = s
                        i += 1
                    }
                }
                out[i] = digitsUpper[Int(b >> 4)]
                out[i + 1] = digitsUpper[Int(b & 0x0F)]
                i += 2
            }
            return i
        }
    }
}

extension Collection<UInt8> {
    /// Upper-case, space-separated hex: `00 A4 04 00`.
    public var hexString: String { Hex.format(self) }
    /// Upper-case hex without separators: `00A40400`.
    public var compactHex: String { Hex.format(self, separator: "") }
}
