import APDU
import DESFireCommands
import Yams

/// A DESFire step (docs/profile-format.md §DESFire steps): select an application, or read a
/// file's data, records or value — chosen from the file's settings, or declared.
public enum DESFireStep: Sendable {
    /// The first of these applications the card has (HSL: version 2, else version 1).
    case select([DESFireAID])
    case read(file: DESFireFileNumber, mode: ReadMode, offset: Int, length: Int)
    /// Several files, each read whole; the answer is their contents as records, in file-number
    /// order (Adelaide keeps one trip per file). Files the card refuses are left out.
    case readEach(files: FileSet, mode: ReadMode)

    /// A set of a card application's files (0…31) as one 32-bit mask: a value without storage
    /// of its own, listed in file-number order.
    public struct FileSet: Sendable, Equatable, Sequence {
        public private(set) var mask: UInt32 = 0
        public init(_ files: [DESFireFileNumber]) { for f in files { mask |= 1 << UInt32(f.value) } }
        public var isEmpty: Bool { mask == 0 }
        public func makeIterator() -> some IteratorProtocol<DESFireFileNumber> {
            (0..<32).lazy.filter { mask & (1 << UInt32($0)) != 0 }.compactMap { try? DESFireFileNumber($0) }.makeIterator()
        }
    }

    /// How a file is read: `auto` asks GetFileSettings first (one more exchange) and reads the
    /// way the file's type says; the others say it in the profile. `settings` reads no content:
    /// the answer is the file's settings (type, access rights, sizes or value limits — a value
    /// file's limited-credit value is Intercard's last transaction; a file that needs a key
    /// still shows its settings).
    public enum ReadMode: String, Sendable, CaseIterable {
        case auto, data, records, value, settings
    }

    var declaredLength: Int? {
        if case .read(_, .value, _, _) = self { return 4 }
        if case .read(_, .data, _, let length) = self, length > 0 { return length }
        return nil
    }

    var isRecords: Bool {
        switch self {
        case .read(_, .records, _, _), .readEach: return true
        default: return false
        }
    }
}

enum DESFireStepParser {
    static let actions = ["desfire-select", "desfire-read"]

    static func parse(_ key: String, _ node: Node, _ apath: String, _ r: YAMLReader) -> DESFireStep? {
        switch key {
        case "desfire-select":
            // One application ID, or a list tried in order until the card has one.
            var aids: [DESFireAID] = []
            for (i, item) in (r.list(node, apath) ?? []).enumerated() {
                let p = node.sequence == nil ? apath : "\(apath)[\(i)]"
                guard let b = r.hex(item, p) else { continue }
                guard let aid = try? DESFireAID(b) else {
                    r.issue(item, p, "a DESFire application ID is 3 bytes as sent after SelectApplication, e.g. 3010F2")
                    continue
                }
                aids.append(aid)
            }
            if aids.isEmpty {
                if node.sequence?.isEmpty == true { r.issue(node, apath, "the list of application IDs is empty") }
                return nil
            }
            return .select(aids)
        case "desfire-read":
            guard let m = r.mapping(node, apath, allowed: ["file", "files", "read", "offset", "length"]) else { return nil }
            let g = { (k: String) in m.node(k) }
            var mode = DESFireStep.ReadMode.auto
            if let t = r.string(g("read"), "\(apath).read") {
                guard let m = DESFireStep.ReadMode(rawValue: t) else {
                    r.issue(g("read"), "\(apath).read", "read is auto, data, records, value or settings, not '\(t)'")
                    return nil
                }
                mode = m
            }
            if let list = g("files") {
                if g("file") != nil { r.issue(list, "\(apath).files", "'file' or 'files', not both") }
                var files: [DESFireFileNumber] = []
                for (i, n) in (r.list(list, "\(apath).files") ?? []).enumerated() {
                    if let v = r.int(n, "\(apath).files[\(i)]", range: 0...31), let f = try? DESFireFileNumber(v) { files.append(f) }
                }
                if files.isEmpty { r.issue(list, "\(apath).files", "the list of files is empty") }
                if zip(files, files.dropFirst()).contains(where: { $0 >= $1 }) {
                    r.issue(list, "\(apath).files", "the files are read in file-number order: list them so, each once")
                }
                if ![.auto, .data, .value].contains(mode) {
                    r.issue(g("read"), "\(apath).read", "'files' reads each file whole: read is auto, data or value")
                }
                if g("offset") != nil || g("length") != nil { r.issue(g("offset") ?? g("length"), apath, "'files' reads each file whole") }
                return files.isEmpty ? nil : .readEach(files: DESFireStep.FileSet(files), mode: mode)
            }
            if g("file") == nil { r.issue(node, "\(apath).file", "required key 'file' is missing (0…31)") }
            guard let n = r.int(g("file"), "\(apath).file", range: 0...31), let file = try? DESFireFileNumber(n) else { return nil }
            let offset = r.int(g("offset"), "\(apath).offset", range: 0...0xFF_FFFF) ?? 0
            let length = r.int(g("length"), "\(apath).length", range: 0...0xFF_FFFF) ?? 0
            if mode == .value || mode == .auto || mode == .settings, g("offset") != nil || g("length") != nil {
                r.issue(g("offset") ?? g("length"), apath, "offset and length go with read: data or read: records")
            }
            return .read(file: file, mode: mode, offset: offset, length: length)
        default:
            return nil
        }
    }
}
