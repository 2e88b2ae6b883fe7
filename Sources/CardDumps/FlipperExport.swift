import APDU
import DESFireCommands
import FeliCaCommands
import Foundation

/// cardscan images as Flipper Zero `.nfc` files (docs/dump-formats.md §7): file version 4,
/// data format 2, keys in the order Flipper's loader looks for them.
enum FlipperExport {
    typealias Refusal = DumpExport.Refusal

    static func header(_ device: String, uid: [UInt8], atqa: [UInt8], sak: UInt8) -> [String] {
        [
            "Filetype: Flipper NFC device", "Version: 4", "# Written by cardscan export", "Device type: \(device)",
            "UID: \(uid.hexString)", "ATQA: \(atqa.hexString)", "SAK: \([sak].hexString)",
        ]
    }

    /// Spaced hex, `??` for an unknown byte.
    static func text(_ b: [UInt8?]) -> String { b.map { $0.map { [$0].hexString } ?? "??" }.joined(separator: " ") }

    static func classic(_ image: ClassicCardImage) throws(Refusal) -> String {
        let c = try DumpExport.checked { try image.contents() }
        let names: [ClassicCardImage.Kind: String] = [.mini: "MINI", .k1: "1K", .k2: "Plus 2K", .k4: "4K"]
        var lines = header("Mifare Classic", uid: c.uid, atqa: c.atqa, sak: c.sak)
        lines += ["Mifare Classic type: \(names[c.kind]!)", "Data format version: 2"]
        var block = 0
        for (n, s) in c.sectors.enumerated() {
            let count = ClassicCardImage.Kind.blocks(inSector: n)
            for i in 0..<count {
                var bytes = s?.blocks[i] ?? [UInt8?](repeating: nil, count: 16)
                if let s, i == count - 1 { bytes = ClassicTrailer.merge(bytes, keyA: s.keyA, keyB: s.keyB) }
                lines.append("Block \(block): \(text(bytes))")
                block += 1
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func ultralight(_ image: UltralightCardImage) throws(Refusal) -> String {
        let c = try DumpExport.checked { try image.contents() }
        let names: [UltralightCardImage.Model: String] = [
            .ultralight: "Mifare Ultralight", .ultralightEV1_11: "Mifare Ultralight 11", .ultralightEV1_21: "Mifare Ultralight 21",
            .ntag203: "NTAG203", .ntag213: "NTAG213", .ntag215: "NTAG215", .ntag216: "NTAG216",
        ]
        guard let name = names[c.model] else { throw Refusal(reason: "Flipper has no type for a \(c.model.rawValue)") }
        var lines = header("NTAG/Ultralight", uid: c.uid, atqa: c.atqa, sak: c.sak)
        lines += [
            "Data format version: 2", "NTAG/Ultralight type: \(name)",
            "Signature: \((c.signature ?? [UInt8](repeating: 0, count: 32)).hexString)",
            "Mifare version: \((c.version ?? [UInt8](repeating: 0, count: 8)).hexString)",
        ]
        let counters = c.counters ?? [0, 0, 0]
        for i in 0..<3 { lines += ["Counter \(i): \(counters[i])", "Tearing \(i): 00"] }
        // Flipper marks no unknown byte: the pages read are those before the first unknown one.
        let read = c.pages.firstIndex { $0.contains(nil) } ?? c.pages.count
        guard c.pages[read...].allSatisfy({ $0.allSatisfy { $0 == nil } }) else {
            throw Refusal(
                reason: "Flipper keeps only the pages before the first unknown one; page \(read) is unknown and later ones are not")
        }
        lines += ["Pages total: \(c.pages.count)", "Pages read: \(read)"]
        for (i, p) in c.pages.enumerated() { lines.append("Page \(i): \(p.map { $0 ?? 0 }.hexString)") }
        lines.append("Failed authentication attempts: 0")
        return lines.joined(separator: "\n") + "\n"
    }

    static func desfire(_ image: DESFireCardImage) throws(Refusal) -> String {
        let c = try DumpExport.checked { try image.contents() }
        var lines = header("Mifare DESFire", uid: c.uid, atqa: c.atqa, sak: c.sak)
        lines += ["ATS: \(([UInt8(c.ats.count + 1)] + c.ats).hexString)", "PICC Version: \(c.version.bytes.hexString)"]
        // Key settings cardscan does not keep: a card with free directory listing, one key.
        func keySettings(_ p: String) -> [String] {
            [
                "\(p) Change Key ID: 00", "\(p) Config Changeable: true", "\(p) Free Create Delete: false",
                "\(p) Free Directory List: true", "\(p) Key Changeable: true", "\(p) Flags: 00", "\(p) Max Keys: 01",
                "\(p) Key 0 Version: 00",
            ]
        }
        lines += keySettings("PICC")
        lines += ["Application Count: \(c.applications.count)", "Application IDs: \(c.applications.flatMap(\.aid.bytes).hexString)"]
        for app in c.applications {
            let p = "Application \(app.aid.bytes.compactHex.lowercased())"
            lines += keySettings(p)
            lines.append("\(p) File IDs: \(app.files.map(\.number.value).hexString)")
            for f in app.files {
                let q = "\(p) File \(f.number.value)"
                lines += [
                    "\(q) Type: \([f.settings.type.rawValue].hexString)", "\(q) Communication Settings: 00",
                    "\(q) Access Rights: \(f.settings.access.bytes.hexString)",
                ]
                switch f.settings.sizes {
                case .data(let size): lines.append("\(q) Size: \(size)")
                case .records(let size, let maximum, let current):
                    lines += ["\(q) Size: \(size)", "\(q) Max: \(maximum)", "\(q) Cur: \(current)"]
                case .value(let lower, let upper, let credit, let enabled):
                    lines += [
                        "\(q) Hi Limit: \(UInt32(bitPattern: upper))", "\(q) Lo Limit: \(UInt32(bitPattern: lower))",
                        "\(q) Limited Credit Value: \(UInt32(bitPattern: credit))", "\(q) Limited Credit Enabled: \(enabled)",
                    ]
                }
                if let data = DESFireFileMapping.readable(f.settings, f.content) { lines.append("\(q): \(data.hexString)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// FeliCa Standard, data format 2 as firmware that keeps system codes writes it: each system
    /// line, then its services (attributes from the code's low byte) and the blocks read. Areas
    /// are not written: Flipper keeps none.
    static func felica(_ image: FeliCaCardImage, warn: (String) -> Void) throws(Refusal) -> String {
        let c = try DumpExport.checked { try image.contents() }
        if c.systems.contains(where: { !$0.areas.isEmpty }) { warn("areas: Flipper keeps none; they are left out") }
        var lines = [
            "Filetype: Flipper NFC device", "Version: 4", "# Written by cardscan export", "Device type: FeliCa",
            "UID: \(c.idm.hexString)", "Data format version: 2", "Manufacture id: \(c.idm.hexString)",
            "Manufacture parameter: \(c.pmm.hexString)", "IC Type: FeliCa Standard", "System found: \(c.systems.count)",
        ]
        func hex4(_ v: UInt16) -> String { [UInt8(v >> 8), UInt8(v & 0xFF)].compactHex }
        var blockNumber = 0
        for (i, system) in c.systems.enumerated() {
            lines += ["", "System \(String(format: "%02X", i)): \(hex4(system.code))", "", "Service found: \(system.services.count)"]
            let codes = system.services.keys.sorted()
            for (j, code) in codes.enumerated() {
                let open = code & 1 == 1  // FeliCa: an odd service code needs no key
                lines.append(
                    "Service \(String(format: "%03X", j)): | Code \(hex4(code)) | Attrib. \([UInt8(code & 0x3F)].hexString) | "
                        + (open ? "Public " : "Private") + " |")
            }
            let blocks = codes.flatMap { code in system.services[code]!.enumerated().map { (code, $0.offset, $0.element) } }
            lines += ["", "Public blocks read: \(blocks.count)"]
            for (code, index, data) in blocks {
                lines.append(
                    "Block \(String(format: "%04X", blockNumber)): | Service code \(hex4(code)) | Block index \([UInt8(index & 0xFF)].hexString) | Data: \(data.hexString) |"
                )
                blockNumber += 1
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
