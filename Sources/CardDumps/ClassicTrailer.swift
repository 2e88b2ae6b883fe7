/// A Classic sector trailer in the two shapes dumps and images keep it: most dumps write the
/// keys into it, cardscan's image keeps it as READ returns it (key A as zeros, key B as zeros
/// unless the access bits make it readable) with the keys beside it (docs/dump-formats.md §3.1).
enum ClassicTrailer {
    /// The trailer as READ returns it, and the keys a dump wrote into it (nil where unknown).
    static func separate(_ t: [UInt8?]) -> (trailer: [UInt8?], keyA: [UInt8]?, keyB: [UInt8]?) {
        let keyA = known(Array(t[0..<6])), keyB = known(Array(t[10..<16]))
        var out = t
        for i in 0..<6 { out[i] = 0 }  // key A always reads as zeros
        let access = known(Array(t[6..<9])).flatMap { AccessBits($0[0], $0[1], $0[2]) }
        if access?.keyBReadable != true {
            for i in 10..<16 { out[i] = t[10...].allSatisfy({ $0 == nil }) ? nil : 0 }
        }
        return (out, keyA, keyB)
    }

    /// The trailer with the keys written in (unknown ones as nil), as dumps keep it.
    static func merge(_ t: [UInt8?], keyA: [UInt8]?, keyB: [UInt8]?) -> [UInt8?] {
        var out = t
        for i in 0..<6 { out[i] = keyA?[i] }
        let access = known(Array(t[6..<9])).flatMap { AccessBits($0[0], $0[1], $0[2]) }
        if let keyB {
            for i in 0..<6 { out[10 + i] = keyB[i] }
        } else if access?.keyBReadable != true {
            for i in 10..<16 { out[i] = nil }
        }
        return out
    }

    /// The sector's blocks with its trailer split from its keys.
    static func sector(_ blocks: [[UInt8?]]) -> ClassicCardImage.Sector {
        var b = blocks
        let (trailer, keyA, keyB) = separate(b[b.count - 1])
        b[b.count - 1] = trailer
        return ClassicCardImage.Sector(keyA: keyA, keyB: keyB, blocks: b)
    }

    static func known(_ bytes: [UInt8?]) -> [UInt8]? {
        let k = bytes.compactMap { $0 }
        return k.count == bytes.count ? k : nil
    }
}
