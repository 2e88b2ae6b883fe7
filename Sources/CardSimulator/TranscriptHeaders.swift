import APDU

/// The transcript headers cardsim builds a card from.
extension Transcript {
    struct HeaderError: Error, CustomStringConvertible { let description: String }

    /// Header `key` as `count` bytes of hex (`# idm: 01 2E …`), or a message naming it.
    func bytes(header key: HeaderKey, count: Int) throws -> [UInt8] {
        guard let b = bytes(header: key), b.count == count else {
            throw HeaderError(description: "the transcript needs a '# \(key.rawValue):' header of \(count) bytes")
        }
        return b
    }

    /// An ISO 14443-A card's 7-byte UID: the `uid` header, else a made-up one.
    var uid: [UInt8] { (try? bytes(header: .uid, count: 7)) ?? [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] }
}
