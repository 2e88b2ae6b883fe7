import APDU
import DESFireCommands

/// An ISO 7816 card played from a card image (what cardsim serves; no I/O here) (`ISO7816CardImage`): a file system that
/// answers SELECT, READ BINARY and READ RECORD the way a card does (ISO/IEC 7816-4 §11.1–11.3),
/// plus the image's fixed answers to proprietary commands.
///
/// - SELECT: by FID (P1 00: a child of the current DF, the current DF, its parent or a
///   child of the parent; 3F00 or no data: the MF), child DF (01), EF (02), parent (03), DF name (04,
///   right-truncated names match; P2 …10 asks for the next occurrence), path from the MF
///   (08) or from the current DF (09). P2 00 answers the FCI, 04 the FCP, 0C nothing.
/// - READ BINARY: current EF (15-bit offset) or SFI (P1 1xxxxxxx); past the end `6B 00`;
///   fewer bytes left than Le `62 82` with what there is.
/// - READ RECORD: by number (P2 …100), all from P1 (…101), first/last/next/previous
///   (…000/001/010/011); from the current EF (SFI 0) or by SFI; `6A 83` for no such record.
/// - Le shorter than the answer: `6C xx`, the right length (READ BINARY excepted: it is a
///   window on the file). No file: `6A 82`; no current EF: `69 86`; a READ of the wrong kind
///   of EF: `69 81`; a class the card does not take: `6E 00`; an unknown INS: `6D 00`.
public final class ISO7816ImageCard {
    typealias File = ISO7816CardImage.File

    /// The checked image the card serves: ATR, classes, file system and fixed answers; never changed.
    public let contents: ISO7816CardImage.Contents
    /// The current DF as a path of child indexes from the MF.
    private var dfPath: [Int] = []
    /// The current EF: its index in the current DF.
    private var ef: Int?
    private var recordPointer: Int?

    /// A card serving `contents`, with the MF selected and no current EF.
    public init(_ contents: ISO7816CardImage.Contents) { self.contents = contents }

    /// Power-on or reset: the MF is selected, no EF.
    public func reset() {
        dfPath = []
        ef = nil
        recordPointer = nil
    }

    private func df(at path: [Int]) -> File {
        var f = contents.root
        for i in path { f = f.children[i] }
        return f
    }

    private var currentDF: File { df(at: dfPath) }

