/// The allow-list of commands that only read a card. Profiles may contain nothing else,
/// and `cardscan apdu` refuses anything else without `--allow-write`.
///
/// It is an allow-list on purpose: a command not listed here (UPDATE BINARY, PURCHASE
/// `80 54`, INITIALIZE FOR LOAD `80 50`, PUT DATA, …) is treated as one that may change
/// the card.
public enum ReadOnlyCommands {
    public struct Entry: Sendable {
        public let claMask: UInt8
        public let cla: UInt8
        public let ins: UInt8
        public let name: String
    }

    /// Interindustry classes 0x-3x (ISO/IEC 7816-4 §5.4.1, any logical channel or chaining bit
    /// cleared) are matched with mask F0 → 00; proprietary ones exactly.
    public static let entries: [Entry] = [
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xA4, name: "SELECT"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xB0, name: "READ BINARY"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xB1, name: "READ BINARY (odd INS)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xB2, name: "READ RECORD"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xB3, name: "READ RECORD (odd INS)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xC0, name: "GET RESPONSE"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xCA, name: "GET DATA"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xCB, name: "GET DATA (odd INS)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x84, name: "GET CHALLENGE"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0x5C, name: "GET BALANCE (PBOC / JT/T)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0xCA, name: "GET DATA (proprietary class)"),
        Entry(claMask: 0xFF, cla: 0x90, ins: 0x32, name: "CEPAS READ PURSE"),
        Entry(claMask: 0xFF, cla: 0xFF, ins: 0xCA, name: "GET DATA (PC/SC reader: UID, ATS)"),
        Entry(claMask: 0xFF, cla: 0xFF, ins: 0xB0, name: "READ BINARY (PC/SC reader: storage card pages)"),
    ]

    /// The name of the read command `command` is, or nil when it is not on the list.
    public static func name(of command: CommandAPDU) -> String? {
        entries.first(where: { command.cla & $0.claMask == $0.cla && command.ins == $0.ins })?.name
    }

    public static func isReadOnly(_ command: CommandAPDU) -> Bool { name(of: command) != nil }

    /// A short list for messages: "SELECT, READ BINARY, …".
    public static var summary: String {
        var names: [String] = []
        for e in entries where !names.contains(e.name) { names.append(e.name) }
        return names.joined(separator: ", ")
    }
}
