/// Builders for FeliCa command frames (JIS X 6319-4 §7.4). Every frame starts with its
/// length byte, which counts itself, then the command code.
public enum FeliCaCommand {
    /// Polling's command code (00); a response code is the command code + 1.
    public static let polling: UInt8 = 0x00
    /// Request Service's command code (02).
    public static let requestService: UInt8 = 0x02
    /// Request Response's command code (04).
    public static let requestResponse: UInt8 = 0x04
    /// Read Without Encryption's command code (06).
    public static let readWithoutEncryption: UInt8 = 0x06
    /// Write Without Encryption's command code (08).
    public static let writeWithoutEncryption: UInt8 = 0x08
    /// Search Service Code's command code (0A; not in JIS X 6319-4).
    public static let searchServiceCode: UInt8 = 0x0A
    /// Request System Code's command code (0C).
    public static let requestSystemCode: UInt8 = 0x0C

    /// Polling (§7.4.2): `06 00 SC_hi SC_lo RC TSN`. `requestCode` 1 asks for the system code,
    /// 2 for communication performance; `timeSlots` is 0, 1, 3, 7 or 15.
    public static func polling(
        systemCode: SystemCode = .wildcard, requestCode: UInt8 = 0, timeSlots: UInt8 = 0
    ) throws(FeliCaError) -> [UInt8] {
        guard [0, 1, 3, 7, 15].contains(timeSlots) else { throw .invalidArgument("time slots must be 0, 1, 3, 7 or 15, not \(timeSlots)") }
        guard requestCode <= 2 else { throw .invalidArgument("request code must be 0, 1 or 2, not \(requestCode)") }
        return [6, polling] + systemCode.bigEndianBytes + [requestCode, timeSlots]
    }

    /// Request Service (§7.4.3): the key versions of up to 32 node codes.
    public static func requestService(_ idm: IDm, nodes: [ServiceCode]) throws(FeliCaError) -> [UInt8] {
        guard (1...32).contains(nodes.count) else { throw .invalidArgument("Request Service takes 1…32 node codes, not \(nodes.count)") }
        return frame(requestService, idm, [UInt8(nodes.count)] + nodes.flatMap(\.packed))
    }

    /// Request Response (§7.4.4): the card's current mode.
    public static func requestResponse(_ idm: IDm) -> [UInt8] { frame(requestResponse, idm, []) }

    /// Search Service Code (not in JIS X 6319-4; see ``FeliCaNode``): the node at `index`
    /// of the system the IDm addresses, `LEN 0A IDm idx_lo idx_hi`. Index 0 is the root area;
    /// asking 1, 2, … until the card answers `FF FF` walks the whole tree.
    public static func searchServiceCode(_ idm: IDm, index: UInt16) -> [UInt8] {
        frame(searchServiceCode, idm, [UInt8(index & 0xFF), UInt8(index >> 8)])
    }

    /// Request System Code (§7.4.11): the systems on the card. Octopus does not answer it.
    public static func requestSystemCode(_ idm: IDm) -> [UInt8] { frame(requestSystemCode, idm, []) }

    /// Read Without Encryption (§7.4.7): `LEN 06 IDm m SC… n BLE…`, service codes
    /// little-endian, 1…16 services, 1…15 blocks in one command.
    public static func readWithoutEncryption(_ idm: IDm, services: [ServiceCode], blocks: [BlockListElement]) throws(FeliCaError) -> [UInt8]
    {
        try checkLists(services, blocks)
        return frame(readWithoutEncryption, idm, lists(services, blocks))
    }

    /// Write Without Encryption (§7.4.8): as Read, followed by 16 bytes per block. It changes
    /// the card: only `cardscan ndef write` sends it, on the user's request.
    public static func writeWithoutEncryption(
        _ idm: IDm, services: [ServiceCode], blocks: [BlockListElement], data: [[UInt8]]
    ) throws(FeliCaError) -> [UInt8] {
        try checkLists(services, blocks)
        guard data.count == blocks.count else { throw .invalidArgument("\(blocks.count) block(s) but \(data.count) data block(s)") }
        for d in data where d.count != 16 { throw .badLength(field: "block data", expected: 16, actual: d.count) }
        let body: [UInt8] = lists(services, blocks) + data.flatMap { $0 }
        guard body.count + 10 <= 255 else { throw .invalidArgument("the frame would be longer than 255 bytes") }
        return frame(writeWithoutEncryption, idm, body)
    }

    static func checkLists(_ services: [ServiceCode], _ blocks: [BlockListElement]) throws(FeliCaError) {
        guard (1...16).contains(services.count) else { throw .invalidArgument("1…16 services per command, not \(services.count)") }
        guard (1...15).contains(blocks.count) else { throw .invalidArgument("1…15 blocks per command, not \(blocks.count)") }
        for b in blocks where b.serviceIndex >= services.count {
            throw .invalidArgument("block \(b.blockNumber) names service \(b.serviceIndex) but the list has \(services.count)")
        }
    }

    /// `m SC… n BLE…`, shared by Read and Write Without Encryption.
    static func lists(_ services: [ServiceCode], _ blocks: [BlockListElement]) -> [UInt8] {
        var out: [UInt8] = [UInt8(services.count)]
        for s in services { out += s.packed }
        out.append(UInt8(blocks.count))
        for b in blocks { out += b.packed }
        return out
    }

    static func frame(_ code: UInt8, _ idm: IDm, _ body: [UInt8]) -> [UInt8] {
        [UInt8(2 + 8 + body.count), code] + idm.bytes + body
    }

    /// Splits `count` blocks of one service into commands of at most `perCommand` blocks
    /// (the card's limit, e.g. Nbr for Type 3 tags), numbered from `first`.
    public static func readPlan(first: UInt16 = 0, count: Int, perCommand: Int) throws(FeliCaError) -> [[BlockListElement]] {
        guard (1...15).contains(perCommand) else { throw .invalidArgument("blocks per command must be 1…15") }
        var out: [[BlockListElement]] = []
        // Block numbers are 16 bits (§7.4.6): a count from a profile or a tag's attribute block
        // that runs past block 65535 is refused, not wrapped.
        guard count <= 0x1_0000 - Int(first) else { throw .invalidArgument("\(count) blocks from block \(first) go past block 65535") }
        var next = Int(first)
        let end = Int(first) + max(0, count)
        while next < end {
            let n = min(perCommand, end - next)
            var chunk: [BlockListElement] = []
            for b in next..<(next + n) { chunk.append(try BlockListElement(serviceIndex: 0, blockNumber: UInt16(b))) }
            out.append(chunk)
            next += n
        }
        return out
    }
}