    /// The card's answer to one command APDU (data and status word).
    public func respond(_ bytes: [UInt8]) -> [UInt8] {
        for a in contents.answers where a.command.count == bytes.count {
            if zip(a.command, bytes).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) { return a.response }
        }
        guard let c = try? CommandAPDU(bytes: bytes) else { return [0x67, 0x00] }
        if !contents.classes.contains(c.cla) {
            return contents.classes.contains(c.cla & 0xFC) ? [0x68, 0x81] : [0x6E, 0x00]
        }
        switch c.ins {
        case 0xA4: return select(c)
        case 0xB0: return readBinary(c)
        case 0xB2: return readRecord(c)
        default: return [0x6D, 0x00]
        }
    }

    // MARK: SELECT

    private func select(_ c: CommandAPDU) -> [UInt8] {
        let data = c.data
        guard [0x00, 0x04, 0x08, 0x0C].contains(c.p2 & 0x0C), c.p2 & 0xF0 == 0 else { return [0x6A, 0x86] }
        var target: (df: [Int], ef: Int?)?
        switch c.p1 {
        case 0x00:
            if data.isEmpty || data == [0x3F, 0x00] {
                target = ([], nil)
            } else {
                guard data.count == 2 else { return [0x67, 0x00] }
                target = byFID(UInt16(data[0]) << 8 | UInt16(data[1]))
            }
        case 0x01, 0x02:
            guard data.count == 2 else { return [0x67, 0x00] }
            let fid = UInt16(data[0]) << 8 | UInt16(data[1])
            if let i = currentDF.children.firstIndex(where: { $0.fid == fid && $0.isDirectory == (c.p1 == 0x01) }) {
                target = c.p1 == 0x01 ? (dfPath + [i], nil) : (dfPath, i)
            }
        case 0x03:
            guard !dfPath.isEmpty else { return [0x6A, 0x82] }
            target = (Array(dfPath.dropLast()), nil)
        case 0x04:
            guard (1...16).contains(data.count) else { return [0x67, 0x00] }
            let next = c.p2 & 0x03 == 0x02
            guard c.p2 & 0x03 == 0 || next else { return [0x6A, 0x86] }
            let matches = namedDFs().filter { $0.name.starts(with: data) }
            var pick = matches.first
            if next, let here = matches.firstIndex(where: { $0.path == dfPath }) {
                pick = here + 1 < matches.count ? matches[here + 1] : nil
            }
            target = pick.map { ($0.path, nil) }
        case 0x08, 0x09:
            guard !data.isEmpty, data.count % 2 == 0 else { return [0x67, 0x00] }
            var fids = stride(from: 0, to: data.count, by: 2).map { UInt16(data[$0]) << 8 | UInt16(data[$0 + 1]) }
            var path = c.p1 == 0x08 ? [Int]() : dfPath
            if c.p1 == 0x08, fids.first == 0x3F00 { fids.removeFirst() }
            var efIndex: Int?
            for (k, fid) in fids.enumerated() {
                guard efIndex == nil, let i = df(at: path).children.firstIndex(where: { $0.fid == fid }) else { return [0x6A, 0x82] }
                if df(at: path).children[i].isDirectory {
                    path.append(i)
                } else if k == fids.count - 1 {
                    efIndex = i
                } else {
                    return [0x6A, 0x82]
                }
            }
            target = (path, efIndex)
        default:
            return [0x6A, 0x86]
        }
        guard let target else { return [0x6A, 0x82] }
        dfPath = target.df
        ef = target.ef
        recordPointer = nil
        if c.p2 & 0x0C == 0x0C { return [0x90, 0x00] }
        let file = target.ef.map { currentDF.children[$0] } ?? currentDF
        return answer(file.controlInformation(fcp: c.p2 & 0x0C == 0x04), le: c.le)
    }

    /// P1 00: a child of the current DF, the current DF itself, its parent, or a child of the
    /// parent.
    private func byFID(_ fid: UInt16) -> (df: [Int], ef: Int?)? {
        let here = currentDF
        if let i = here.children.firstIndex(where: { $0.fid == fid }) {
            return here.children[i].isDirectory ? (dfPath + [i], nil) : (dfPath, i)
        }
        if here.fid == fid { return (dfPath, nil) }
        guard !dfPath.isEmpty else { return nil }
        let parentPath = Array(dfPath.dropLast())
        let parent = df(at: parentPath)
        if parent.fid == fid { return (parentPath, nil) }
        // An immediate child of the parent DF (ISO/IEC 7816-4 §7.1.1): a sibling DF, or an EF
        // of the parent (Calypso's ID file 0003 beside the ticketing DF 2000).
        if let i = parent.children.firstIndex(where: { $0.fid == fid }) {
            return parent.children[i].isDirectory ? (parentPath + [i], nil) : (parentPath, i)
        }
        return nil
    }

    /// Every DF with a name, in document order, with its path.
    private func namedDFs() -> [(path: [Int], name: [UInt8])] {
        var out: [(path: [Int], name: [UInt8])] = []
        func walk(_ f: File, _ path: [Int]) {
            if let n = f.dfName { out.append((path, n)) }
            for (i, c) in f.children.enumerated() where c.isDirectory { walk(c, path + [i]) }
        }
        walk(contents.root, [])
        return out
    }

    // MARK: READ BINARY, READ RECORD

    private enum Either {
        case file(File)
        case status([UInt8])
    }

    /// The EF a read names: by SFI in the current DF (it becomes the current EF), or the current one.
    private func target(sfi: UInt8) -> Either {
        if sfi == 0 {
            guard let ef else { return .status([0x69, 0x86]) }
            return .file(currentDF.children[ef])
        }
        guard let i = currentDF.children.firstIndex(where: { $0.sfi == sfi }) else { return .status([0x6A, 0x82]) }
        if ef != i { recordPointer = nil }
        ef = i
        return .file(currentDF.children[i])
    }

    private func readBinary(_ c: CommandAPDU) -> [UInt8] {
        let bySFI = c.p1 & 0x80 != 0
        guard !bySFI || c.p1 & 0x60 == 0 else { return [0x6A, 0x86] }
        let offset = bySFI ? Int(c.p2) : Int(c.p1 & 0x7F) << 8 | Int(c.p2)
        switch target(sfi: bySFI ? c.p1 & 0x1F : 0) {
        case .status(let sw): return sw
        case .file(let file):
            guard case .binary(let content) = file.kind else { return [0x69, 0x81] }
            guard offset < content.count else { return [0x6B, 0x00] }
            let wanted = c.le ?? 256
            let end = min(content.count, offset + wanted)
            return Array(content[offset..<end]) + (end - offset < wanted && c.le != nil && c.le != 256 ? [0x62, 0x82] : [0x90, 0x00])
        }
    }

    private func readRecord(_ c: CommandAPDU) -> [UInt8] {
        let sfi = c.p2 >> 3
        let mode = c.p2 & 0x07
        guard sfi != 0x1F, mode != 0x07 else { return [0x6A, 0x86] }
        switch target(sfi: sfi) {
        case .status(let sw): return sw
        case .file(let file):
            guard case .records(let records) = file.kind else { return [0x69, 0x81] }
            let p1 = Int(c.p1)
            func one(_ n: Int) -> [UInt8] {
                guard n >= 1, n <= records.count else { return [0x6A, 0x83] }
                recordPointer = n
                return answer(records[n - 1], le: c.le)
            }
            switch mode {
            case 0x04: return one(p1 == 0 ? (recordPointer ?? 0) : p1)
            case 0x05, 0x06:
                let n = p1 == 0 ? (recordPointer ?? 0) : p1
                guard n >= 1, n <= records.count else { return [0x6A, 0x83] }
                let order = mode == 0x05 ? Array(records[(n - 1)...]) : Array(records[(n - 1)...].reversed())
                let room = c.le ?? 256
                var out: [UInt8] = []
                for r in order where out.count + r.count <= room { out += r }
                guard !out.isEmpty else { return [0x6C, UInt8(truncatingIfNeeded: order[0].count)] }
                return out + [0x90, 0x00]
            default:
                guard p1 == 0 else { return [0x6A, 0x86] }
                switch mode {
                case 0x00: return one(1)
                case 0x01: return one(records.count)
                case 0x02: return one((recordPointer ?? 0) + 1)
                default: return one((recordPointer ?? records.count + 1) - 1)
                }
            }
        }
    }

    /// Data with 90 00, or `6C xx` when Le asks for fewer bytes than the answer has.
    private func answer(_ data: [UInt8], le: Int?) -> [UInt8] {
        if let le, le < data.count { return [0x6C, UInt8(truncatingIfNeeded: data.count)] }
        return data + [0x90, 0x00]
    }
}

