import APDU
import MIFARECommands

/// A MIFARE Classic card from a ``ClassicCardImage``, answering as the card does with its keys
/// and access bits: through the emulated PN532 the PN532's frames (AUTHENTICATE `60`/`61` with
/// the key in the clear, since the PN532 runs the cipher; READ `30`), and through vpcd a PC/SC
/// reader's storage-card pseudo-APDUs (LOAD KEY `FF 82`, GENERAL AUTHENTICATE `FF 86`, the
/// obsolete `FF 88`, READ BINARY `FF B0`, GET DATA `FF CA`), as an ACR122U answers them.
///
/// A key opens a sector when the image knows that key and it is the one given; a sector the
/// image has no keys for (`unreadable`) opens with none. A READ needs the sector authenticated
/// and the block's access condition to allow the key used (a readable key B opens nothing). A
/// refused AUTHENTICATE or READ halts the card until it is selected again. WRITE (`A0`, or
/// UPDATE BINARY `FF D6` through vpcd) changes a data block the authenticated key may write;
/// never block 0 or a sector trailer. The image file itself is never changed.
public final class ClassicImageCard {
    /// The checked image.
    public private(set) var contents: ClassicCardImage.Contents
    private var authenticated: (sector: Int, keyB: Bool)?
    private var halted = false
    private var loadedKeys: [UInt8: [UInt8]] = [:]

    /// A card serving `contents`.
    public init(_ contents: ClassicCardImage.Contents) { self.contents = contents }

    /// A new selection: nothing authenticated, the card awake.
    public func reset() {
        authenticated = nil
        halted = false
    }

