import APDU
import CardReports
import ProfileLanguage

/// What an ISO 7816 card holds that can be read without a key, as an `ISO7816CardImage`:
/// the MF's short-identifier files, then each application a profile knows (SELECT by DF name)
/// (or, failing a name, by its file identifier) with its FCI and its own files. For profile authors, the counterpart of ``FeliCaSurvey``:
/// `cardscan dump --image FILE` writes the image and cardsim serves it.
///
/// Only read commands are sent: SELECT, READ RECORD, READ BINARY (ISO/IEC 7816-4 §11.2.2,
/// §11.4.3, §11.3.3) and the proprietary read commands of the installed profiles that the
/// read-only allow-list accepts. Within a DF, SFIs 1…30 are tried in turn: records 1, 2, … until
/// the card answers `6A 83` (record not found); a file that is not a record file (`69 81`) is
/// read as a transparent EF. A card that stops answering ends the dump with what was read
/// (`partial`).
public struct ISO7816Dump: Sendable {
    /// The image of what was read.
    public var image: ISO7816CardImage
    /// Files the card has but would not let us read, as `"1TIC.ICA SFI 1D: 69 82 …"` lines.
    public var refused: [String] = []
    /// The card stopped answering before the dump ended.
    public var partial = false
    /// Round trips the dump made with the card.
    public var exchanges = 0

    /// At most this many records per file (a card that never answers 6A 83 cannot loop us).
    public static let recordLimit = 255
    /// At most this many bytes of one transparent EF (READ BINARY offsets are 15 bits).
    public static let binaryLimit = 0x8000

    /// The commands an ISO 7816 step of a profile sends first: the SELECTs it tries, or its
    /// one command (a loop of READ RECORDs: none of interest here).
    private static func commands(of step: Step) -> [CommandAPDU] {
        switch step.action {
        case .iso7816(.select(let list)): return list
        case .iso7816(.command(let c, _)): return [c]
        default: return []
        }
    }

    /// The file identifiers of DFs the profiles select by path from the MF or by FID (Opus,
    /// Lisboa: `2000`), for cards that answer no DF name; each once, in order.
    public static func applicationFileIDs(of profiles: [Profile]) -> [UInt16] {
        var ids: [UInt16] = []
        for profile in profiles where profile.technology == .iso7816 {
            for step in profile.steps {
                for c in commands(of: step) where c.ins == 0xA4 && (c.p1 == 0x08 || c.p1 == 0x00) && c.data.count == 2 {
                    let id = UInt16(c.data[0]) << 8 | UInt16(c.data[1])
                    if id != 0x3F00, !ids.contains(id) { ids.append(id) }
                }
            }
        }
        return ids
    }

    /// The DF names to try, from the installed profiles' SELECT steps, each once, in order.
    public static func applicationNames(of profiles: [Profile]) -> [[UInt8]] {
        var names: [[UInt8]] = []
        for profile in profiles where profile.technology == .iso7816 {
            for step in profile.steps {
                for c in commands(of: step) where c.ins == 0xA4 && c.p1 == 0x04 && !c.data.isEmpty && !names.contains(c.data) {
                    names.append(c.data)
                }
            }
        }
        return names
    }

    /// The proprietary read commands of the profiles that select `name` (GET BALANCE and the
    /// like), sent inside that application so their answers join the image's `answers`. (Every
    /// command of a loaded profile has passed its command policy.)
    public static func readCommands(of profiles: [Profile], in name: [UInt8]) -> [CommandAPDU] {
        var found: [CommandAPDU] = []
        for profile in profiles where profile.technology == .iso7816 {
            var inside = false
            for step in profile.steps {
                let sent = commands(of: step)
                if sent.contains(where: { $0.ins == 0xA4 }) {
                    inside = sent.contains { $0.p1 == 0x04 && $0.data == name }
                    continue
                }
                for c in sent where inside && ![0xB0, 0xB2, 0xC0].contains(c.ins) && !found.contains(c) {
                    found.append(c)
                }
            }
        }
        return found
    }

    /// The DF name an FCI gives in tag 84 (ISO/IEC 7816-4 §7.4.1), if it has one.
    static func dfName(inFCI fci: [UInt8]) -> [UInt8]? { (try? BERTLV.parse(fci))?.first(path: "6F/84")?.value }

