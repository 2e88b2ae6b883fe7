import APDU
import FeliCaCommands

/// The FeliCa part of a Flipper `.nfc` file (docs/dump-formats.md §7), data format 2: the IDm
/// (`Manufacture id`) and PMm (`Manufacture parameter`), then for FeliCa Standard each system
/// (`System 00: 0003`) followed by its services (`Service 000: | Code 008B | …`) and the
/// public blocks read (`Block 0000: | Service code 008B | Block index 00 | Data: … |`); for
/// FeliCa Lite, `Block N:` lines of its one service. The lines are read in order, because a
/// service belongs to the system line above it.
enum FlipperFeliCa {
    static func image(_ f: FlipperFile, text: String, warn: (String) -> Void) throws(DumpError) -> FeliCaCardImage {
        let idm = try f.hex("Manufacture id", count: 8)
        let pmm = try f.hex("Manufacture parameter", count: 8)
        if f.has("IC Type"), try f.string("IC Type").contains("Lite") {
            return FeliCaCardImage(idm: idm, pmm: pmm, systems: [try lite(f)])
        }
        var systems: [(code: String, services: [String: [String]])] = []
        var implicit = true  // a file with no System line: one system, its code not kept
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let place = "line \(i + 1)"
            func fail(_ reason: String) -> DumpError { DumpError(file: f.file, place: place, reason: reason) }
            if line.hasPrefix("System "), !line.hasPrefix("System found") {
                guard let code = line.split(separator: ":").last.map({ $0.trimmingCharacters(in: .whitespaces) }),
                    code.count == 4, UInt16(code, radix: 16) != nil
                else { throw fail("'\(line)': a system code of 4 hex digits expected") }
                if implicit && !systems.isEmpty { throw fail("a System line after services that belong to none") }
                implicit = false
                systems.append((code.uppercased(), [:]))
            } else if line.hasPrefix("Service "), line.contains("| Code ") {
                let code = try field(line, "Code", fail)
                if systems.isEmpty { systems.append(("0003", [:])) }
                if systems[systems.count - 1].services[code] == nil { systems[systems.count - 1].services[code] = [] }
            } else if line.hasPrefix("Block "), line.contains("| Service code ") {
                let code = try field(line, "Service code", fail)
                guard let index = Int(try field(line, "Block index", fail), radix: 16) else { throw fail("a hex block index expected") }
                guard let dataText = line.components(separatedBy: "Data:").last?.replacingOccurrences(of: "|", with: ""),
                    let data = try? Hex.parse(dataText), data.count == 16
                else { throw fail("a block's Data: 16 hex bytes expected") }
                if systems.isEmpty { systems.append(("0003", [:])) }
                var blocks = systems[systems.count - 1].services[code] ?? []
                guard index == blocks.count else {
                    throw fail("block \(index) of service \(code) where block \(blocks.count) comes next (blocks must follow on from 0)")
                }
                blocks.append(data.hexString)
                systems[systems.count - 1].services[code] = blocks
            }
        }
        guard !systems.isEmpty else {
            throw DumpError(file: f.file, reason: "no FeliCa service or block: data format 1 keeps only the IDm and PMm")
        }
        if implicit { warn("the file keeps no system code: 0003 (transit), the system of almost every card Flipper reads") }
        return FeliCaCardImage(idm: idm, pmm: pmm, systems: systems.map { .init(code: $0.code, services: $0.services) })
    }

    /// `| NAME XXXX |` in a line: the value after the name, up to the next bar.
    private static func field(_ line: String, _ name: String, _ fail: (String) -> DumpError) throws(DumpError) -> String {
        guard let after = line.components(separatedBy: "| \(name) ").dropFirst().first,
            let value = after.split(separator: "|").first?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { throw fail("no '\(name)' in '\(line)'") }
        guard name == "Block index" || (value.count == 4 && UInt16(value, radix: 16) != nil) else {
            throw fail("\(name) '\(value)': 4 hex digits expected")
        }
        return value.uppercased()
    }

    /// FeliCa Lite: one system, 88B4, whose blocks are read through service 000B.
    private static func lite(_ f: FlipperFile) throws(DumpError) -> FeliCaCardImage.System {
        let read = try f.int("Blocks read")
        var blocks: [String] = []
        for i in 0..<read { blocks.append(try f.hex("Block \(i)", count: 16).hexString) }
        return .init(code: "88B4", services: ["000B": blocks])
    }
}
