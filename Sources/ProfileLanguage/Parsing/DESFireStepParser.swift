import DESFireCommands

/// The DESFire steps of a profile (docs/profile-format.md §DESFire steps): `desfire-select` an
/// application (or the first of several the card has), `desfire-read` a file.
enum DESFireStepParser {
    static let actions = ["desfire-select", "desfire-read"]

    static func parse(_ key: String, _ c: Cursor) -> DESFireStep? {
        key == "desfire-select" ? select(c) : read(c)
    }

    static func select(_ c: Cursor) -> DESFireStep? {
        let items = c.oneOrList() ?? []
        var aids: [DESFireAID] = []
        for item in items {
            guard let b = item.hex() else { continue }
            guard let aid = try? DESFireAID(b) else {
                item.issue("a DESFire application ID is 3 bytes as sent after SelectApplication, e.g. 3010F2")
                continue
            }
            aids.append(aid)
        }
        if items.isEmpty { c.issue("the list of application IDs is empty") }
        return aids.isEmpty ? nil : .select(aids)
    }

    static func read(_ c: Cursor) -> DESFireStep? {
        guard let s = c.section(.desfireRead) else { return nil }
        let mode = s["read"].choice(DESFireStep.ReadMode.allCases.map(\.rawValue)).flatMap(DESFireStep.ReadMode.init) ?? .auto
        if s.has("files") {
            if s.has("file") { s["files"].issue("'file' or 'files', not both") }
            let files = (s["files"].sequence() ?? []).compactMap { $0.int(0...31) }.compactMap { try? DESFireFileNumber($0) }
            if files.isEmpty { s["files"].issue("the list of files is empty") }
            if zip(files, files.dropFirst()).contains(where: { $0 >= $1 }) {
                s["files"].issue("the files are read in file-number order: list them so, each once")
            }
            if ![.auto, .data, .value].contains(mode) { s["read"].issue("'files' reads each file whole: read is auto, data or value") }
            for k in ["offset", "length"] where s.has(k) { s[k].issue("'files' reads each file whole") }
            return files.isEmpty ? nil : .readEach(files: DESFireStep.FileSet(files), mode: mode)
        }
        guard let n = s.required("file", "0…31")?.int(0...31), let file = try? DESFireFileNumber(n) else { return nil }
        if [.value, .auto, .settings].contains(mode) {
            for k in ["offset", "length"] where s.has(k) { s[k].issue("offset and length go with read: data or read: records") }
        }
        return .read(file: file, mode: mode, offset: s["offset"].int(0...0xFF_FFFF) ?? 0, length: s["length"].int(0...0xFF_FFFF) ?? 0)
    }
}