    /// Dumps the card: `atr` and `typeB` as the reader saw it, `names` the DF names to try
    /// (``applicationNames(of:)``), `commands` the proprietary reads for a DF name
    /// (``readCommands(of:in:)``). Returns the dump and, when the card failed on the way, the
    /// error (the dump is then `partial` and holds what was read before).
    public static func run(
        exchange: CardExchange, atr: [UInt8], typeB: Bool, names: [[UInt8]], fileIDs: [UInt16] = [],
        commands: ([UInt8]) -> [CommandAPDU] = { _ in [] }
    ) -> (ISO7816Dump, Error?) {
        var walker = Walker(exchange: exchange)
        var files: [ISO7816CardImage.Node] = []
        var answers: [ISO7816CardImage.FixedAnswer] = []
        var failure: Error?
        let start = exchange.roundTrips
        do {
            // Each file goes into the image as it is read, so a card that fails part-way
            // leaves what was read before in the dump.
            // The MF first, by its identifier: a connection does not reset the card, so the
            // current DF may be whatever the last program (or read) selected. A card with no
            // MF to select is read where it stands.
            _ = try walker.send(CommandAPDU.select(fileID: 0x3F00))
            try walker.shortFiles(in: "MF", into: &files)
            for name in names {
                let select = try walker.send(CommandAPDU.select(aid: name))
                guard select.statusWord.isSuccess else { continue }
                let label = printable(name)
                // The FCI names the DF in full (tag 84) when we selected it by a prefix.
                let fullName = dfName(inFCI: select.data) ?? name
                if files.contains(where: { $0.aid == fullName.hexString }) { continue }
                files.append(
                    ISO7816CardImage.Node(aid: fullName.hexString, fci: select.data.isEmpty ? nil : select.data.hexString, files: []))
                try walker.shortFiles(in: label, into: &files[files.count - 1].files!)
                for command in commands(name) {
                    let answer = try walker.send(command)
                    guard answer.statusWord.isSuccess, !answers.contains(where: { $0.command == command.hexForImage }) else { continue }
                    answers.append(
                        .init(
                            command: command.hexForImage,
                            response: (answer.data + [answer.statusWord.sw1, answer.statusWord.sw2]).hexString))
                }
            }
            // Files the profiles select by file identifier (a DF no name reached, an EF such as
            // Lisboa's ID file 0003): by path from the MF. An EF already read by its SFI, or a
            // DF already read by its name, gains its FID.
            for id in fileIDs {
                let select = try walker.send(CommandAPDU.select(path: [id]))
                guard select.statusWord.isSuccess else { continue }
                let fid = Hex.format(id)
                let (probe, records) = try walker.records(sfi: nil)
                if probe.statusWord.isSuccess {
                    let texts = records.map(\.hexString)
                    if let i = files.firstIndex(where: { $0.records == texts && $0.fid == nil }) {
                        files[i].fid = fid
                    } else if !files.contains(where: { $0.fid == fid }) {
                        files.append(ISO7816CardImage.Node(fid: fid, records: texts))
                    }
                    continue
                }
                let named = dfName(inFCI: select.data)
                if let named, let i = files.firstIndex(where: { $0.aid == named.hexString }) {
                    if files[i].fid == nil, !files.contains(where: { $0.fid == fid }) { files[i].fid = fid }
                    continue
                }
                if files.contains(where: { $0.fid == fid }) { continue }
                files.append(
                    ISO7816CardImage.Node(
                        fid: fid, aid: named?.hexString, fci: select.data.isEmpty ? nil : select.data.hexString, files: []))
                try walker.shortFiles(in: "DF \(fid)", into: &files[files.count - 1].files!)
            }
        } catch {
            failure = error
        }
        var dump = ISO7816Dump(
            image: ISO7816CardImage(
                note: "written by cardscan dump", atr: atr, typeB: typeB, classes: [walker.cla], files: files,
                answers: answers.isEmpty ? nil : answers))
        dump.refused = walker.refused
        dump.partial = failure != nil
        dump.exchanges = exchange.roundTrips - start
        return (dump, failure)
    }

