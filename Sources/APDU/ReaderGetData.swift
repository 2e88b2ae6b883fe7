/// A contactless reader's GET DATA (`FF CA P1 00 Le`, PC/SC part 3 §3.2.2.1.3), answered by
/// whoever plays the reader: P1 00 asks for the card's identifier (an ISO 14443-A UID, an
/// ISO 14443-B PUPI). A PC/SC reader answers it itself; cardscan's libnfc channel and the
/// lab's simulated readers answer it the same way, so a profile that reads the UID (a DESFire
/// card whose serial is its UID) reads it through either transport. No I/O.
public enum ReaderGetData {
    /// The reader's answer to `command` for a card whose identifier is `identifier`, or nil
    /// when `command` is not a GET DATA for the identifier (it goes to the card).
    ///
    /// Le 00 asks for the whole identifier; a shorter Le gets `6C xx` (the right length), as
    /// PC/SC part 3 Table 3-5 says for a wrong Le.
    public static func answer(_ command: [UInt8], identifier: [UInt8]) -> [UInt8]? {
        guard command.count == 5, command[0] == 0xFF, command[1] == 0xCA, command[2] == 0x00, command[3] == 0x00 else {
            return nil
        }
        let le = Int(command[4])
        if le == 0 || le == identifier.count { return identifier + [0x90, 0x00] }
        return [0x6C, UInt8(identifier.count)]
    }
}
