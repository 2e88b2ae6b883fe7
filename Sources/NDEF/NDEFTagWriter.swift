import APDU
import FeliCaCommands

extension NDEFTags {
    /// Refusals and failures when writing an NDEF message.
    public enum WriteFailure: UserFacingError, Equatable {
        /// The tag's NDEF access is not read/write; `tag` names its type (`Type 2`, …).
        /// Nothing was written.
        case readOnly(tag: String)
        /// The encoded message is `size` bytes, more than the tag's `capacity`. Nothing was written.
        case tooLarge(size: Int, capacity: Int)
        /// The message read back after writing differs from the one written; the string names
        /// the tag (`Type 2 tag`, …).
        case verification(String)
        /// A message the tag could hold but cardscan cannot address (pages past 255, offsets
        /// past 32767): refused before anything is written.
        case unsupported(String)
        /// The tag answered a write with an error, part of the way through.
        case refused(String)
        public var message: String {
            switch self {
            case .readOnly(let tag): return "the \(tag) tag is read-only: nothing was written"
            case .tooLarge(let n, let c): return "the message is \(n) bytes but the tag holds \(c): nothing was written"
            case .verification(let why): return "the message read back differs from the one written: \(why)"
            case .unsupported(let why): return "\(why): nothing was written"
            case .refused(let why): return why
            }
        }
        public var hint: String? {
            switch self {
            case .readOnly:
                return "the tag does not allow writing (locked, or an access condition cardscan does not meet): write to another tag"
            case .tooLarge, .unsupported: return "shorten the text or URI"
            case .verification: return "hold the tag still and write again"
            case .refused: return "the tag may be locked or want a key, which cardscan does not send"
            }
        }
    }

    static func check(_ status: NDEFStatus, _ message: NDEFMessage, tag: String) throws {
        guard status.access == .readWrite else { throw WriteFailure.readOnly(tag: tag) }
        let n = message.encoded.count
        guard n <= status.capacity else { throw WriteFailure.tooLarge(size: n, capacity: status.capacity) }
    }

    /// Type 3 (T3T §7.3): refuse read-only or small tags; set WriteF = 0F in the attribute block,
    /// write the data blocks (at most Nbw a command) through service 0009, write the attribute
    /// block with WriteF = 00 and the new Ln; then read back and compare.
    public static func writeType3(_ exchange: CardExchange, idm idmBytes: [UInt8], message: NDEFMessage) throws {
        let (status, _) = try readType3(exchange, idm: idmBytes)
        try check(status, message, tag: "Type 3")
        let idm = try IDm(idmBytes)
        var attribute = try readType3Attribute(exchange, idm: idm)
        func write(_ first: UInt16, _ blocks: [[UInt8]]) throws {
            let list = try blocks.indices.map { try BlockListElement(serviceIndex: 0, blockNumber: first + UInt16($0)) }
            let frame = try FeliCaCommand.writeWithoutEncryption(idm, services: [ServiceCode(0x0009)], blocks: list, data: blocks)
            try FeliCaResponse.writeWithoutEncryption(try exchange.transmit(frame), idm: idm)
        }
        let bytes = message.encoded
        attribute.writeFlag = 0x0F
        try write(0, [attribute.encoded])
        let padded = bytes + [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16)
        let blocks = stride(from: 0, to: padded.count, by: 16).map { Array(padded[$0..<($0 + 16)]) }
        let perCommand = max(1, min(Int(attribute.nbw), 12))
        for start in stride(from: 0, to: blocks.count, by: perCommand) {
            try write(UInt16(1 + start), Array(blocks[start..<min(start + perCommand, blocks.count)]))
        }
        attribute.writeFlag = 0x00
        attribute.ln = bytes.count
        try write(0, [attribute.encoded])
        let (_, back) = try readType3(exchange, idm: idmBytes)
        guard back == message else { throw WriteFailure.verification("Type 3 tag") }
    }

    /// Type 2 (T2T §6.4): refuse read-only or small tags; WRITE (`A2 pp d0…d3`) the TLVs page
    /// by page from page 4; then read back and compare.
    public static func writeType2(_ exchange: CardExchange, message: NDEFMessage) throws {
        let (status, _) = try readType2(exchange)
        try check(status, message, tag: "Type 2")
        var bytes = Type2Memory.tlvs(for: message)
        bytes += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        // WRITE names its page in one byte: a tag whose capability container claims more than
        // pages 4–255 hold (CC sizes over 0x7E) needs SECTOR SELECT, which cardscan does not send.
        let lastPage = 3 + bytes.count / 4
        guard lastPage <= 0xFF else {
            throw WriteFailure.unsupported("the message reaches page \(lastPage); WRITE addresses pages up to 255 (no sector select)")
        }
        for (i, start) in stride(from: 0, to: bytes.count, by: 4).enumerated() {
            _ = try exchange.transmit([0xA2, UInt8(4 + i)] + bytes[start..<(start + 4)])
        }
        let (_, back) = try readType2(exchange)
        guard back == message else { throw WriteFailure.verification("Type 2 tag") }
    }

    /// Type 4 (T4T §5.5): refuse read-only or small tags; UPDATE BINARY NLEN = 0, the message
    /// in chunks of at most MLc from offset NLEN-size, then the real NLEN; read back and compare.
    public static func writeType4(_ exchange: CardExchange, message: NDEFMessage) throws {
        let (status, _) = try readType4(exchange)
        try check(status, message, tag: "Type 4")
        // readType4 left the NDEF file selected; the CC is needed for MLc and the NLEN size.
        guard try exchange.send(.select(fileID: Type4CapabilityContainer.fileID, returning: .none)).statusWord.isSuccess else {
            throw Failure.notNDEF("no capability container file")
        }
        let cc = try Type4CapabilityContainer(parsing: try exchange.send(.readBinary(offset: 0, length: 15)).data)
        guard try exchange.send(.select(fileID: cc.ndefFileID, returning: .none)).statusWord.isSuccess else {
            throw Failure.notNDEF("no NDEF file")
        }
        // Once NLEN is 0 the old message is gone: a refusal after that says so.
        var cleared = false
        func update(_ offset: Int, _ data: [UInt8]) throws {
            let r = try exchange.send(CommandAPDU(cla: 0x00, ins: 0xD6, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), data: data))
            guard r.statusWord.isSuccess else {
                let state = cleared ? "the tag's NLEN is 0 now: it holds no message" : "nothing was written"
                throw WriteFailure.refused("UPDATE BINARY at \(offset) answered \(r.statusWord): \(state)")
            }
            cleared = true
        }
        let bytes = message.encoded
        guard bytes.count <= cc.addressableNLEN else {
            throw WriteFailure.unsupported("the message ends past offset 32767, the last UPDATE BINARY can address")
        }
        func nlen(_ n: Int) -> [UInt8] { (0..<cc.nlenSize).reversed().map { UInt8((n >> (8 * $0)) & 0xFF) } }
        try update(0, nlen(0))
        let step = max(1, min(cc.maxLc, 255))
        for start in stride(from: 0, to: bytes.count, by: step) {
            try update(cc.nlenSize + start, Array(bytes[start..<min(start + step, bytes.count)]))
        }
        try update(0, nlen(bytes.count))
        let (_, back) = try readType4(exchange)
        guard back == message else { throw WriteFailure.verification("Type 4 tag") }
    }
}
