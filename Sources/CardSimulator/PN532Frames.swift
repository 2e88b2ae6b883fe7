/// PN532 host-link frames (PN532 User Manual §6.2): `00 00 FF LEN LCS TFI data… DCS 00`,
/// LCS making LEN + LCS ≡ 0 and DCS making TFI + data + DCS ≡ 0 (mod 256).
public enum PN532Frame {
    /// The ACK frame `00 00 FF 00 FF 00`: sent before every answer frame, and alone when the
    /// card stays silent.
    public static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    /// The error frame `00 00 FF 01 FF 7F 81 00`: the PN532 did not accept the host's frame.
    /// Sent after the ACK for a command the emulator does not know, and made instead of a
    /// frame whose body passes an extended frame's 2-byte length.
    public static let syntaxError: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    /// A response frame with TFI D5 and `body` (the command code + 1 first).
    public static func response(_ body: [UInt8]) -> [UInt8] { frame(tfi: 0xD5, body) }

    /// A host command frame with TFI D4 and `body` (the command code first): what libnfc sends.
    public static func command(_ body: [UInt8]) -> [UInt8] { frame(tfi: 0xD4, body) }

    /// An information frame (§6.2.1.1), extended (§6.2.1.3: `00 00 FF FF FF LENm LENl LCS TFI …
    /// DCS 00`) when TFI and body pass 255 bytes.
    static func frame(tfi: UInt8, _ body: [UInt8]) -> [UInt8] {
        let payload = [tfi] + body
        // An extended frame's length is 2 bytes: an answer longer (a transcript's) is an error.
        guard payload.count <= 0xFFFF else { return syntaxError }
        let dcs = UInt8((256 - payload.reduce(0) { ($0 + Int($1)) % 256 }) % 256)
        if payload.count > 255 {
            let m = UInt8(payload.count >> 8), l = UInt8(payload.count & 0xFF)
            return [0x00, 0x00, 0xFF, 0xFF, 0xFF, m, l, UInt8((256 - (Int(m) + Int(l)) % 256) % 256)] + payload + [dcs, 0x00]
        }
        let len = UInt8(payload.count)
        return [0x00, 0x00, 0xFF, len, UInt8((256 - Int(len)) % 256)] + payload + [dcs, 0x00]
    }

    /// Pulls complete host frames (TFI D4) out of `buffer`, resynchronising on `00 FF`
    /// (libnfc sends a wake-up preamble of 55 55 00 … at every open). ACK frames from the
    /// host are dropped. Returns the frames' `[command, data…]` and keeps any partial tail.
    public static func extract(from buffer: inout [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        while true {
            guard let start = indexOfStartCode(buffer) else {
                if buffer.count > 1 { buffer.removeFirst(buffer.count - 1) }  // keep a possible 00
                return out
            }
            buffer.removeFirst(start)  // buffer now begins with 00 FF
            guard buffer.count >= 4 else { return out }
            let len = Int(buffer[2]), lcs = Int(buffer[3])
            if len == 0 && lcs == 0xFF {
                buffer.removeFirst(4)
                continue
            }  // ACK from the host
            guard (len + lcs) % 256 == 0, len >= 1 else {
                buffer.removeFirst(2)
                continue
            }
            guard buffer.count >= 4 + len + 1 else { return out }
            let payload = Array(buffer[4..<(4 + len)])
            let dcs = Int(buffer[4 + len])
            buffer.removeFirst(4 + len + 1)
            guard (payload.reduce(0) { $0 + Int($1) } + dcs) % 256 == 0, payload.first == 0xD4 else { continue }
            out.append(Array(payload.dropFirst()))
        }
    }

    static func indexOfStartCode(_ b: [UInt8]) -> Int? {
        guard b.count >= 2 else { return nil }
        for i in 0..<(b.count - 1) where b[i] == 0x00 && b[i + 1] == 0xFF { return i }
        return nil
    }
}
