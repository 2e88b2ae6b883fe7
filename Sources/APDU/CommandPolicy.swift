/// Which commands cardscan may send without the user's say-so: an allow-list of commands
/// that only read a card, and a list of commands known to change one.
///
/// ``standard`` holds what standards fix: ISO/IEC 7816-4's interindustry reads and writes and
/// PC/SC part 3's reader pseudo-APDUs. Proprietary commands (Calypso's class 94, PBOC's GET
/// BALANCE, CEPAS, KS X 6924, …) are data: the known-commands file beside the profiles
/// (docs/profile-format.md §Commands) and a trusted profile's own `commands`, added with
/// ``adding(reads:changing:)``.
///
/// It is an allow-list on purpose: a command on neither list is treated as one that may change
/// the card, and one on the changing list is refused even when a profile declares it.
public struct CommandPolicy: Sendable {
    /// A command class and instruction, with its name and where that name comes from.
    public struct Entry: Sendable, Equatable {
        /// The CLA bits compared: FF all of them; EC leaves out the chaining bit and the logical
        /// channel.
        public let claMask: UInt8
        /// The class byte, already masked with ``claMask``.
        public let cla: UInt8
        /// The instruction byte INS.
        public let ins: UInt8
        /// The command's name for messages: `READ BINARY`.
        public let name: String
        /// The standard or public source that says what the command does.
        public let source: String

        /// An entry; `cla` is stored masked with `claMask`.
        public init(claMask: UInt8 = 0xFF, cla: UInt8, ins: UInt8, name: String, source: String) {
            self.claMask = claMask
            self.cla = cla & claMask
            self.ins = ins
            self.name = name
            self.source = source
        }

        /// Whether `c` has this entry's class (under ``claMask``) and instruction.
        public func matches(_ c: CommandAPDU) -> Bool { c.cla & claMask == cla && c.ins == ins }

        /// "90 4C" — the class and instruction as a profile writes them.
        public var header: String { [cla, ins].hexString }
    }

    /// Commands that only read.
    public private(set) var reads: [Entry]
    /// Commands known to change a card (for refusals; being absent allows nothing).
    public private(set) var changing: [Entry]

    /// A policy from its two lists.
    public init(reads: [Entry], changing: [Entry]) {
        self.reads = reads
        self.changing = changing
    }

    /// This policy with more entries. A read that is also on the changing list stays refused.
    public func adding(reads more: [Entry], changing moreChanging: [Entry] = []) -> CommandPolicy {
        CommandPolicy(reads: reads + more, changing: changing + moreChanging)
    }

    private static let iso = "ISO/IEC 7816-4 §11"
    private static let pcsc = "PC/SC part 3 §3.2.2"

    /// The standards' commands. Interindustry classes 0x-3x (ISO/IEC 7816-4 §5.4.1, any
    /// logical channel, chaining bit cleared) are matched with mask EC → 00.
    public static let standard = CommandPolicy(
        reads: [
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xA4, name: "SELECT", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xB0, name: "READ BINARY", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xB1, name: "READ BINARY (odd INS)", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xB2, name: "READ RECORD", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xB3, name: "READ RECORD (odd INS)", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xC0, name: "GET RESPONSE", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xCA, name: "GET DATA", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xCB, name: "GET DATA (odd INS)", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x84, name: "GET CHALLENGE", source: iso),
            Entry(cla: 0xFF, ins: 0xCA, name: "GET DATA (PC/SC reader: UID, ATS)", source: pcsc),
            Entry(cla: 0xFF, ins: 0xB0, name: "READ BINARY (PC/SC reader: storage card pages)", source: pcsc),
        ],
        changing: [
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xD0, name: "WRITE BINARY", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xD6, name: "UPDATE BINARY", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x0E, name: "ERASE BINARY", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xD2, name: "WRITE RECORD", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xDC, name: "UPDATE RECORD", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xE2, name: "APPEND RECORD", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xDA, name: "PUT DATA", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0xDB, name: "PUT DATA (odd INS)", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x24, name: "CHANGE REFERENCE DATA", source: iso),
            // VERIFY: a wrong PIN counts down the card's try counter (ISO/IEC 7816-4 §11.5.6).
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x20, name: "VERIFY", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x82, name: "EXTERNAL AUTHENTICATE", source: iso),
            Entry(claMask: 0xEC, cla: 0x00, ins: 0x2C, name: "RESET RETRY COUNTER", source: iso),
            Entry(cla: 0xFF, ins: 0xD6, name: "UPDATE BINARY (PC/SC reader: storage card pages)", source: pcsc),
        ])

    /// The known changing command `command` is, if any.
    public func changingEntry(for command: CommandAPDU) -> Entry? { changing.first { $0.matches(command) } }

    /// Why `command` is refused, for messages: "it is OPEN SECURE SESSION (Calypso), which
    /// changes the card", or "it may change the card (not in the read-only list)".
    public func refusal(of command: CommandAPDU) -> String {
        if let known = changingEntry(for: command) { return "it is \(known.name), which changes the card" }
        return "it may change the card (not in the read-only list)"
    }

    /// The name of the read command `command` is, or nil when it is not allowed (not listed,
    /// or also on the changing list).
    public func name(of command: CommandAPDU) -> String? {
        guard changingEntry(for: command) == nil else { return nil }
        return reads.first { $0.matches(command) }?.name
    }

    /// Whether `command` may be sent: on the read list and not on the changing one.
    public func isReadOnly(_ command: CommandAPDU) -> Bool { name(of: command) != nil }

    /// A short list for messages: "SELECT, READ BINARY, …".
    public var summary: String {
        var names: [String] = []
        for e in reads where !names.contains(e.name) { names.append(e.name) }
        return names.joined(separator: ", ")
    }
}
