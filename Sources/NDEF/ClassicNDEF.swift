import APDU
import MIFARECommands

/// NDEF on MIFARE Classic (NXP AN1304, "MIFARE Classic as NFC Type MIFARE Classic Tag", with the
/// MIFARE Application Directory of AN10787): sector 0 (key A `A0 A1 A2 A3 A4 A5`) holds the MAD,
/// whose entries of application ID `03E1` name the NDEF sectors; those open with the NFC Forum's
/// public key A `D3 F7 D3 F7 D3 F7`, and their data blocks, in sector order, hold the same TLVs
/// as a Type 2 tag's data area (an NDEF message TLV `03`, a terminator `FE`). A 4K card's second
/// directory (sector 16) names sectors 17–39. A read sends only AUTHENTICATE and READ; `write`
/// (ClassicNDEFWriter.swift), which the user asks for, WRITEs the NDEF sectors' data blocks.
public enum ClassicNDEF {
    /// The MAD's key A (sector 0, and sector 16 of a 4K card).
    public static let madKey: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    /// The NFC Forum's public key A of the NDEF sectors.
    public static let ndefKey: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]

    /// The sectors a MAD names NDEF (AID `03E1`): MAD1's 15 entries (blocks 1–2 of sector 0,
    /// after a CRC and an info byte, each AID as application code then function cluster: `03 E1`)
    /// name sectors 1–15;
    /// MAD2's 23 (sector 16's blocks 0–2, same shape) name sectors 17–39.
    public static func ndefSectors(mad1: [UInt8], mad2: [UInt8]? = nil) -> [Int] {
        // Each directory's entries start at its byte 2 (after the CRC and the info byte).
        func ndef(_ data: [UInt8], first: Int) -> [Int] {
            guard data.count > 2 else { return [] }
            return ClassicMAD.entries(data[2...], firstSector: first).filter { $0.aid == ClassicMAD.ndefAID }.map(\.sector)
        }
        return ndef(mad1, first: 1) + (mad2.map { ndef($0, first: 17) } ?? [])
    }

    /// The NDEF sectors the directory names, their data blocks' bytes in order, and whether a
    /// trailer marks them read-only.
    struct Area {
        var sectors: [Int]
        var data: [UInt8]
        var readOnly: Bool
    }

    /// The first block of sector `n` (sectors 32–39 of a 4K card have 16 blocks).
    static func firstBlock(_ n: Int) -> Int { ClassicCardImage.Kind.firstBlock(ofSector: n) }

    /// Reads the MAD (and MAD2 on a 4K card) and the NDEF sectors it names.
    static func area(_ exchange: CardExchange, uid: [UInt8], sectors: Int, reselect: (() throws -> Void)?) throws -> Area {
        var count = 0
        func sector(_ n: Int, key: [UInt8]) throws -> [[UInt8?]]? {
            let (read, _) = try ClassicDump.read(
                sector: n, firstBlock: firstBlock(n), count: ClassicCardImage.Kind.blocks(inSector: n), uid: uid, candidates: ([key], []),
                transmit: exchange.transmit, reselect: reselect, authentications: &count)
            return read.blocks.map { $0.compactMap { try? Transcript.parsePattern($0) } }
        }
        guard let mad = try sector(0, key: madKey), mad.count == 4, !mad[1].contains(nil), !mad[2].contains(nil) else {
            throw NDEFTags.Failure.notNDEF("no MIFARE Application Directory: sector 0 does not open with key A0A1A2A3A4A5")
        }
        let mad1 = (mad[1] + mad[2]).compactMap { $0 }
        var mad2: [UInt8]? = nil
        if sectors > 16, let s16 = try sector(16, key: madKey) { mad2 = s16.prefix(3).flatMap { $0 }.compactMap { $0 } }
        let ndef = ndefSectors(mad1: mad1, mad2: mad2)
        guard !ndef.isEmpty else { throw NDEFTags.Failure.notNDEF("the MIFARE Application Directory names no NDEF sector (03E1)") }
        var area = Area(sectors: ndef, data: [], readOnly: false)
        for n in ndef {
            guard let blocks = try sector(n, key: ndefKey), !blocks.dropLast().contains(where: { $0.contains(nil) }) else {
                throw NDEFTags.Failure.malformed("NDEF sector \(n) does not open with the NFC Forum key D3F7D3F7D3F7")
            }
            area.data += blocks.dropLast().flatMap { $0.compactMap { $0 } }
            // The trailer's general purpose byte: write access in its low two bits (11: read-only).
            if let gpb = blocks.last?[9], gpb & 0x03 == 0x03 { area.readOnly = true }
        }
        return area
    }

    /// The tag's NDEF status and message over `exchange` (taking the PN532's frames), the card's
    /// UID for AUTHENTICATE; `reselect` wakes a card halted by a refusal.
    public static func read(
        _ exchange: CardExchange, uid: [UInt8], sectors: Int, reselect: (() throws -> Void)? = nil
    ) throws -> (
        NDEFStatus, NDEFMessage?
    ) {
        let area = try self.area(exchange, uid: uid, sectors: sectors, reselect: reselect)
        return try contents(area.data, readOnly: area.readOnly)
    }

    /// The NDEF status and message of the NDEF sectors' data, in order: the TLVs of a Type 2
    /// tag's data area.
    public static func contents(_ data: [UInt8], readOnly: Bool) throws -> (NDEFStatus, NDEFMessage?) {
        // The TLVs as a Type 2 tag's data area, behind a capability container that gives its size.
        let size = min(data.count / 8, 255)
        let parsed: Type2Memory
        do {
            parsed = try Type2Memory(parsing: [UInt8](repeating: 0, count: 12) + [0xE1, 0x10, UInt8(size), readOnly ? 0x0F : 0x00] + data)
        } catch {
            throw NDEFTags.Failure.malformed("\(error)")
        }
        let message = try parsed.ndef.flatMap { bytes -> NDEFMessage? in
            if bytes.isEmpty { return nil }
            do { return try NDEFMessage(parsing: bytes) } catch { throw NDEFTags.Failure.malformed("\(error)") }
        }
        return (parsed.status, message)
    }
}
