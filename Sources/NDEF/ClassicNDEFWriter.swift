import APDU
import MIFARECommands

extension ClassicNDEF {
    /// Writes `message` to a card formatted for NDEF (AN1304): refused when the tag is read-only
    /// or too small, before anything is written; then the TLVs (`03 LEN MESSAGE FE`) into the
    /// NDEF sectors' data blocks in directory order, each sector opened with the NFC Forum's key
    /// A (which the sectors' access conditions let write); then read back and compared. The
    /// directory, the trailers and block 0 are never written.
    public static func write(
        _ exchange: CardExchange, uid: [UInt8], sectors: Int, message: NDEFMessage, reselect: (() throws -> Void)? = nil
    ) throws {
        let area = try self.area(exchange, uid: uid, sectors: sectors, reselect: reselect)
        try NDEFTags.check(try contents(area.data, readOnly: area.readOnly).0, message, tag: "MIFARE Classic")
        var bytes = Type2Memory.tlvs(for: message)
        bytes += [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16)
        var next = 0
        for n in area.sectors where next < bytes.count {
            let first = firstBlock(n), dataBlocks = ClassicCardImage.Kind.blocks(inSector: n) - 1
            _ = try exchange.transmit(ClassicCommand.authenticate(block: UInt8(first), keyB: false, key: ndefKey, uid: uid))
            for b in 0..<dataBlocks where next < bytes.count {
                _ = try exchange.transmit(ClassicCommand.write(block: UInt8(first + b), data: Array(bytes[next..<(next + 16)])))
                next += 16
            }
        }
        let (_, back) = try read(exchange, uid: uid, sectors: sectors, reselect: reselect)
        guard back == message else { throw NDEFTags.WriteFailure.verification("MIFARE Classic tag") }
    }
}
