/// The MIFARE Classic commands cardscan sends (NXP MF1S50yyX §9–10), as the frames a PN532
/// takes: it runs the Crypto-1 cipher itself, so AUTHENTICATE carries the key and the UID in the
/// clear to the reader chip (libnfc's `nfc-mfclassic` sends the same). A PC/SC reader takes them
/// as LOAD KEY and GENERAL AUTHENTICATE (PCSCClassicChannel). Only reading is constructible; the
/// commands that change a card are named so that a refusal can say what it refused.
public enum ClassicCommand {
    /// AUTHENTICATE with key A (`60`) or B (`61`) for `block`'s sector: `60 block KEY(6) UID(4)`.
    public static func authenticate(block: UInt8, keyB: Bool, key: [UInt8], uid: [UInt8]) -> [UInt8] {
        [keyB ? 0x61 : 0x60, block] + key.prefix(6) + uid.suffix(4)
    }

    /// READ (`30 block`): 16 bytes of an authenticated sector's block.
    public static func read(block: UInt8) -> [UInt8] { [0x30, block] }
    /// WRITE of a data block, 16 bytes (MF1S50 §10.3): sent only where the user asks for a
    /// write (`cardscan ndef write`), never by a profile or a dump.
    public static func write(block: UInt8, data: [UInt8]) -> [UInt8] { [0xA0, block] + data }

    /// Commands that only read or authenticate, by code.
    public static let reads: [UInt8: String] = [0x60: "AUTHENTICATE (key A)", 0x61: "AUTHENTICATE (key B)", 0x30: "READ"]
    /// Commands that change a card: never sent by cardscan.
    public static let changing: [UInt8: String] = [
        0xA0: "WRITE", 0xC0: "DECREMENT", 0xC1: "INCREMENT", 0xC2: "RESTORE", 0xB0: "TRANSFER",
    ]

    /// Bytes 2–7 of an AUTHENTICATE frame: the key, a secret traces and transcripts write `..`.
    public static func keyRange(in frame: [UInt8]) -> Range<Int>? {
        frame.count == 12 && (frame[0] == 0x60 || frame[0] == 0x61) ? 2..<8 : nil
    }

    /// The well-known keys every reader tries: transport (`FF…FF`), zeros, the MAD's key A
    /// (`A0 A1 A2 A3 A4 A5`, NXP AN10787) and the NFC Forum's (`D3 F7 D3 F7 D3 F7`, NXP AN1304).
    public static let wellKnownKeys: [[UInt8]] = [
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5], [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7],
    ]
}
