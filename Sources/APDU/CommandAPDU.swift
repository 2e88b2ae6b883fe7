/// A command APDU (ISO/IEC 7816-4 §5.1, §5.3.2): header CLA INS P1 P2, optional command
/// data (Lc field) and optional expected length (Le field).
///
/// The four cases of ISO/IEC 7816-3 §12.1.3 follow from which fields are present:
/// case 1 neither, case 2 Le only, case 3 data only, case 4 both. Short form carries
/// up to 255 data bytes and Le up to 256 (encoded `00`); extended form up to 65535
/// data bytes and Le up to 65536 (encoded `00 00`).
public struct CommandAPDU: Hashable, Sendable {
    /// The class byte CLA (ISO/IEC 7816-4 §5.4.1).
    public var cla: UInt8
    /// The instruction byte INS.
    public var ins: UInt8
    /// The first parameter byte P1.
    public var p1: UInt8
    /// The second parameter byte P2.
    public var p2: UInt8
    /// Command data; empty means no Lc field.
    public var data: [UInt8]
    /// Expected response length (1…65536), or nil for no Le field.
    public var le: Int?
    /// Encode in extended form even when short form would do.
    public var forceExtended: Bool
    /// The data holds a secret (a PIN): traces and transcripts show `..` instead.
    public var dataIsSecret: Bool

    /// A command from its fields; nothing is checked until ``encoded()``.
    public init(
        cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil,
        forceExtended: Bool = false, dataIsSecret: Bool = false
    ) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
        self.forceExtended = forceExtended
        self.dataIsSecret = dataIsSecret
    }

    /// ISO/IEC 7816-3 §12.1.3 cases.
    public enum Case: Int, Sendable {
        /// Case 1: no command data, no Le.
        case one = 1
        /// Case 2: Le only.
        case two
        /// Case 3: command data only.
        case three
        /// Case 4: command data and Le.
        case four
    }

    /// The case the present fields make.
    public var apduCase: Case {
        switch (data.isEmpty, le == nil) {
        case (true, true): return .one
        case (true, false): return .two
        case (false, true): return .three
        case (false, false): return .four
        }
    }

    /// Whether this command needs (or was asked for) the extended length form.
    public var isExtended: Bool { forceExtended || data.count > 255 || (le ?? 0) > 256 }

    /// Why a command cannot be encoded, or bytes are not a command APDU.
    public enum EncodingError: UserFacingError, Equatable {
        /// The command data (this many bytes) is over 65535 bytes.
        case dataTooLong(Int)
        /// Le (the value given) is outside 1…65536.
        case leOutOfRange(Int)
        /// Fewer than the 4 header bytes (the count given).
        case tooShort(Int)
        /// The Lc field announces `expected` data bytes, but `actual` bytes follow it, which fits
        /// neither the data alone nor the data and Le.
        case lengthMismatch(expected: Int, actual: Int)
        /// An extended length field (first byte 00) that is cut short or announces Lc = 0.
        case malformedExtendedLength

        public var message: String {
            switch self {
            case .dataTooLong(let n): return "command data of \(n) bytes exceeds the 65535-byte maximum"
            case .leOutOfRange(let n): return "Le \(n) is outside 1…65536"
            case .tooShort(let n): return "a command APDU needs at least 4 header bytes, got \(n)"
            case .lengthMismatch(let e, let a): return "the Lc field announces \(e) bytes but \(a) follow"
            case .malformedExtendedLength: return "malformed extended length field (ISO 7816-3 §12.1.3)"
            }
        }
        public var hint: String? { "a command APDU is CLA INS P1 P2, then Lc and data, then Le (ISO/IEC 7816-4 §5.1)" }
    }

    /// The bytes on the wire (ISO/IEC 7816-3 §12.1.3).
    public func encoded() throws(EncodingError) -> [UInt8] {
        if data.count > 65535 { throw .dataTooLong(data.count) }
        if let le, le < 1 || le > 65536 { throw .leOutOfRange(le) }
        var out: [UInt8] = [cla, ins, p1, p2]
        out.reserveCapacity(4 + 3 + data.count + 3)
        let ext = isExtended
        if !data.isEmpty {
            if ext { out += [0, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] } else { out.append(UInt8(data.count)) }
            out += data
        }
        if let le {
            if ext {
                let v = le == 65536 ? 0 : le
                if data.isEmpty { out.append(0) }
                out += [UInt8(v >> 8), UInt8(v & 0xFF)]
            } else {
                out.append(le == 256 ? 0 : UInt8(le))
            }
        }
        return out
    }

    /// Parses wire bytes into a command (ISO/IEC 7816-3 §12.1.3), rejecting inconsistent lengths.
    public init(bytes: some Collection<UInt8>) throws(EncodingError) {
        let b = Array(bytes)
        guard b.count >= 4 else { throw .tooShort(b.count) }
        self.init(cla: b[0], ins: b[1], p1: b[2], p2: b[3])
        let body = b[4...]
        if body.isEmpty { return }  // case 1
        if body.count == 1 {
            le = body.first! == 0 ? 256 : Int(body.first!)
            return
        }  // 2S
        let first = body[body.startIndex]
        if first != 0 {  // short 3 or 4
            let lc = Int(first)
            let rest = body.count - 1
            if rest == lc {
                data = Array(body.dropFirst())
                return
            }
            if rest == lc + 1 {
                data = Array(body.dropFirst().dropLast())
                le = body.last! == 0 ? 256 : Int(body.last!)
                return
            }
            throw .lengthMismatch(expected: lc, actual: rest)
        }
        // Extended: body starts with 00.
        forceExtended = true
        if body.count == 3 {  // 2E
            let v = Int(body[body.startIndex + 1]) << 8 | Int(body[body.startIndex + 2])
            le = v == 0 ? 65536 : v
            return
        }
        guard body.count > 3 else { throw .malformedExtendedLength }
        let lc = Int(body[body.startIndex + 1]) << 8 | Int(body[body.startIndex + 2])
        guard lc > 0 else { throw .malformedExtendedLength }
        let rest = body.count - 3
        let dataStart = body.startIndex + 3
        if rest == lc {
            data = Array(body[dataStart...])
            return
        }  // 3E
        if rest == lc + 2 {  // 4E
            data = Array(body[dataStart..<(dataStart + lc)])
            let v = Int(body[dataStart + lc]) << 8 | Int(body[dataStart + lc + 1])
            le = v == 0 ? 65536 : v
            return
        }
        throw .lengthMismatch(expected: lc, actual: rest)
    }

    /// Parses hex text (`00 A4 04 00 …`) into a command.
    public init(hex: String) throws {
        try self.init(bytes: Hex.parse(hex))
    }

    /// The same command with a different Le (used for the 6Cxx re-send).
    public func with(le newLe: Int?) -> CommandAPDU {
        var c = self
        c.le = newLe
        return c
    }
}

extension CommandAPDU: CustomStringConvertible {
    public var description: String {
        guard var bytes = try? encoded() else { return "<invalid APDU>" }
        if dataIsSecret, !data.isEmpty {
            let start = bytes.count - data.count - (le == nil ? 0 : (isExtended ? 2 : 1))
            for i in start..<(start + data.count) { bytes[i] = 0 }
            return WireRedaction.format(bytes, secret: start..<(start + data.count))
        }
        return bytes.hexString
    }
}
