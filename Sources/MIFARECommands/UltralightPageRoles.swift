/// What an Ultralight-family tag's pages are for (NXP MF0ICU1 §8.5, MF0ULX1 §8.5, NTAG213/215/216
/// §8.5): the UID and its check bytes, the static lock bytes, the one-time-programmable page,
/// user memory, and on EV1 and NTAG21x the configuration pages at the end.
public enum UltralightPageRoles {
    /// The chip's name as its data sheet gives it: `Ultralight EV1 (MF0UL11)`.
    public static func name(of model: String) -> String {
        switch UltralightCardImage.Model(rawValue: model) ?? .unknown {
        case .ultralight: return "Ultralight (MF0ICU1)"
        case .ultralightC: return "Ultralight C (MF0ICU2)"
        case .ultralightEV1_11: return "Ultralight EV1 (MF0UL11)"
        case .ultralightEV1_21: return "Ultralight EV1 (MF0UL21)"
        case .ntag203: return "NTAG203"
        case .ntag213: return "NTAG213"
        case .ntag215: return "NTAG215"
        case .ntag216: return "NTAG216"
        case .unknown: return "Ultralight family (model not told)"
        }
    }

    /// What page `n` of a tag of `count` pages holds.
    public static func role(_ n: Int, count: Int) -> String {
        switch n {
        case 0: return "UID 0–2, check byte BCC0"
        case 1: return "UID 3–6"
        case 2: return "check byte BCC1, internal, static lock bytes"
        case 3: return "OTP (one-time programmable)"
        default:
            // EV1 (20 or 41 pages) and NTAG21x keep their configuration in the last pages.
            switch (count, count - n) {
            case (20, 4), (41, 4): return "configuration 0 (MOD, AUTH0)"
            case (20, 3), (41, 3): return "configuration 1 (ACCESS)"
            case (20, 2), (41, 2): return "password (reads as zeros)"
            case (20, 1), (41, 1): return "password acknowledgement (reads as zeros)"
            case (45, 5), (135, 5), (231, 5): return "dynamic lock bytes"
            case (45, 4), (135, 4), (231, 4): return "configuration 0 (MIRROR, AUTH0)"
            case (45, 3), (135, 3), (231, 3): return "configuration 1 (ACCESS)"
            case (45, 2), (135, 2), (231, 2): return "password (reads as zeros)"
            case (45, 1), (135, 1), (231, 1): return "password acknowledgement (reads as zeros)"
            default: return "user memory"
            }
        }
    }

    /// Whether the static lock bytes (page 2, bytes 2 and 3) freeze each page: bit n of byte 2
    /// (n = 3…7) locks page n, bit n of byte 3 locks page 8 + n; nil for a page they do not
    /// cover (0–2 are read-only anyway, 16 and beyond have dynamic lock bits) or when page 2
    /// was not read.
    public static func staticLocks(_ pages: [[UInt8?]]) -> [Bool?] {
        guard pages.count > 2, let lock0 = pages[2][2], let lock1 = pages[2][3] else { return pages.map { _ in nil } }
        return pages.indices.map { n in
            switch n {
            case 3...7: return lock0 >> n & 1 == 1
            case 8...15: return lock1 >> (n - 8) & 1 == 1
            default: return nil
            }
        }
    }
}
