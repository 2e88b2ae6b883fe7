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

        func matches(_ c: CommandAPDU) -> Bool { c.cla & claMask == cla && c.ins == ins }
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
        // Calypso's own class (first-generation cards and cardpeek use it for every command).
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xA4, name: "SELECT (Calypso class)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xB0, name: "READ BINARY (Calypso class)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xB2, name: "READ RECORD (Calypso class)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xC0, name: "GET RESPONSE (Calypso class)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xCA, name: "GET DATA (Calypso class)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0x5C, name: "GET BALANCE (PBOC / JT/T)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0xCA, name: "GET DATA (proprietary class)"),
        Entry(claMask: 0xFF, cla: 0x90, ins: 0x32, name: "CEPAS READ PURSE"),
        Entry(claMask: 0xFF, cla: 0xFF, ins: 0xCA, name: "GET DATA (PC/SC reader: UID, ATS)"),
        Entry(claMask: 0xFF, cla: 0xFF, ins: 0xB0, name: "READ BINARY (PC/SC reader: storage card pages)"),
    ]

    /// Commands known to change a card, named so a refusal can say what it refused. Being
    /// absent from this list makes nothing allowed: the allow-list above decides.
    public static let changing: [Entry] = [
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xD0, name: "WRITE BINARY"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xD6, name: "UPDATE BINARY"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x0E, name: "ERASE BINARY"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xD2, name: "WRITE RECORD"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xDC, name: "UPDATE RECORD"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xE2, name: "APPEND RECORD"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xDA, name: "PUT DATA"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xDB, name: "PUT DATA (odd INS)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x8A, name: "OPEN SECURE SESSION (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x8E, name: "CLOSE SECURE SESSION (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x32, name: "INCREASE (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0x30, name: "DECREASE (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xB8, name: "SV RELOAD (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xBA, name: "SV DEBIT (Calypso)"),
        Entry(claMask: 0xEC, cla: 0x00, ins: 0xBC, name: "SV UNDEBIT (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0x8A, name: "OPEN SECURE SESSION (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0x8E, name: "CLOSE SECURE SESSION (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xD2, name: "WRITE RECORD (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xDC, name: "UPDATE RECORD (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xE2, name: "APPEND RECORD (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xD6, name: "UPDATE BINARY (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0x32, name: "INCREASE (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0x30, name: "DECREASE (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xB8, name: "SV RELOAD (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xBA, name: "SV DEBIT (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x94, ins: 0xBC, name: "SV UNDEBIT (Calypso)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0x50, name: "INITIALIZE FOR LOAD/PURCHASE (PBOC)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0x52, name: "CREDIT FOR LOAD (PBOC)"),
        Entry(claMask: 0xFF, cla: 0x80, ins: 0x54, name: "DEBIT FOR PURCHASE (PBOC)"),
    ]

    /// Why `command` is refused, for messages: "OPEN SECURE SESSION (Calypso), which changes
    /// the card", or "not in the read-only list".
    public static func refusal(of command: CommandAPDU) -> String {
        if let known = changing.first(where: { $0.matches(command) }) {
            return "it is \(known.name), which changes the card"
        }
        return "it may change the card (not in the read-only list)"
    }

    /// The name of the read command `command` is, or nil when it is not on the list.
    public static func name(of command: CommandAPDU) -> String? {
        entries.first(where: { $0.matches(command) })?.name
    }

    public static func isReadOnly(_ command: CommandAPDU) -> Bool { name(of: command) != nil }

    /// A short list for messages: "SELECT, READ BINARY, …".
    public static var summary: String {
        var names: [String] = []
        for e in entries where !names.contains(e.name) { names.append(e.name) }
        return names.joined(separator: ", ")
    }
}
