/// The `terminal` header of a transcript (docs/transcripts.md §Headers): the EMV terminal's
/// values a recording gave the card, `TAG=HEX` pairs separated by spaces —
/// `9A=261124 9F37=1A2B3C4D`; a value may be empty (`9F37=`). One grammar for the transcript
/// parser, which checks it at its line, and for replay, which sends the same values.
public enum TerminalHeader {
    /// What is wrong with the text, and how far into it (UTF-8 bytes from its start).
    public struct Problem: Error, Equatable, Sendable {
        /// What is wrong, as a sentence for an error message.
        public var reason: String
        /// Where, in UTF-8 bytes from the start of the text.
        public var offset: Int
    }

    /// The values by tag (a tag given twice: the last), or the first problem.
    public static func values(_ text: Substring) throws(Problem) -> [TLVTag: [UInt8]] {
        var out: [TLVTag: [UInt8]] = [:]
        var offset = 0
        for part in text.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += part.utf8.count + 1 }
            if part.isEmpty { continue }
            guard let equals = part.firstIndex(of: "=") else {
                throw Problem(
                    reason: "'# terminal:' is TAG=HEX pairs separated by spaces, e.g. 9A=261124 9F37=1A2B3C4D, not '\(part)'",
                    offset: offset)
            }
            let tagText = part[..<equals]
            guard let tag = try? TLVTag(hex: String(tagText)) else {
                throw Problem(reason: "'# terminal:' names its values by BER-TLV tag (9A, 9F37), not '\(tagText)'", offset: offset)
            }
            out[tag] = try hex(part[part.index(after: equals)...], header: "terminal", at: offset + tagText.utf8.count + 1)
        }
        return out
    }

    /// `text` as bytes, or a problem naming the header and the offending character's place
    /// (`at` + its position in `text`): the message every hex header of a transcript gives.
    static func hex(_ text: Substring, header: String, at offset: Int) throws(Problem) -> [UInt8] {
        do { return try Hex.parse(text) } catch {
            let at: Int
            switch error {
            case .invalidCharacter(_, let p), .splitByte(let p): at = p
            case .oddDigitCount: at = 0
            }
            throw Problem(reason: "'# \(header):' is hex: \(error.message)", offset: offset + at)
        }
    }
}