    /// The PC/SC pseudo-ATR: card name 00 26 (Mini), 00 01 (1K), 00 02 (4K; a 2K says 4K too).
    public var atr: [UInt8] {
        let name: UInt8 = contents.kind == .mini ? 0x26 : contents.kind == .k1 ? 0x01 : 0x02
        let body: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, name, 0, 0, 0, 0]
        return body + [body.dropFirst().reduce(0, ^)]
    }

    /// The card's answer to a PN532 frame; nil: refused (the card says nothing and halts).
    public func answer(_ frame: [UInt8]) -> [UInt8]? {
        guard !halted else { return nil }
        switch (frame.first, frame.count) {
        case (0x60, 12), (0x61, 12):
            guard authenticate(block: Int(frame[1]), keyB: frame[0] == 0x61, key: Array(frame[2..<8])) else { return refuse() }
            return []
        case (0x30, 2):
            return read(block: Int(frame[1])) ?? refuse()
        case (0xA0, 18):
            return write(block: Int(frame[1]), Array(frame[2...])) ? [] : refuse()
        default:
            return refuse()
        }
    }

    private func refuse() -> [UInt8]? {
        halted = true
        authenticated = nil
        return nil
    }

    /// Whether `key` opens `block`'s sector as key A or B.
    private func authenticate(block: Int, keyB: Bool, key: [UInt8]) -> Bool {
        let (sector, _) = ClassicCardImage.Kind.place(ofBlock: block)
        guard block < contents.kind.blockCount, let s = contents.sectors[sector], let expected = keyB ? s.keyB : s.keyA,
            expected == key
        else { return false }
        authenticated = (sector, keyB)
        return true
    }

    /// Block `block` when the authenticated key may read it.
    private func read(block: Int) -> [UInt8]? {
        let (sector, index) = ClassicCardImage.Kind.place(ofBlock: block)
        guard let auth = authenticated, auth.sector == sector, let s = contents.sectors[sector] else { return nil }
        let trailer = s.blocks[s.blocks.count - 1]
        guard let t6 = trailer[6], let t7 = trailer[7], let t8 = trailer[8], let access = AccessBits(t6, t7, t8) else { return nil }
        // Key B readable (trailer conditions 000, 010, 001): key B opens nothing.
        if auth.keyB, access.keyBReadable { return nil }
        // The data blocks of a 16-block sector share conditions by groups of five.
        let group = s.blocks.count == 4 ? index : (index == 15 ? 3 : index / 5)
        if group < 3 {
            let c = access.conditions[group]
            let allowed = auth.keyB ? c != 7 : [0, 1, 2, 4, 6].contains(c)
            guard allowed else { return nil }
        }
        let bytes = s.blocks[index]
        return bytes.contains(nil) ? nil : bytes.compactMap { $0 }
    }

    /// Writes `data` to data block `block` when the authenticated key may write it (conditions
    /// 000 with A or B; 100, 110, 011 with B): never block 0, never a trailer.
    private func write(block: Int, _ data: [UInt8]) -> Bool {
        let (sector, index) = ClassicCardImage.Kind.place(ofBlock: block)
        guard block > 0, data.count == 16, let auth = authenticated, auth.sector == sector, var s = contents.sectors[sector] else {
            return false
        }
        let trailer = s.blocks[s.blocks.count - 1]
        guard index < s.blocks.count - 1, let t6 = trailer[6], let t7 = trailer[7], let t8 = trailer[8],
            let access = AccessBits(t6, t7, t8), !(auth.keyB && access.keyBReadable)
        else { return false }
        let group = s.blocks.count == 4 ? index : index / 5
        let c = access.conditions[group]
        guard auth.keyB ? [0, 4, 6, 3].contains(c) : c == 0 else { return false }
        s.blocks[index] = data.map { Optional($0) }
        contents.sectors[sector] = s
        return true
    }

    /// A PC/SC reader's answer to a storage-card pseudo-APDU.
    public func pcscAnswer(_ apdu: [UInt8]) -> [UInt8] {
        if let answer = ReaderGetData.answer(apdu, identifier: contents.uid) { return answer }
        guard apdu.count >= 5, apdu[0] == 0xFF else { return [0x6E, 0x00] }
        switch apdu[1] {
        case 0x82:  // LOAD KEY: slots 00 and 01 (volatile)
            guard apdu.count == 11, apdu[4] == 6, apdu[3] <= 1 else { return [0x69, 0x86] }
            loadedKeys[apdu[3]] = Array(apdu[5..<11])
            return [0x90, 0x00]
        case 0x86, 0x88:  // GENERAL AUTHENTICATE, and its obsolete PC/SC 2.01 form
            let (block, type, slot): (Int, UInt8, UInt8)
            if apdu[1] == 0x86 {
                guard apdu.count == 10, apdu[4] == 5, apdu[5] == 1 else { return [0x67, 0x00] }
                (block, type, slot) = (Int(apdu[6]) << 8 | Int(apdu[7]), apdu[8], apdu[9])
            } else {
                (block, type, slot) = (Int(apdu[3]), apdu[4], apdu.count > 5 ? apdu[5] : 0)
            }
            guard let key = loadedKeys[slot], type == 0x60 || type == 0x61 else { return [0x69, 0x86] }
            reset()
            return answer(
                ClassicCommand.authenticate(block: UInt8(truncatingIfNeeded: block), keyB: type == 0x61, key: key, uid: contents.uid))
                == nil ? [0x63, 0x00] : [0x90, 0x00]
        case 0xB0:
            let le = apdu[4] == 0 ? 16 : Int(apdu[4])
            guard le == 16, let data = answer(ClassicCommand.read(block: apdu[3])) else { return [0x69, 0x82] }
            return data + [0x90, 0x00]
        case 0xD6:  // UPDATE BINARY: a WRITE of one block
            guard apdu.count == 21, apdu[4] == 0x10, answer(ClassicCommand.write(block: apdu[3], data: Array(apdu[5...]))) != nil else {
                return [0x69, 0x82]
            }
            return [0x90, 0x00]
        default: return [0x6A, 0x81]
        }
    }
}