    /// A DF name as text when it is printable ASCII (`1TIC.ICA`), else hex.
    public static func printable(_ name: [UInt8]) -> String {
        name.allSatisfy({ (0x20...0x7E).contains($0) }) ? String(decoding: name, as: UTF8.self) : name.hexString
    }

    /// The class in use and the files walked; CLA 00 first, 94 (Calypso) when 00 is refused.
    struct Walker {
        let exchange: CardExchange
        var cla: UInt8 = 0x00
        var refused: [String] = []

        /// Sends `command`, in the card's class when it is an interindustry one (CLA 00);
        /// proprietary commands keep their own.
        mutating func send(_ command: CommandAPDU) throws -> ResponseAPDU {
            guard command.cla == 0x00 else { return try exchange.send(command) }
            var c = command
            c.cla = cla
            let answer = try exchange.send(c)
            if answer.statusWord == .classNotSupported, cla == 0x00 {
                cla = 0x94
                c.cla = cla
                return try exchange.send(c)
            }
            return answer
        }

        /// SFIs 1…30 of the current DF (record files, then transparent ones), appended to `nodes`
        /// one by one as each is read.
        mutating func shortFiles(in where_: String, into nodes: inout [ISO7816CardImage.Node]) throws {
            for sfi in UInt8(1)...30 {
                let (first, records) = try self.records(sfi: sfi)
                let sw = first.statusWord
                if sw.isSuccess {
                    nodes.append(ISO7816CardImage.Node(sfi: Int(sfi), records: records.map(\.hexString)))
                } else if sw == StatusWord(0x6981) || sw == StatusWord(0x6986) {
                    // Not a record file: read it as a transparent EF.
                    if let bytes = try readBinary(sfi: sfi, in: where_) {
                        nodes.append(ISO7816CardImage.Node(sfi: Int(sfi), binary: bytes.hexString))
                    }
                } else if sw == StatusWord(0x6982) || sw == StatusWord(0x6985) {
                    refused.append("\(where_) SFI \([sfi].hexString): \(sw)")
                }
            }
        }

        /// Records 1, 2, … of an EF (by SFI, or the current one) until the card refuses one,
        /// and the answer to record 1 (which says why, when there is none).
        mutating func records(sfi: UInt8?) throws -> (first: ResponseAPDU, records: [[UInt8]]) {
            let first = try readRecord(1, sfi: sfi)
            guard first.statusWord.isSuccess else { return (first, []) }
            var records = [first.data]
            for number in 2...ISO7816Dump.recordLimit {
                let r = try readRecord(UInt8(number), sfi: sfi)
                guard r.statusWord.isSuccess else { break }
                records.append(r.data)
            }
            return (first, records)
        }

        /// READ RECORD with Le 00; an empty `90 00` is asked again with Le 1D (Calypso's
        /// 29-byte records, docs/cards/calypso.md).
        mutating func readRecord(_ number: UInt8, sfi: UInt8?) throws -> ResponseAPDU {
            let answer = try send(CommandAPDU.readRecord(number, sfi: sfi))
            guard answer.statusWord.isSuccess, answer.data.isEmpty else { return answer }
            return try send(CommandAPDU.readRecord(number, sfi: sfi, length: 0x1D))
        }

        /// The whole transparent EF: the first 256 bytes through its SFI, then by offset.
        mutating func readBinary(sfi: UInt8, in where_: String) throws -> [UInt8]? {
            let first = try send(CommandAPDU.readBinary(sfi: sfi))
            guard first.statusWord.isSuccess else {
                if first.statusWord == StatusWord(0x6982) {
                    refused.append("\(where_) SFI \([sfi].hexString): \(first.statusWord)")
                }
                return nil
            }
            var bytes = first.data
            while bytes.count % 256 == 0, !bytes.isEmpty, bytes.count < ISO7816Dump.binaryLimit {
                let more = try send(CommandAPDU.readBinary(offset: bytes.count))
                guard more.statusWord.isSuccess, !more.data.isEmpty else { break }
                bytes += more.data
            }
            return bytes
        }
    }
}

extension CommandAPDU {
    /// The command as an image's `answers` line: its encoding in spaced hex.
    fileprivate var hexForImage: String { ((try? encoded()) ?? []).hexString }
}