extension ISO7816CardImage.File {
    var isDirectory: Bool { if case .directory = kind { return true } else { return false } }

    /// What SELECT answers: a DF's own FCI (or `6F <84 name>` / `6F <83 fid>`), an EF's FCP
    /// (`62 <82 descriptor> <83 fid> <80 size>`), ISO/IEC 7816-4 §7.4.
    func controlInformation(fcp: Bool) -> [UInt8] {
        func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] { [tag, UInt8(value.count)] + value }
        let fidTLV = fid.map { tlv(0x83, [UInt8($0 >> 8), UInt8($0 & 0xFF)]) } ?? []
        switch kind {
        case .directory(let name, let fci, _):
            if let fci, !fcp { return fci }
            return tlv(fcp ? 0x62 : 0x6F, tlv(0x82, [0x38]) + fidTLV + (name.map { tlv(0x84, $0) } ?? []))
        case .records(let records):
            let longest = records.map(\.count).max() ?? 0
            return tlv(0x62, tlv(0x82, [0x02, 0x21, 0x00, UInt8(longest), UInt8(records.count)]) + fidTLV)
        case .binary(let content):
            return tlv(0x62, tlv(0x82, [0x01]) + fidTLV + tlv(0x80, [UInt8(content.count >> 8), UInt8(content.count & 0xFF)]))
        }
    }
}
