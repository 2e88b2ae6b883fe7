import APDU

/// The read-only FeliCa frames a PC/SC contactless reader carries in its pseudo-APDUs:
/// `FF 00 00 00 Lc FRAME` (ACS ACR1252U) or `FF 00 00 00 Lc D4 40 01 FRAME` (PN532-based
/// ACR122U), see ``PCSCFeliCaChannel``. `cardscan apdu` sends these without `--allow-write`;
/// anything else inside such a pseudo-APDU may change the card.
public enum PseudoAPDUReads {
    /// FeliCa commands that only read, by command code (JIS X 6319-4 §7.4; 0A is Search
    /// Service Code).
    static let feliCaReads: [UInt8: String] = [
        0x00: "Polling", 0x02: "Request Service", 0x04: "Request Response", 0x06: "Read Without Encryption",
        0x0A: "Search Service Code", 0x0C: "Request System Code",
    ]

    /// `FeliCa Read Without Encryption (in a PC/SC pseudo-APDU)` when `command` carries a
    /// whole FeliCa frame (its length byte right) whose command only reads; else nil.
    public static func name(of command: CommandAPDU) -> String? {
        guard command.cla == 0xFF, command.ins == 0x00, command.p1 == 0x00, command.p2 == 0x00 else { return nil }
        var frame = command.data[...]
        if frame.starts(with: [0xD4, 0x40, 0x01]) { frame = frame.dropFirst(3) }
        guard frame.count >= 2, Int(frame[frame.startIndex]) == frame.count,
            let name = feliCaReads[frame[frame.startIndex + 1]]
        else { return nil }
        return "FeliCa \(name) (in a PC/SC pseudo-APDU)"
    }

    /// Whether `command` only reads: allowed by `policy`, or a read-only FeliCa frame in a
    /// pseudo-APDU.
    public static func isReadOnly(_ command: CommandAPDU, policy: CommandPolicy = .standard) -> Bool {
        policy.isReadOnly(command) || name(of: command) != nil
    }
}
