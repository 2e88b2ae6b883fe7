import APDU
import MIFARECommands

/// Keys for replaying a MIFARE Classic transcript. A recording writes every key `..`, so a
/// replay has none of the user's keys; what it must reproduce is how many keys were tried on
/// each sector before one opened it (the recording's user had a dictionary, a key file, or only
/// the well-known keys). Stand-ins give each sector as many candidates of each type as the
/// recording tried — the well-known keys among them, so that none is added after — and the
/// replay sends the same AUTHENTICATE frames in the same order.
enum ReplayKeys {
    /// Per sector, the stand-in key lists for the card `uid`, from the transcript's AUTHENTICATE
    /// frames (`60`/`61`, the block, the key, the UID).
    static func standIns(_ transcript: Transcript, uid: [UInt8]?) -> ClassicKeys {
        var tries: [Int: (a: Int, b: Int)] = [:]
        for entry in transcript.entries {
            guard let c = entry.command, c.count >= 8, let type = c[0], type == 0x60 || type == 0x61, let block = c[1] else { continue }
            let sector = ClassicCardImage.Kind.place(ofBlock: Int(block)).sector
            var n = tries[sector] ?? (0, 0)
            if type == 0x60 { n.a += 1 } else { n.b += 1 }
            tries[sector] = n
        }
        var keys = ClassicKeys(uid: uid)
        for (sector, n) in tries {
            var set = ClassicKeys.SectorKeys()
            set.a = list(n.a, sector: sector, type: 0x0A)
            set.b = list(n.b, sector: sector, type: 0x0B)
            keys.sectors[sector] = set
        }
        return keys
    }

    /// `count` distinct keys ending with the four well-known ones (only those when `count` is
    /// smaller: a sector opened before every well-known key was tried needs no more).
    private static func list(_ count: Int, sector: Int, type: UInt8) -> [[UInt8]] {
        let known = ClassicCommand.wellKnownKeys
        let standIns = max(0, count - known.count)
        return (0..<standIns).map { [0xC0, 0xDE, type, UInt8(sector), UInt8($0 >> 8), UInt8($0 & 0xFF)] } + known
    }
}
