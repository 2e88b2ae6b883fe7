import APDU

/// Parsers for FeliCa response frames: length byte, response code (command + 1) and echoed
/// IDm are checked before anything else is read, and nothing may follow the last field.
public enum FeliCaResponse {
    /// The answer to Polling (§7.4.2): IDm, PMm, and the requested data when RC ≠ 0.
    public struct Polling: Hashable, Sendable {
        /// The IDm of the system that answered.
        public let idm: IDm
        /// The card's PMm.
        public let pmm: PMm
        /// The system code (RC 1) or communication performance (RC 2).
        public let requestData: [UInt8]?
        /// ``requestData`` read as a big-endian system code. Right only when Polling asked with
        /// request code 1: after request code 2 these bytes are the communication performance.
        public var systemCode: SystemCode? { requestData.map { SystemCode(UInt16($0[0]) << 8 | UInt16($0[1])) } }
    }

    /// Polling (§7.4.2): `LEN 01 IDm PMm [2 bytes]`; the length byte and response code are checked,
    /// and only 0 or 2 bytes may follow the PMm (there is no IDm to check yet).
    public static func polling(_ frame: [UInt8]) throws(FeliCaError) -> Polling {
        let body = try envelope(frame, command: FeliCaCommand.polling)
        guard body.count >= 16 else { throw .truncated(command: FeliCaCommand.polling, length: frame.count) }
        let rest = body.count - 16
        guard rest == 0 || rest == 2 else { throw .trailingBytes(rest) }
        let b = Array(body)
        return Polling(idm: try IDm(Array(b[0..<8])), pmm: try PMm(Array(b[8..<16])), requestData: rest == 2 ? Array(b[16..<18]) : nil)
    }

    /// Read Without Encryption (§7.4.7): the blocks, 16 bytes each, or the status flags as an error.
    public static func readWithoutEncryption(_ frame: [UInt8], idm: IDm, expectedBlocks: Int? = nil) throws(FeliCaError) -> [[UInt8]] {
        var body = try withIDm(frame, command: FeliCaCommand.readWithoutEncryption, idm: idm)
        let flags = try statusFlags(&body, frame)
        guard flags.isSuccess else { throw .status(flags) }
        guard let n = body.popFirst() else { throw .truncated(command: FeliCaCommand.readWithoutEncryption, length: frame.count) }
        if let expectedBlocks, Int(n) != expectedBlocks { throw .wrongBlockCount(asked: expectedBlocks, got: Int(n)) }
        guard body.count >= Int(n) * 16 else { throw .truncated(command: FeliCaCommand.readWithoutEncryption, length: frame.count) }
        guard body.count == Int(n) * 16 else { throw .trailingBytes(body.count - Int(n) * 16) }
        return stride(from: body.startIndex, to: body.endIndex, by: 16).map { Array(body[$0..<($0 + 16)]) }
    }

    /// Write Without Encryption (§7.4.8): success, or the status flags as an error.
    public static func writeWithoutEncryption(_ frame: [UInt8], idm: IDm) throws(FeliCaError) {
        var body = try withIDm(frame, command: FeliCaCommand.writeWithoutEncryption, idm: idm)
        let flags = try statusFlags(&body, frame)
        guard flags.isSuccess else { throw .status(flags) }
        guard body.isEmpty else { throw .trailingBytes(body.count) }
    }

    /// Request Service (§7.4.3): one key version per node (FFFF: the node does not exist).
    public static func requestService(_ frame: [UInt8], idm: IDm) throws(FeliCaError) -> [UInt16] {
        var body = try withIDm(frame, command: FeliCaCommand.requestService, idm: idm)
        guard let n = body.popFirst() else { throw .truncated(command: FeliCaCommand.requestService, length: frame.count) }
        guard body.count == Int(n) * 2 else {
            throw body.count < Int(n) * 2
                ? .truncated(command: FeliCaCommand.requestService, length: frame.count) : .trailingBytes(body.count - Int(n) * 2)
        }
        return stride(from: body.startIndex, to: body.endIndex, by: 2).map { UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8 }
    }

