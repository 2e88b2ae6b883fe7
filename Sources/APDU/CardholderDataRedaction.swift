/// Which bytes of a card's answer are cardholder data that transcripts and traces hide: the
/// middle digits of the primary account number (PAN), the discretionary data of Track 2
/// (where a contactless card puts its dynamic verification value), Track 1, and the
/// cardholder's name. The rule follows the payment industry's masking (first six and last
/// four digits shown, PCI DSS req. 3.4) and works on the interindustry tags of ISO/IEC
/// 7816-6 that EMV uses (EMV Book 3 Annex A):
///
/// | tag | data element | hidden |
/// |---|---|---|
/// | 5A | Application PAN (BCD, F-padded) | bytes holding only digits 7 … n−4 |
/// | 57, 9F6B | Track 2 equivalent data / Track 2 data | the PAN's middle as for 5A, and the discretionary data after the service code |
/// | 56, 9F1F, 9F20 | Track 1 data, Track 1 / Track 2 discretionary data | all |
/// | 5F20, 9F0B | Cardholder name, cardholder name extended | all |
///
/// Only an answer that is BER-TLV through and through, starting with a template (a
/// constructed tag: FCI 6F, record 70, response 77), is looked at: a transit card's raw
/// record is never mistaken for one. Pure: no I/O.
public enum CardholderDataRedaction {
    static let wholeValue: Set<[UInt8]> = [[0x56], [0x9F, 0x1F], [0x9F, 0x20], [0x5F, 0x20], [0x9F, 0x0B]]
    static let pan: [UInt8] = [0x5A]
    static let track2: Set<[UInt8]> = [[0x57], [0x9F, 0x6B]]

    /// The byte positions of `data` (an answer without its status word) to hide, ascending.
    public static func positions(in data: [UInt8]) -> [Int] {
        guard let first = data.first, first & 0x20 != 0 else { return [] }
        var out: [Int] = []
        var slice = data[...]
        do {
            while !slice.isEmpty { try walk(&slice, depth: 0, into: &out) }
        } catch {
            return []  // not BER-TLV through and through: not a template answer
        }
        return out
    }

    private static func walk(_ input: inout ArraySlice<UInt8>, depth: Int, into out: inout [Int]) throws(BERTLV.ParseError) {
        if depth > BERTLV.maximumDepth { throw .tooDeep(offset: input.startIndex) }
        let tag = try TLVTag.consume(from: &input)
        let length = try BERTLV.consumeLength(from: &input)
        guard input.count >= length else { throw .valueOverrun(offset: input.startIndex, declared: length, available: input.count) }
        let start = input.startIndex
        var value = input.prefix(length)
        input = input.dropFirst(length)
        if tag.isConstructed {
            while !value.isEmpty { try walk(&value, depth: depth + 1, into: &out) }
        } else if wholeValue.contains(tag.bytes) {
            out += start..<(start + length)
        } else if tag.bytes == pan {
            out += panMiddle(Array(value), digits: digitCount(Array(value))).map { $0 + start }
        } else if track2.contains(tag.bytes) {
            out += track2Secret(Array(value)).map { $0 + start }
        }
    }

    /// Nibbles of `bytes`, high first.
    static func nibbles(_ bytes: [UInt8]) -> [UInt8] { bytes.flatMap { [$0 >> 4, $0 & 0x0F] } }

    /// Digits before the first F (padding) or D (Track 2's separator).
    static func digitCount(_ bytes: [UInt8]) -> Int {
        nibbles(bytes).firstIndex { $0 > 9 } ?? bytes.count * 2
    }

    /// Bytes whose both nibbles are PAN digits 7 … n−4 (1-based): hidden.
    static func panMiddle(_ bytes: [UInt8], digits n: Int) -> [Int] {
        bytes.indices.filter { b in 2 * b >= 6 && 2 * b + 1 < n - 4 }
    }

    /// Track 2: PAN, separator D, YYMM, service code (3 digits), discretionary data, F pad
    /// (ISO/IEC 7813). The PAN's middle and every byte wholly after the service code.
    static func track2Secret(_ bytes: [UInt8]) -> [Int] {
        let ns = nibbles(bytes)
        guard let separator = ns.firstIndex(of: 0x0D) else { return Array(bytes.indices) }  // not Track 2: hide it all
        let lastKept = separator + 7  // YYMM and the service code
        return panMiddle(bytes, digits: separator) + bytes.indices.filter { 2 * $0 > lastKept }
    }
}
