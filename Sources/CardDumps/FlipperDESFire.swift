import APDU
import DESFireCommands

/// The DESFire part of a Flipper `.nfc` file (docs/dump-formats.md §7): the PICC's version, the
/// applications (wire-order AIDs, lowercase in the keys' prefixes) and each file's settings as
/// separate lines, its data under the bare prefix when it was read.
enum FlipperDESFire {
    static func image(_ f: FlipperFile, warn: (String) -> Void) throws(DumpError) -> DESFireCardImage {
        let version = try f.hex("PICC Version", count: 28)
        var apps: [DESFireCardImage.Application] = []
        let ids = f.has("Application IDs") ? try f.hex("Application IDs") : []
        guard ids.count % 3 == 0 else { throw f.fail("Application IDs", "\(ids.count) bytes: AIDs are 3 bytes each") }
        for i in stride(from: 0, to: ids.count, by: 3) {
            let aid = Array(ids[i..<(i + 3)])
            let prefix = "Application \(aid.compactHex.lowercased())"
            guard f.has("\(prefix) File IDs") else {
                apps.append(.init(aid: aid.compactHex, filesLocked: true, files: []))
                warn("\(prefix): no file list (its key settings needed a key): no files")
                continue
            }
            var files: [DESFireCardImage.File] = []
            for id in try f.hex("\(prefix) File IDs") {
                guard id < 32 else { throw f.fail("\(prefix) File IDs", "file \(id) is past 31") }
                files.append(try file(f, "\(prefix) File \(id)", id: Int(id)))
            }
            apps.append(.init(aid: aid.compactHex, files: files))
        }
        // Flipper's ATS starts with its length byte TL; the image's does not.
        var ats = DESFireCardImage.defaultATS
        if f.has("ATS") {
            let bytes = try f.hex("ATS")
            guard let tl = bytes.first, Int(tl) == bytes.count, tl >= 2 else {
                throw f.fail("ATS", "its first byte TL is the ATS's length, \(bytes.count), with T0 after it")
            }
            ats = Array(bytes.dropFirst())
        } else {
            warn("ATS is not in the dump: a DESFire EV1's, \(ats.hexString)")
        }
        let uid = try f.hex("UID")
        // The image names only what differs from a DESFire EV1's answers for its UID size.
        let defaultATQA: [UInt8] = uid.count == 4 ? [0x03, 0x04] : DESFireCardImage.defaultATQA
        let atqa = try f.atqa(), sak = try f.hex("SAK", count: 1)[0]
        return DESFireCardImage(
            atqa: atqa == defaultATQA ? nil : atqa.hexString, sak: sak == DESFireCardImage.defaultSAK ? nil : [sak].hexString,
            ats: ats == DESFireCardImage.defaultATS ? nil : ats.hexString, uid: uid.hexString, version: version.hexString,
            applications: apps)
    }

    /// One file from its lines: type, access rights, sizes, and the data when it was read.
    static func file(_ f: FlipperFile, _ p: String, id: Int) throws(DumpError) -> DESFireCardImage.File {
        let typeByte = try f.hex("\(p) Type", count: 1)[0]
        guard let type = DESFireFileSettings.FileType(rawValue: typeByte) else { throw f.fail("\(p) Type", "\(typeByte) is not 00…04") }
        let rights = try f.hex("\(p) Access Rights")
        guard rights.count >= 2, rights.count % 2 == 0 else { throw f.fail("\(p) Access Rights", "2 bytes per set of rights") }
        let access = DESFireFileSettings.AccessRights(rights[0], rights[1])
        let sizes: DESFireFileSettings.Sizes
        switch type {
        case .standard, .backup: sizes = .data(size: try f.int("\(p) Size"))
        case .linearRecord, .cyclicRecord:
            sizes = .records(recordSize: try f.int("\(p) Size"), maxRecords: try f.int("\(p) Max"), currentRecords: try f.int("\(p) Cur"))
        case .value:
            let enabledKey = "\(p) Limited Credit Enabled"
            let enabled = f.has(enabledKey) ? try f.string(enabledKey) == "true" : false
            // Written as unsigned numbers: back to the signed 32 bits they are.
            func i32(_ key: String) throws(DumpError) -> Int32 { Int32(truncatingIfNeeded: try f.int(key)) }
            sizes = .value(
                lower: try i32("\(p) Lo Limit"), upper: try i32("\(p) Hi Limit"), limitedCredit: try i32("\(p) Limited Credit Value"),
                limitedCreditEnabled: enabled)
        }
        let settings = DESFireFileSettings(type: type, communication: .plain, access: access, sizes: sizes)
        if let problem = DESFireFileMapping.sizeProblem(settings) { throw f.fail("\(p) Size", problem) }
        let content = f.has(p) ? try f.hex(p) : nil
        return DESFireFileMapping.file(id: id, settings: settings, content: content)
    }
}