    /// Search Service Code: the node at the index asked for, or nil past the last node
    /// (`FF FF`). Two bytes are a service, four an area; the response has no status flags.
    public static func searchServiceCode(_ frame: [UInt8], idm: IDm) throws(FeliCaError) -> FeliCaNode? {
        let body = Array(try withIDm(frame, command: FeliCaCommand.searchServiceCode, idm: idm))
        switch body.count {
        case 2:
            let code = UInt16(body[0]) | UInt16(body[1]) << 8
            return code == 0xFFFF ? nil : .service(ServiceCode(code))
        case 4:
            return .area(code: UInt16(body[0]) | UInt16(body[1]) << 8, end: UInt16(body[2]) | UInt16(body[3]) << 8)
        case 0, 1, 3:
            throw .truncated(command: FeliCaCommand.searchServiceCode, length: frame.count)
        default:
            throw .trailingBytes(body.count - 4)
        }
    }

    /// Request Response (§7.4.4): the mode (0 after Polling).
    public static func requestResponse(_ frame: [UInt8], idm: IDm) throws(FeliCaError) -> UInt8 {
        var body = try withIDm(frame, command: FeliCaCommand.requestResponse, idm: idm)
        guard let mode = body.popFirst() else { throw .truncated(command: FeliCaCommand.requestResponse, length: frame.count) }
        guard body.isEmpty else { throw .trailingBytes(body.count) }
        return mode
    }

    /// Request System Code (§7.4.11): the system codes, big-endian on the wire.
    public static func requestSystemCode(_ frame: [UInt8], idm: IDm) throws(FeliCaError) -> [SystemCode] {
        var body = try withIDm(frame, command: FeliCaCommand.requestSystemCode, idm: idm)
        guard let n = body.popFirst() else { throw .truncated(command: FeliCaCommand.requestSystemCode, length: frame.count) }
        guard body.count == Int(n) * 2 else {
            throw body.count < Int(n) * 2
                ? .truncated(command: FeliCaCommand.requestSystemCode, length: frame.count) : .trailingBytes(body.count - Int(n) * 2)
        }
        return stride(from: body.startIndex, to: body.endIndex, by: 2).map { SystemCode(UInt16(body[$0]) << 8 | UInt16(body[$0 + 1])) }
    }

    /// The response names, by response code (command + 1).
    static let names: [UInt8: String] = [
        0x01: "Polling", 0x03: "Request Service", 0x05: "Request Response", 0x07: "Read Without Encryption",
        0x09: "Write Without Encryption", 0x0B: "Search Service Code", 0x0D: "Request System Code",
    ]

    /// A one-line account of a response frame for traces: `Read Without Encryption, 10 blocks`,
    /// `Read Without Encryption, status 01 A8: illegal block number (block list element 1)`.
    /// Never throws: a frame it cannot read is described as such.
    public static func summary(_ frame: [UInt8]) -> String {
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return "not a FeliCa frame (length byte)" }
        let name = names[frame[1]] ?? "response code \([frame[1]].hexString)"
        guard frame[1] == 0x07 || frame[1] == 0x09, frame.count >= 12 else { return name }
        let flags = StatusFlags(frame[10], frame[11])
        if !flags.isSuccess { return "\(name), \(flags)" }
        return frame[1] == 0x07 && frame.count >= 13 ? "\(name), \(frame[12]) block(s)" : name
    }

    /// LEN and response code; returns what follows the code.
    static func envelope(_ frame: [UInt8], command: UInt8) throws(FeliCaError) -> ArraySlice<UInt8> {
        guard frame.count >= 2 else { throw .truncated(command: command, length: frame.count) }
        guard Int(frame[0]) == frame.count else { throw .lengthByteMismatch(declared: Int(frame[0]), actual: frame.count) }
        guard frame[1] == command + 1 else { throw .wrongResponseCode(expected: command + 1, actual: frame[1]) }
        return frame[2...]
    }

    static func withIDm(_ frame: [UInt8], command: UInt8, idm: IDm) throws(FeliCaError) -> ArraySlice<UInt8> {
        let body = try envelope(frame, command: command)
        guard body.count >= 8 else { throw .truncated(command: command, length: frame.count) }
        let echoed = Array(body.prefix(8))
        guard echoed == idm.bytes else { throw .wrongIDm(expected: idm.bytes, actual: echoed) }
        return body.dropFirst(8)
    }

    static func statusFlags(_ body: inout ArraySlice<UInt8>, _ frame: [UInt8]) throws(FeliCaError) -> StatusFlags {
        guard let f1 = body.popFirst(), let f2 = body.popFirst() else {
            throw .truncated(command: frame.count > 1 ? frame[1] &- 1 : 0, length: frame.count)
        }
        return StatusFlags(f1, f2)
    }
}
