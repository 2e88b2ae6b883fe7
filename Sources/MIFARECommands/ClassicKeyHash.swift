import APDU
import Foundation

/// A card family told by the keys that open it, without the keys: Metrodroid's way of
/// recognising a card whose operator keys it must not ship. The digest is MD5 over the salt (a
/// text the family's profile chooses), the 6-byte key, and the salt again; a profile lists the
/// digests of its family's keys, a user's key that opens the sector is hashed and compared.
/// MD5 is RFC 1321's, written out here: it is used only to compare with digests others publish,
/// never to protect anything.
public enum ClassicKeyHash {
    /// The lower-case hex MD5 of salt ‖ key ‖ salt.
    public static func digest(key: [UInt8], salt: String) -> String {
        let salted = Array(salt.utf8) + key + Array(salt.utf8)
        return md5(salted).compactHex.lowercased()
    }

    /// RFC 1321 §3.4's per-step constants: the integer part of 2^32 × |sin(i + 1)|.
    private static let k: [UInt32] = (0..<64).map {
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down)))
    }
    /// The left rotations of each step, by round.
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    /// The 16-byte MD5 digest of `message` (RFC 1321).
    public static func md5(_ message: [UInt8]) -> [UInt8] {
        var bytes = message + [0x80]
        while bytes.count % 64 != 56 { bytes.append(0) }
        let bits = UInt64(message.count) &* 8
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
        var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            let m = (0..<16).map { j in (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[chunk + 4 * j + $1]) << (8 * UInt32($1)) } }
            var (a, b, c, d) = (state[0], state[1], state[2], state[3])
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i / 16 {
                case 0: (f, g) = ((b & c) | (~b & d), i)
                case 1: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
                case 2: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
                }
                f = f &+ a &+ k[i] &+ m[g]
                let s = shifts[(i / 16) * 4 + i % 4]
                (a, d, c) = (d, c, b)
                b = b &+ (f << s | f >> (32 - s))
            }
            state[0] = state[0] &+ a
            state[1] = state[1] &+ b
            state[2] = state[2] &+ c
            state[3] = state[3] &+ d
        }
        return state.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (8 * UInt32($0))) } }
    }
}
