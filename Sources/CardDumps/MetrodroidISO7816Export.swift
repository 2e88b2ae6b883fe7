import APDU
import CardReports
import Foundation

/// An ISO 7816 image as Metrodroid's `iso7816` object (docs/dump-formats.md §4.2): one
/// application per named DF with its SFI files, every file with a file identifier also under
/// `files` by its path from the MF.
enum MetrodroidISO7816Export {
    typealias Node = ISO7816CardImage.Node

    static func json(_ image: ISO7816CardImage) -> JSONValue {
        var apps: [JSONValue] = []
        for df in image.files where df.files != nil && df.aid != nil {
            let name = (try? Hex.parse(df.aid ?? "")) ?? []
            var generic: [(String, JSONValue)] = [("appName", DumpExport.hex(name))]
            if let fci = df.fci.flatMap({ try? Hex.parse($0) }) { generic.append(("appFci", DumpExport.hex(fci))) }
            let sfi: [(String, JSONValue)] = (df.files ?? []).compactMap { f in f.sfi.flatMap { s in file(f).map { (String(s), $0) } } }
            var paths: [(String, JSONValue)] = []
            collect(df.files ?? [], prefix: df.fid.map { ":" + fidText($0) } ?? "#" + name.compactHex.lowercased(), into: &paths)
            generic.append(("files", .object(paths)))
            generic.append(("sfiFiles", .object(sfi)))
            // A type Metrodroid knows (it has no generic one): Calypso by its DF name, else the neutral carrier.
            let calypso = String(decoding: name, as: UTF8.self).hasPrefix("1TIC.ICA") || name.starts(with: [0xA0, 0x00, 0x00, 0x04, 0x04])
            apps.append(.array([.string(calypso ? "calypso" : "androidhce"), .object([("generic", .object(generic))])]))
        }
        // The MF's own files, as an application without a name.
        let top: [(String, JSONValue)] = image.files.compactMap { f in
            f.files == nil ? f.sfi.flatMap { s in file(f).map { (String(s), $0) } } : nil
        }
        if !top.isEmpty {
            apps.append(
                .array([.string("androidhce"), .object([("generic", .object([("files", .object([])), ("sfiFiles", .object(top))]))])]))
        }
        return .object([("applications", .array(apps))])
    }

    /// Metrodroid's selector spelling of a file identifier: lowercase, no leading zeros.
    static func fidText(_ fid: String) -> String {
        String(UInt16(fid.replacingOccurrences(of: " ", with: ""), radix: 16) ?? 0, radix: 16)
    }

    static func collect(_ nodes: [Node], prefix: String, into out: inout [(String, JSONValue)]) {
        for n in nodes {
            guard let fid = n.fid else { continue }
            let path = prefix + ":" + fidText(fid)
            if let children = n.files {
                collect(children, prefix: path, into: &out)
            } else if let f = file(n) {
                out.append((path, f))
            }
        }
    }

    /// An EF as a Metrodroid FILE.
    static func file(_ n: Node) -> JSONValue? {
        if let records = n.records {
            let list: [(String, JSONValue)] = records.enumerated().map { (String($0 + 1), DumpExport.hex((try? Hex.parse($1)) ?? [])) }
            return .object([("records", .object(list))])
        }
        if let b = n.binary { return .object([("binaryData", DumpExport.hex((try? Hex.parse(b)) ?? []))]) }
        return nil
    }
}
