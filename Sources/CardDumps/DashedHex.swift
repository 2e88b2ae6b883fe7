/// Hex as MIFARE Classic Tool and Proxmark3 write dumps: two digits a byte, `--` (or any pair
/// with a `-`) for a byte nobody knows.
enum DashedHex {
    /// The bytes of `text` (an even count of characters), nil where unknown; or the first pair
    /// that is neither hex nor dashes.
    static func bytes(_ text: [UInt8]) -> Result<[UInt8?], BadPair> {
        var out: [UInt8?] = []
        for i in stride(from: 0, to: text.count - 1, by: 2) {
            let pair = String(decoding: text[i..<(i + 2)], as: UTF8.self)
            if pair.contains("-") {
                out.append(nil)
            } else if let b = UInt8(pair, radix: 16) {
                out.append(b)
            } else {
                return .failure(BadPair(pair: pair))
            }
        }
        return .success(out)
    }

    /// A pair of characters that is no byte.
    struct BadPair: Error {
        let pair: String
        var reason: String { "'\(pair)' is not a hex byte" }
    }
}
