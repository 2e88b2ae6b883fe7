import APDU

/// Metrodroid's ISO 7816 dumps (docs/dump-formats.md §4.2) as a cardscan image: each
/// application a DF with its SFI files, each path file placed in the tree, and the answers to
/// the proprietary commands Metrodroid sent (GET BALANCE, KS X 6924's, GET DATA) kept as the
/// image's fixed answers.
enum MetrodroidISO7816 {
    typealias Node = ISO7816CardImage.Node

    static func image(_ n: JSONNode, options: ImportOptions, warn: (String) -> Void) throws(DumpError) -> ISO7816CardImage {
        var root: [Node] = []
        var answers: [ISO7816CardImage.FixedAnswer] = []
        for app in try n["applications"].items() {
            let pair = try app.items()
            guard pair.count == 2 else { throw app.fail("an application is [type, {generic: …}]") }
            let type = try pair[0].string()
            let object = pair[1], g = pair[1]["generic"]
            var df: Int? = nil
            if g["appName"].exists {
                let name = try g["appName"].hex()
                let fci = g["appFci"].exists ? try g["appFci"].hex() : nil
                // The FCI names the DF in full (tag 84) when Metrodroid selected it by a prefix.
                let full = fci.flatMap(dfName(inFCI:)).flatMap { $0.count > name.count && $0.starts(with: name) ? $0 : nil } ?? name
                if let i = root.firstIndex(where: { $0.aid == full.hexString }) {
                    df = i
                } else {
                    root.append(Node(aid: full.hexString, fci: fci?.hexString, files: []))
                    df = root.count - 1
                }
            }
            if g["sfiFiles"].exists {
                for (key, f) in try g["sfiFiles"].members() {
                    let sfi = try decimalKey(key, 1...31, f, what: "short file identifier")
                    guard sfi <= 30 else {
                        warn("\(f.path): SFI 31 is left out (cardscan images hold SFIs 1…30)")
                        continue
                    }
                    guard let node = try ef(f, sfi: sfi, fid: nil, warn: warn) else { continue }
                    if let df { root[df].files!.append(node) } else { root.append(node) }
                }
            }
            if g["files"].exists {
                for (selector, f) in try g["files"].members() {
                    try place(try elements(selector, f), f, into: &root, warn: warn)
                }
            }
            answers += try extraAnswers(type, object, warn: warn)
        }
        return ISO7816CardImage(atr: options.atr, typeB: options.typeB, files: root, answers: answers.isEmpty ? nil : answers)
    }

    /// An EF from a Metrodroid FILE: records 1, 2, … while contiguous, else its binary data;
    /// nil when it has neither (a file found but not read).
    static func ef(_ f: JSONNode, sfi: Int?, fid: String?, warn: (String) -> Void) throws(DumpError) -> Node? {
        if f["records"].exists {
            var byNumber: [Int: [UInt8]] = [:]
            for (key, r) in try f["records"].members() { byNumber[try decimalKey(key, 1...254, r, what: "record number")] = try r.hex() }
            var records: [String] = []
            while let r = byNumber[records.count + 1] { records.append(r.hexString) }
            if byNumber.count > records.count { warn("\(f.path): records after \(records.count) are not contiguous: left out") }
            if !records.isEmpty { return Node(fid: fid, sfi: sfi, records: records) }
        }
        if f["binaryData"].exists { return Node(fid: fid, sfi: sfi, binary: try f["binaryData"].hex().hexString) }
        return nil
    }

    enum Element: Equatable {
        case fid(UInt16)
        case name([UInt8])
    }

    /// `:2000:2001` or `#315449432e494341:2001` as its elements, a leading `:3f00` dropped.
    static func elements(_ selector: String, _ f: JSONNode) throws(DumpError) -> [Element] {
        var out: [Element] = []
        var rest = Substring(selector)
        while let mark = rest.first {
            rest = rest.dropFirst()
            let text = rest.prefix { $0 != ":" && $0 != "#" }
            rest = rest.dropFirst(text.count)
            switch mark {
            case ":":
                guard let v = UInt16(text, radix: 16) else { throw f.fail("'\(text)' in selector '\(selector)' is not a file identifier") }
                out.append(.fid(v))
            case "#":
                do { out.append(.name(try Hex.parse(text))) } catch { throw f.fail("'\(text)' in selector '\(selector)' is not a DF name") }
            default: throw f.fail("selector '\(selector)' is not :FID or #NAME elements")
            }
        }
        if out.first == .fid(0x3F00) { out.removeFirst() }
        guard !out.isEmpty else { throw f.fail("selector '\(selector)' names no file") }
        return out
    }

