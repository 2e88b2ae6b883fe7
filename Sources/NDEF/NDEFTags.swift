import APDU
import FeliCaCommands
import MIFARECommands

/// Reading the NDEF message of NFC Forum tags through any channel (the procedures of the
/// Type 2, 3 and 4 tag specifications; the byte layouts live in the NDEF module).
public enum NDEFTags {
    /// Why a tag's NDEF message could not be read (also thrown by a write that finds no
    /// NDEF structure).
    public enum Failure: UserFacingError, Equatable {
        /// The tag has no NDEF structure: no capability container (`E1` at page 3, file E103),
        /// no NDEF application or no NDEF file; the string says which.
        case notNDEF(String)
        /// The NDEF structure is there but a read of it failed or its bytes do not parse
        /// (TLV, NLEN, attribute block, message); the string says why.
        case malformed(String)
        public var message: String {
            switch self {
            case .notNDEF(let why): return "this tag holds no NDEF data: \(why)"
            case .malformed(let why): return "the tag's NDEF data is malformed: \(why)"
            }
        }
        public var hint: String? {
            switch self {
            case .notNDEF: return "it may be a transit card: read it with a card profile instead"
            case .malformed: return "a trace of the exchanges shows the bytes; writing a new message replaces the broken one"
            }
        }
    }

    /// Type 3 (T3T §7): the attribute block (block 0 of service 000B), then the data blocks,
    /// at most Nbr per Read Without Encryption.
    public static func readType3(_ exchange: CardExchange, idm idmBytes: [UInt8]) throws -> (NDEFStatus, NDEFMessage?) {
        let idm = try IDm(idmBytes)
        let attribute = try readType3Attribute(exchange, idm: idm)
        guard attribute.ln > 0 else { return (attribute.status, nil) }
        var data: [UInt8] = []
        for chunk in try FeliCaCommand.readPlan(first: 1, count: attribute.dataBlocks, perCommand: Int(min(attribute.nbr, 15))) {
            data += try readType3Blocks(exchange, idm: idm, chunk).flatMap { $0 }
        }
        do { return (attribute.status, try NDEFMessage(parsing: Array(data.prefix(attribute.ln)))) } catch {
            throw Failure.malformed(error.description)
        }
    }

    /// Blocks of the NDEF service (000B) in one Read Without Encryption, exactly as many as asked.
    static func readType3Blocks(_ exchange: CardExchange, idm: IDm, _ blocks: [BlockListElement]) throws -> [[UInt8]] {
        let frame = try FeliCaCommand.readWithoutEncryption(idm, services: [ServiceCode(0x000B)], blocks: blocks)
        return try FeliCaResponse.readWithoutEncryption(try exchange.transmit(frame), idm: idm, expectedBlocks: blocks.count)
    }

    /// The attribute information block (T3T §7.2: block 0 of service 000B), for the reader and
    /// the writer alike.
    static func readType3Attribute(_ exchange: CardExchange, idm: IDm) throws -> Type3AttributeBlock {
        let block = try readType3Blocks(exchange, idm: idm, [BlockListElement(serviceIndex: 0, blockNumber: 0)])[0]
        do { return try Type3AttributeBlock(parsing: block) } catch { throw Failure.malformed(error.description) }
    }

