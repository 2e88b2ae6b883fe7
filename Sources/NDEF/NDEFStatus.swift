/// What a tag says about its NDEF area, as Core NFC's `queryNDEFStatus` reports it.
public struct NDEFStatus: Hashable, Sendable {
    /// Whether the NDEF area may be read and written; the raw value is how output spells it.
    public enum Access: String, Sendable {
        /// NDEF read access is not granted: a Type 2 CC read-access nibble or a Type 4 read
        /// access condition other than 0.
        case notSupported = "not supported"
        /// The message can be read, not written (a write condition other than 0, or a Type 3
        /// RWFlag other than 01).
        case readOnly = "read-only"
        /// The message can be read and written.
        case readWrite = "read-write"
    }
    /// Whether the NDEF message may be read and written.
    public var access: Access
    /// Bytes available for an NDEF message.
    public var capacity: Int

    /// A status of `access` with room for `capacity` bytes of message.
    public init(access: Access, capacity: Int) {
        self.access = access
        self.capacity = capacity
    }

    /// Whether `message` may be written here (a read-only or too small tag refuses).
    public func check(writing message: NDEFMessage) throws(NDEFError) {
        guard access == .readWrite else { throw .notWritable(access: access.rawValue) }
        try message.checkEncodable()
        let n = message.encoded.count
        guard n <= capacity else { throw .tooLarge(n) }
    }
}