    /// Puts the file a path names into `list`, making the DFs on the way.
    static func place(_ path: [Element], _ f: JSONNode, into list: inout [Node], warn: (String) -> Void) throws(DumpError) {
        guard let first = path.first else { return }
        if path.count == 1, case .fid(let id) = first {
            let fid = Hex.format(id)
            guard let node = try ef(f, sfi: nil, fid: fid, warn: warn) else {
                warn("\(f.path): a file selected but not read: left out")
                return
            }
            // The same EF read by its SFI gains its file identifier.
            if let i = list.firstIndex(where: { $0.fid == nil && $0.files == nil && $0.records == node.records && $0.binary == node.binary }
            ) {
                list[i].fid = fid
            } else if !list.contains(where: { $0.fid == fid }) {
                list.append(node)
            }
            return
        }
        let index: Int
        switch first {
        case .name(let name):
            if let i = list.firstIndex(where: { $0.files != nil && ($0.aid.flatMap { try? Hex.parse($0) }?.starts(with: name) ?? false) }) {
                index = i
            } else {
                list.append(Node(aid: name.hexString, files: []))
                index = list.count - 1
            }
        case .fid(let id):
            let fid = Hex.format(id)
            if let i = list.firstIndex(where: { $0.fid == fid && $0.files != nil }) {
                index = i
            } else if path.count == 2, let leaf = try ef(f, sfi: nil, fid: nil, warn: { _ in }),
                let i = list.firstIndex(where: { df in
                    df.fid == nil && (df.files ?? []).contains { $0.records == leaf.records && $0.binary == leaf.binary }
                })
            {
                // The DF read by its name holds the same EF (by its SFI): the path reaches that DF.
                list[i].fid = fid
                index = i
            } else {
                list.append(Node(fid: fid, files: []))
                index = list.count - 1
            }
        }
        try place(Array(path.dropFirst()), f, into: &list[index].files!, warn: warn)
    }

    /// The DF name (tag 84) of an FCI.
    static func dfName(inFCI fci: [UInt8]) -> [UInt8]? {
        guard let node = try? BERTLV.parse(fci) else { return nil }
        return node.first(path: "6F/84")?.value
    }

    /// The answers to the commands Metrodroid sent beside reading files, for its application types.
    static func extraAnswers(_ type: String, _ app: JSONNode, warn: (String) -> Void) throws(DumpError) -> [ISO7816CardImage.FixedAnswer] {
        func answer(_ command: [UInt8], _ data: [UInt8]) -> ISO7816CardImage.FixedAnswer {
            .init(command: command.hexString, response: (data + [0x90, 0x00]).hexString)
        }
        var out: [ISO7816CardImage.FixedAnswer] = []
        switch type {
        case "china":
            for (key, b) in try app["balances"].members() {
                let i = try decimalKey(key, 0...3, b, what: "purse number")
                out.append(answer([0x80, 0x5C, UInt8(i), 0x02, 0x04], try b.hex()))
            }
        case "ksx6924", "tmoney":
            out.append(answer([0x90, 0x4C, 0x00, 0x00, 0x04], try app["balance"].hex()))
            if app["extraRecords"].exists {
                for (i, r) in try app["extraRecords"].items().enumerated() where i <= 0x0F {
                    out.append(answer([0x90, 0x78, UInt8(i), 0x00, 0x10], try r.hex()))
                }
            }
        case "emv-main":
            if app["dataResponse"].exists {
                for (tag, v) in try app["dataResponse"].members() {
                    guard let t = try? Hex.parse(tag), t.count == 2 else { throw v.fail("'\(tag)' is not a 2-byte GET DATA tag") }
                    out.append(answer([0x80, 0xCA, t[0], t[1], 0x00], try v.hex()))
                }
            }
            if app["gpoResponse"].exists {
                warn("\(app.path).gpoResponse: the GET PROCESSING OPTIONS answer is left out (its command depends on the card's PDOL)")
            }
        case "cepas":
            if app["purses"].exists {
                for (key, p) in try app["purses"].members() {
                    let n = try decimalKey(key, 0...255, p, what: "purse number")
                    out.append(answer([0x90, 0x32, UInt8(n), 0x00, 0x00], try p.hex()))
                }
            }
            if app["histories"].exists { warn("\(app.path).histories: the CEPAS history answers are left out") }
        default:
            break
        }
        return out
    }
}
