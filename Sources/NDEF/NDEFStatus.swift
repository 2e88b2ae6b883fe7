/// What a tag says about its NDEF area, as Core NFC's `queryNDEFStatus` reports it.
public struct NDEFStatus: Hashable, Sendable {
    public enum Access: String, Sendable { case notSupported = "not supported", readOnly = "read-only", readWrite = "read-write" }
    public var access: Access
    /// Bytes available for an NDEF message.
    public var capacity: Int

    public init(access: Access, capacity: Int) {
        self.access = access
        self.capacity = capacity
    }

    /// Whether `message` may be written here (a read-only or too small tag refuses).
    public func check(writing message: NDEFMessage) throws(NDEFError) {
        guard access == .readWrite else { throw .malformedPayload("the tag is \(access.rawValue)") }
        let n = message.encoded.count
        guard n <= capacity else { throw .tooLarge(n) }
    }
}
