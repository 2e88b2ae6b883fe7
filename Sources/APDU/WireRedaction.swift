/// Which bytes of a command on the wire are secrets (PINs), and how to show them.
///
/// Recording works on wire bytes, so the rule is decided from the header alone:
/// VERIFY (INS 20/21), CHANGE REFERENCE DATA (24), DISABLE/ENABLE VERIFICATION
/// REQUIREMENT (26/28) and RESET RETRY COUNTER (2C) of ISO/IEC 7816-4 §11.5 carry
/// reference data in their data field. Transcripts write `..` for each such byte.
public enum WireRedaction {
    /// The INS bytes whose data field is hidden (a command of class FF never is).
    public static let secretInstructions: Set<UInt8> = [0x20, 0x21, 0x24, 0x26, 0x28, 0x2C]

    /// The range of data-field bytes to hide in `command`, or nil.
    public static func secretRange(in command: [UInt8]) -> Range<Int>? {
        // A MIFARE Classic key: LOAD KEY's data (PC/SC `FF 82 P1 P2 06 KEY`), or the key inside a
        // PN532's AUTHENTICATE frame (`60`/`61`, block, KEY, UID).
        if command.count == 11, command[0] == 0xFF, command[1] == 0x82, command[4] == 0x06 { return 5..<11 }
        if command.count == 12, command[0] == 0x60 || command[0] == 0x61 { return 2..<8 }
        guard command.count > 5, command[0] != 0xFF, secretInstructions.contains(command[1]),
            let parsed = try? CommandAPDU(bytes: command), !parsed.data.isEmpty
        else { return nil }
        let start = parsed.isExtended ? 7 : 5
        return start..<(start + parsed.data.count)
    }

    /// Hex with `..` in place of each byte in `secret`.
    public static func format(_ bytes: [UInt8], secret: Range<Int>?) -> String {
        guard let secret else { return bytes.hexString }
        return bytes.indices.map { secret.contains($0) ? ".." : Hex.format([bytes[$0]]) }.joined(separator: " ")
    }

    /// Hex with `..` in place of each byte at a position in `hidden`.
    public static func format(_ bytes: [UInt8], hidden: Set<Int>) -> String {
        bytes.indices.map { hidden.contains($0) ? ".." : Hex.format([bytes[$0]]) }.joined(separator: " ")
    }

    /// Hex with the hidden bits of each byte in `masks` (position → bits): `..` for a wholly
    /// hidden byte (FF), `HH/MM` for one with the bits MM hidden (0 in HH), as transcripts
    /// write them (docs/transcripts.md).
    public static func format(_ bytes: [UInt8], masks: [Int: UInt8]) -> String {
        bytes.indices.map { i in
            guard let m = masks[i], m != 0 else { return Hex.format([bytes[i]]) }
            return m == 0xFF ? ".." : Hex.format([bytes[i] & ~m]) + "/" + Hex.format([m])
        }.joined(separator: " ")
    }
}