    /// Type 4 (T4T §5.4): SELECT the NDEF application (v2, then v1), the CC file E103, the
    /// NDEF file; NLEN; the message in chunks of at most MLe.
    public static func readType4(_ exchange: CardExchange) throws -> (NDEFStatus, NDEFMessage?) {
        var v1 = false
        if try !exchange.send(.select(aid: Type4CapabilityContainer.applicationV2)).statusWord.isSuccess {
            guard try exchange.send(.select(aid: Type4CapabilityContainer.applicationV1, returning: .none)).statusWord.isSuccess else {
                throw Failure.notNDEF("no NDEF application (D2760000850101)")
            }
            v1 = true
        }
        let selectCC = CommandAPDU.select(fileID: Type4CapabilityContainer.fileID, returning: v1 ? .fci : .none)
        guard try exchange.send(v1 ? selectCC.with(le: nil) : selectCC).statusWord.isSuccess else {
            throw Failure.notNDEF("no capability container file")
        }
        let head = try exchange.send(.readBinary(offset: 0, length: 2))
        guard head.statusWord.isSuccess, head.data.count == 2 else { throw Failure.malformed("CCLEN unreadable (\(head.statusWord))") }
        let cclen = Int(head.data[0]) << 8 | Int(head.data[1])
        let ccBody = try exchange.send(.readBinary(offset: 0, length: min(max(cclen, 15), 255)))
        let cc: Type4CapabilityContainer
        do { cc = try Type4CapabilityContainer(parsing: ccBody.data) } catch { throw Failure.malformed(error.description) }
        let selectFile = CommandAPDU.select(fileID: cc.ndefFileID, returning: v1 ? .fci : .none)
        guard try exchange.send(v1 ? selectFile.with(le: nil) : selectFile).statusWord.isSuccess else {
            throw Failure.notNDEF("no NDEF file")
        }
        let nlenAnswer = try exchange.send(.readBinary(offset: 0, length: cc.nlenSize))
        guard nlenAnswer.statusWord.isSuccess, nlenAnswer.data.count == cc.nlenSize else { throw Failure.malformed("NLEN unreadable") }
        let nlen = nlenAnswer.data.reduce(0) { $0 << 8 | Int($1) }
        guard nlen > 0 else { return (cc.status, nil) }
        guard nlen <= cc.maxNDEFSize - cc.nlenSize, nlen <= cc.addressableNLEN else {
            throw Failure.malformed(
                "NLEN \(nlen) is past what the NDEF file can hold (\(cc.maxNDEFSize - cc.nlenSize) bytes, readable up to offset 32767)")
        }
        var data: [UInt8] = []
        for (offset, length) in cc.chunks(from: cc.nlenSize, total: nlen) {
            let r = try exchange.send(.readBinary(offset: offset, length: length))
            guard r.statusWord.isSuccess else { throw Failure.malformed("READ BINARY at \(offset): \(r.statusWord)") }
            data += r.data
        }
        do { return (cc.status, try NDEFMessage(parsing: data)) } catch { throw Failure.malformed(error.description) }
    }

    /// Type 2 (T2T §6): READ (`30 pp`, 16 bytes = 4 pages) from page 0 until the NDEF TLV is
    /// whole, never past the data area the capability container claims (page 3: `E1`, then its
    /// size in 8-byte units from page 4). READ names its page in one byte, so at most pages
    /// 0–255 (64 READs; beyond needs SECTOR SELECT, which cardscan does not send): an NTAG216's
    /// 872-byte data area is pages 4–221.
    public static func readType2(_ exchange: CardExchange, maxPages: Int = 256) throws -> (NDEFStatus, NDEFMessage?) {
        var memory: [UInt8] = []
        var page = 0
        var end = min(maxPages, 256)
        while page < end {
            let answer: [UInt8]
            do { answer = try UltralightPages.readGroup(page: page, transmit: exchange.transmit) } catch UltralightError.shortAnswer(
                _, let count)
            {
                throw Failure.malformed("READ of page \(page) returned \(count) bytes")
            }
            memory += answer
            page += 4
            if page == 4 {
                // A tag with no NDEF capability container is not read further: its size is unknown,
                // and reading past its end is an error from the reader, not from the tag's data.
                guard memory[12] == 0xE1 else { throw Failure.notNDEF("no NDEF capability container (E1) at page 3") }
                end = min(end, 4 + Int(memory[14]) * 2)
            }
            let parsed: Type2Memory
            do { parsed = try Type2Memory(parsing: memory) } catch {
                // A TLV that runs on is read on, to the end of the data area: there it is malformed.
                if page >= end { throw Failure.malformed("\(error)") }
                continue
            }
            if parsed.ndef != nil || page >= end {
                // An NDEF TLV of length 0 (`03 00`) is an initialised tag with no message yet
                // (T2T: the INITIALIZED state), as NLEN 0 and Ln 0 are for Types 4 and 3.
                let message = try parsed.ndef.flatMap { bytes -> NDEFMessage? in
                    if bytes.isEmpty { return nil }
                    do { return try NDEFMessage(parsing: bytes) } catch { throw Failure.malformed("\(error)") }
                }
                return (parsed.status, message)
            }
        }
        throw Failure.malformed("no NDEF TLV in the first \(end) pages")
    }
}
