/// The memory of an NFC Forum Type 2 Tag (T2T 1.0 §6): 4-byte pages; page 3 is the
/// capability container, data from page 4 holds TLVs, among them the NDEF message TLV (03).
public struct Type2Memory: Hashable, Sendable {
    /// Page 3, the capability container: `E1`, mapping version, data-area size in 8-byte
    /// units, access conditions (read in the high nibble, write in the low).
    public var capabilityContainer: [UInt8]
    /// The NDEF message bytes, when an NDEF TLV is present.
    public var ndef: [UInt8]?
    /// Access from CC byte 3 (read nibble not 0: not supported; `00`: read/write; else
    /// read-only); capacity is the data area less the NDEF TLV's header and the terminator.
    public var status: NDEFStatus

    /// Parses pages 0… (at least 4 pages of header, then the data area).
    public init(parsing memory: [UInt8]) throws(NDEFError) {
        guard memory.count >= 16 else { throw .truncated(offset: memory.count, what: "the first 4 pages") }
        let cc = Array(memory[12..<16])
        capabilityContainer = cc
        guard cc[0] == 0xE1 else { throw .malformedPayload("no NDEF magic number E1 in the capability container") }
        let size = Int(cc[2]) * 8
        let access: NDEFStatus.Access = cc[3] & 0xF0 != 0 ? .notSupported : (cc[3] == 0x00 ? .readWrite : .readOnly)
        var s = memory[16...]
        var found: [UInt8]? = nil
        // The message, its TLV header (03 + 1 or 3 length bytes) and the terminator must fit.
        let capacity = size - 3 < 0xFF ? size - 3 : size - 5
        scan: while let tag = s.popFirst() {
            switch tag {
            case 0x00: continue  // NULL TLV
            case 0xFE: break scan  // terminator
            default:
                guard let first = s.popFirst() else { throw .truncated(offset: s.startIndex, what: "TLV length") }
                var length = Int(first)
                if first == 0xFF {
                    guard s.count >= 2 else { throw .truncated(offset: s.startIndex, what: "3-byte TLV length") }
                    length = Int(s[s.startIndex]) << 8 | Int(s[s.startIndex + 1])
                    s = s.dropFirst(2)
                }
                guard s.count >= length else { throw .lengthPastEnd(offset: s.startIndex, declared: length, available: s.count) }
                if tag == 0x03 {
                    found = Array(s.prefix(length))
                    break scan
                }
                s = s.dropFirst(length)
            }
        }
        ndef = found
        status = NDEFStatus(access: found == nil && access == .readWrite ? .readWrite : access, capacity: max(0, capacity))
    }

    /// The data-area bytes for `message`: the NDEF TLV then the terminator.
    public static func tlvs(for message: NDEFMessage) -> [UInt8] {
        let m = message.encoded
        let length: [UInt8] = m.count < 0xFF ? [UInt8(m.count)] : [0xFF, UInt8(m.count >> 8), UInt8(m.count & 0xFF)]
        return [0x03] + length + m + [0xFE]
    }
}
