import APDU

/// Reading a MIFARE Classic card with the keys a user has: each sector opened with the first key
/// that authenticates (the card's own keys for the sector, then the dictionaries, then the
/// well-known keys; key A first, then key B for what A may not read), its blocks read, and the
/// card kept as an image. Over any channel that takes the PN532's frames (libnfc, or a PC/SC
/// reader through PCSCClassicChannel). Only AUTHENTICATE and READ are sent.
public enum ClassicDump {
    /// What a dump gives: the image (a sector no key opened is `unreadable`), what it could not
    /// read and why, and the AUTHENTICATE commands it sent.
    public struct Result {
        /// The card as read.
        public var image: ClassicCardImage
        /// One sentence for each sector left unread or read in part.
        public var notes: [String] = []
        /// AUTHENTICATE commands sent (successful or not).
        public var authentications = 0
        /// The transport failed part-way: what was read before is kept.
        public var error: Error?
    }

    /// Dumps the card. `reselect` wakes the card after a refused key (a Classic card halts
    /// then; through libnfc it must be polled again).
    public static func run(
        uid: [UInt8], atqa: [UInt8], sak: UInt8, kind: ClassicCardImage.Kind, keys: [ClassicKeys],
        transmit: ([UInt8]) throws -> [UInt8], reselect: (() throws -> Void)? = nil
    ) -> Result {
        var sectors: [ClassicCardImage.Sector] = []
        var result = Result(image: ClassicCardImage(uid: uid, atqa: atqa, sak: sak, kind: kind, sectors: []))
        let mine = keys.filter { $0.uid == nil || $0.uid == uid }
        var firstBlock = 0
        for s in 0..<kind.sectorCount {
            let count = ClassicCardImage.Kind.blocks(inSector: s)
            defer { firstBlock += count }
            if result.error != nil {
                sectors.append(.locked)
                continue
            }
            do {
                let (sector, note) = try read(
                    sector: s, firstBlock: firstBlock, count: count, uid: uid, candidates: candidates(s, mine, uid: uid),
                    transmit: transmit, reselect: reselect, authentications: &result.authentications)
                sectors.append(sector)
                if let note { result.notes.append(note) }
            } catch {
                result.error = error
                result.notes.append("sector \(s): the card went away (\(error)); the sectors before it are kept")
                sectors.append(.locked)
            }
        }
        result.image.sectors = sectors
        return result
    }

    /// The keys to try on sector `s` of the card `uid`, in order, without repeats: (A
    /// candidates, B candidates). Base keys of a transform are turned into the card's first.
    public static func candidates(_ s: Int, _ sets: [ClassicKeys], uid: [UInt8]) -> (a: [[UInt8]], b: [[UInt8]]) {
        var a: [[UInt8]] = [], b: [[UInt8]] = []
        func add(_ key: [UInt8], _ list: inout [[UInt8]]) { if key.count == 6, !list.contains(key) { list.append(key) } }
        for set in sets {
            for k in set.sectors[s]?.a ?? [] { add(k, &a) }
            for k in set.sectors[s]?.b ?? [] { add(k, &b) }
            for k in set.touchNGo[s]?.a ?? [] { ClassicKeys.touchNGo(k, uid: uid).map { add($0, &a) } }
            for k in set.touchNGo[s]?.b ?? [] { ClassicKeys.touchNGo(k, uid: uid).map { add($0, &b) } }
        }
        for set in sets {
            for k in set.dictionary {
                add(k, &a)
                add(k, &b)
            }
        }
        for k in ClassicCommand.wellKnownKeys {
            add(k, &a)
            add(k, &b)
        }
        return (a, b)
    }

    /// One sector: opened with key A, then key B for the blocks A may not read; how many
    /// AUTHENTICATE commands it took is added to `authentications`.
    public static func read(
        sector s: Int, firstBlock: Int, count: Int, uid: [UInt8], candidates: (a: [[UInt8]], b: [[UInt8]]),
        transmit: ([UInt8]) throws -> [UInt8], reselect: (() throws -> Void)?, authentications: inout Int
    ) throws -> (ClassicCardImage.Sector, String?) {
        var blocks = [[UInt8?]](repeating: [UInt8?](repeating: nil, count: 16), count: count)
        var found: (a: [UInt8]?, b: [UInt8]?) = (nil, nil)
        for keyB in [false, true] {
            guard blocks.contains(where: { $0.contains(nil) }) else { break }
            for key in keyB ? candidates.b : candidates.a {
                authentications += 1
                let frame = ClassicCommand.authenticate(block: UInt8(firstBlock), keyB: keyB, key: key, uid: uid)
                guard try attempt(frame, transmit, reselect) != nil else { continue }
                if keyB { found.b = key } else { found.a = key }
                for i in 0..<count where blocks[i].contains(nil) {
                    guard let data = try attempt(ClassicCommand.read(block: UInt8(firstBlock + i)), transmit, reselect), data.count >= 16
                    else { break }  // a refused READ halts the card: authenticate again with the next key type
                    blocks[i] = data.prefix(16).map { Optional($0) }
                }
                break
            }
        }
        guard found.a != nil || found.b != nil else { return (.locked, "sector \(s): no key opened it") }
        let unread = blocks.indices.filter { blocks[$0].contains(nil) }
        let note =
            unread.isEmpty
            ? nil : "sector \(s): block(s) \(unread.map(String.init).joined(separator: ", ")) not readable with the keys found"
        return (ClassicCardImage.Sector(keyA: found.a, keyB: found.b, blocks: blocks), note)
    }

    /// The answer, or nil when the card refused (a wrong key, an access condition): then the
    /// card is woken again. A card that left is an error.
    static func attempt(_ frame: [UInt8], _ transmit: ([UInt8]) throws -> [UInt8], _ reselect: (() throws -> Void)?) throws -> [UInt8]? {
        do { return try transmit(frame) } catch let e as CardTransportError {
            if case .other = e.failure {
                try reselect?()
                return nil
            }
            guard let reselect else { throw e }
            // Through libnfc a refusal can look like a lost card: it is one only if it does not answer a poll.
            do { try reselect() } catch { throw e }
            return nil
        }
    }
}
