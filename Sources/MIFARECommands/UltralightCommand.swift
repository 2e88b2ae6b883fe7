/// The MIFARE Ultralight and NTAG21x commands (NXP MF0ICU1, MF0ULX1 and NTAG213/215/216 data
/// sheets), as bytes the tag takes. Only commands that read are constructible here; the others
/// are named so that a refusal can say what it refused. A PC/SC reader takes READ as the
/// storage-card READ BINARY `FF B0 00 page 10` (PCSCType2Channel).
public enum UltralightCommand {
    /// READ (`30 page`): 16 bytes, pages `page` to `page + 3`, wrapping to page 0 past the end.
    public static func read(page: UInt8) -> [UInt8] { [0x30, page] }
    /// GET_VERSION (`60`): 8 bytes naming the chip (EV1 and NTAG21x; older chips do not answer).
    public static let getVersion: [UInt8] = [0x60]
    /// READ_CNT (`39 n`): counter n's 24 bits, least significant byte first (EV1: 0–2; NTAG21x: 2).
    public static func readCounter(_ n: UInt8) -> [UInt8] { [0x39, n] }
    /// READ_SIG (`3C 00`): NXP's 32-byte originality signature of the UID.
    public static let readSignature: [UInt8] = [0x3C, 0x00]

    /// Commands that only read, by code, with their data-sheet names.
    public static let reads: [UInt8: String] = [
        0x30: "READ", 0x3A: "FAST_READ", 0x60: "GET_VERSION", 0x39: "READ_CNT", 0x3C: "READ_SIG", 0x3E: "CHECK_TEARING_EVENT",
    ]
    /// Commands that write, count, authenticate or lock: never sent by cardscan.
    public static let changing: [UInt8: String] = [
        0xA2: "WRITE", 0xA0: "COMPATIBILITY_WRITE", 0xA5: "INCR_CNT", 0x1B: "PWD_AUTH", 0x1A: "AUTHENTICATE",
        0x4B: "VCSL",
    ]

    /// Whether `command` only reads: READ with its page, GET_VERSION, READ_CNT, READ_SIG.
    public static func isReadOnly(_ command: [UInt8]) -> Bool {
        switch (command.first, command.count) {
        case (0x30, 2), (0x60, 1), (0x39, 2), (0x3C, 2): return true
        default: return false
        }
    }
}
