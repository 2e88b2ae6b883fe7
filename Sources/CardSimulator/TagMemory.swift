import APDU

/// Writable memory for an emulated NFC Forum tag, so `ndef write` can be tested: seeded from
/// the reads a transcript records, then changed by writes.
/// - Type 3: blocks of service 000B (read: Read Without Encryption of 000B; write: Write
///   Without Encryption through 0009), one service and 2-byte block elements per command.
/// - Type 2: 4-byte pages (read: `30 pp` gives 4 pages; write: `A2 pp d0 d1 d2 d3`).
struct TagMemory {
    var blocks: [UInt16: [UInt8]] = [:]
    var pages: [Int: [UInt8]] = [:]
    /// Type 4: the CC and NDEF files (E103, and the NDEF file), as read, then as written.
    var files: [UInt16: [UInt8]] = [:]
    var currentFile: UInt16? = nil

    static func fileSelect(_ c: [UInt8]) -> UInt16? {
        c.count == 7 && c[0] == 0x00 && c[1] == 0xA4 && c[2] == 0x00 && c[3] == 0x0C && c[4] == 0x02
            ? UInt16(c[5]) << 8 | UInt16(c[6]) : nil
    }

    init(seed transcript: Transcript) {
        for e in transcript.entries {
            guard let pattern = e.command, case .response(let answer) = e.outcome else { continue }
            let command = pattern.map { $0 ?? 0 }
            if let (service, numbers) = Self.blockRequest(command), service == 0x000B, answer.count >= 13, answer[10] == 0, answer[11] == 0
            {
                let data = Array(answer[13...])
                for (i, n) in numbers.enumerated() where data.count >= (i + 1) * 16 { blocks[n] = Array(data[(i * 16)..<((i + 1) * 16)]) }
            } else if let fid = Self.fileSelect(command), fid & 0xFF00 == 0xE100 {
                currentFile = fid
                if files[fid] == nil { files[fid] = [] }
            } else if command.count == 5, command[0] == 0x00, command[1] == 0xB0, command[2] & 0x80 == 0, let f = currentFile,
                answer.count >= 2,
                answer.suffix(2) == [0x90, 0x00]
            {
                let offset = Int(command[2]) << 8 | Int(command[3])
                var file = files[f] ?? []
                let data = Array(answer.dropLast(2))
                if file.count < offset + data.count { file += [UInt8](repeating: 0, count: offset + data.count - file.count) }
                file.replaceSubrange(offset..<(offset + data.count), with: data)
                files[f] = file
            } else if command.count >= 2, command[1] == 0xA4 {
                currentFile = nil
            }
            if command.count == 2, command[0] == 0x30, answer.count >= 16 {
                for i in 0..<4 { pages[Int(command[1]) + i] = Array(answer[(i * 4)..<(i * 4 + 4)]) }
            }
        }
    }

    /// `LEN 06|08 IDm 01 SC_lo SC_hi n (80 bb)…` → (service, block numbers).
    static func blockRequest(_ f: [UInt8]) -> (UInt16, [UInt16])? {
        guard f.count >= 14, f[1] == 0x06 || f[1] == 0x08, f[10] == 1 else { return nil }
        let service = UInt16(f[11]) | UInt16(f[12]) << 8
        let n = Int(f[13])
        guard (1...15).contains(n), f.count >= 14 + 2 * n else { return nil }  // 1…15 blocks a command
        var numbers: [UInt16] = []
        for i in 0..<n {
            guard f[14 + 2 * i] & 0x80 != 0 else { return nil }
            numbers.append(UInt16(f[15 + 2 * i]))
        }
        return (service, numbers)
    }

    /// The answer from memory, or nil to fall back to the transcript.
    mutating func answer(_ frame: [UInt8], felica: Bool) -> [UInt8]? {
        if felica, let (service, numbers) = Self.blockRequest(frame) {
            let idm = Array(frame[2..<10])
            if frame[1] == 0x06, service == 0x000B, numbers.allSatisfy({ blocks[$0] != nil }) {
                let data = numbers.flatMap { blocks[$0]! }
                return [UInt8(13 + data.count), 0x07] + idm + [0x00, 0x00, UInt8(numbers.count)] + data
            }
            if frame[1] == 0x08, service == 0x0009 {
                let data = Array(frame[(14 + 2 * numbers.count)...])
                guard data.count == numbers.count * 16 else { return [0x0C, 0x09] + idm + [0xFF, 0xA2] }
                for (i, n) in numbers.enumerated() { blocks[n] = Array(data[(i * 16)..<((i + 1) * 16)]) }
                return [0x0C, 0x09] + idm + [0x00, 0x00]
            }
            return nil
        }
        if !felica, !files.isEmpty {
            if let fid = Self.fileSelect(frame) {
                guard files[fid] != nil else { return nil }
                currentFile = fid
                return [0x90, 0x00]
            }
            if frame.count >= 2, frame[1] == 0xA4 {
                currentFile = nil
                return nil
            }
            if let f = currentFile, frame.count == 5, frame[0] == 0x00, frame[1] == 0xB0 {
                let offset = Int(frame[2]) << 8 | Int(frame[3])
                let file = files[f] ?? []
                guard offset <= file.count else { return [0x6B, 0x00] }
                let n = frame[4] == 0 ? 256 : Int(frame[4])
                return Array(file[offset..<min(file.count, offset + n)]) + [0x90, 0x00]
            }
            if let f = currentFile, frame.count >= 5, frame[0] == 0x00, frame[1] == 0xD6 {
                let offset = Int(frame[2]) << 8 | Int(frame[3])
                let data = Array(frame[5..<min(frame.count, 5 + Int(frame[4]))])
                var file = files[f] ?? []
                if file.count < offset + data.count { file += [UInt8](repeating: 0, count: offset + data.count - file.count) }
                file.replaceSubrange(offset..<(offset + data.count), with: data)
                files[f] = file
                return [0x90, 0x00]
            }
        }
        if !felica, frame.count == 2, frame[0] == 0x30, !pages.isEmpty {
            let p = Int(frame[1])
            return (p..<(p + 4)).flatMap { pages[$0] ?? [0, 0, 0, 0] }
        }
        if !felica, frame.count == 6, frame[0] == 0xA2 {
            pages[Int(frame[1])] = Array(frame[2...])
            return []  // ACK: no data
        }
        return nil
    }
}
