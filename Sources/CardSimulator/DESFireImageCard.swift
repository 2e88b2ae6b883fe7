import APDU
import DESFireCommands

/// A card that answers wrapped DESFire commands from a `DESFireCardImage` as a real card
/// does: `91 AE` for a read that needs a key and for a locked list, `91 F0` for no such file,
/// `91 A0` for no such application, answers longer than one frame in 59-byte frames ending
/// `91 AF`, and `91 AE` to every command that would change it. Pure logic: cardsim carries it.
public final class DESFireImageCard {
    /// The checked image the card answers from; it never changes (every write is refused).
    public let contents: DESFireCardImage.Contents
    private var selected: Int?  // index of the selected application; nil = the card level
    private var pending: [[UInt8]] = []

    /// The most data bytes in one frame (a 64-byte frame less the status and framing).
    public static let frameSize = 59

    /// A card serving `contents`: the card level selected, no answer pending.
    public init(_ contents: DESFireCardImage.Contents) { self.contents = contents }

    /// Power-on: the card level is selected, no answer is pending.
    public func reset() {
        selected = nil
        pending = []
    }

    private func status(_ s: DESFireStatus) -> [UInt8] { [0x91, s.rawValue] }

    /// `data` in frames: the first now, the rest on ADDITIONAL FRAME.
    private func frames(_ data: [UInt8], size: Int = frameSize) -> [UInt8] {
        // At least one part, empty for an empty answer.
        var parts = stride(from: 0, to: max(data.count, 1), by: size).map { Array(data[$0..<min($0 + size, data.count)]) }
        let first = parts.removeFirst()
        pending = parts
        return first + status(parts.isEmpty ? .ok : .additionalFrame)
    }

    /// The answer to one command APDU.
    public func respond(_ bytes: [UInt8]) -> [UInt8] {
        guard let apdu = try? CommandAPDU(bytes: bytes) else { return [0x67, 0x00] }
        guard apdu.cla == 0x90 else {
            pending = []
            return apdu.ins == 0xA4 ? [0x6A, 0x82] : [0x6E, 0x00]
        }
        guard apdu.p1 == 0, apdu.p2 == 0 else { return [0x6A, 0x86] }
        let ins = DESFireInstruction(rawValue: apdu.ins)
        if ins == .additionalFrame {
            guard !pending.isEmpty else { return status(.illegalCommand) }
            let next = pending.removeFirst()
            return next + status(pending.isEmpty ? .ok : .additionalFrame)
        }
        pending = []
        let d = apdu.data
        switch ins {
        case .getVersion:
            let v = contents.version.bytes
            pending = [Array(v[7..<14]), Array(v[14..<28])]
            return Array(v[0..<7]) + status(.additionalFrame)
        case .getApplicationIDs:
            guard selected == nil else { return status(.illegalCommand) }
            if contents.listLocked { return status(.authenticationError) }
            return frames(contents.applications.flatMap(\.aid.bytes), size: 57)  // 19 IDs a frame
        case .selectApplication:
            guard d.count == 3, let aid = try? DESFireAID(d) else { return status(.lengthError) }
            if aid == .picc {
                selected = nil
                return status(.ok)
            }
            guard let i = contents.applications.firstIndex(where: { $0.aid == aid }) else { return status(.applicationNotFound) }
            selected = i
            return status(.ok)
        case .getFileIDs:
            guard let app = selected.map({ contents.applications[$0] }) else { return status(.ok) }
            if app.filesLocked { return status(.authenticationError) }
            return app.files.map(\.number.value) + status(.ok)
        case .getFreeMemory:
            return [0x00, 0x04, 0x00] + status(.ok)
        case .getKeySettings:
            // The image holds no key settings, only what they allow: a list that needs a key
            // means its settings need one too; otherwise 0F (every change allowed with the
            // master key, lists free) and one key.
            let locked = selected.map { contents.applications[$0].filesLocked } ?? contents.listLocked
            return locked ? status(.authenticationError) : [0x0F, 0x01] + status(.ok)
        case .getKeyVersion:
            guard d.count == 1 else { return status(.lengthError) }
            return [0x00] + status(.ok)  // key version 0: a key never changed
        case .getFileSettings, .readData, .readRecords, .getValue:
            guard let first = d.first else { return status(.lengthError) }
            guard let app = selected.map({ contents.applications[$0] }) else { return status(.fileNotFound) }
            guard let file = app.files.first(where: { $0.number.value == first }) else { return status(.fileNotFound) }
            if ins == .getFileSettings {
                guard d.count == 1 else { return status(.lengthError) }
                return file.settings.bytes + status(.ok)
            }
            if file.settings.readNeedsKey { return status(.authenticationError) }
            return read(ins, d, file.content)
        default:
            if DESFireInstruction.changing[apdu.ins] != nil { return status(.authenticationError) }
            return status(.illegalCommand)
        }
    }

    private func read(_ ins: DESFireInstruction, _ d: [UInt8], _ content: DESFireCardImage.Content) -> [UInt8] {
        func le3(_ at: Int) -> Int { Int(d[at]) | Int(d[at + 1]) << 8 | Int(d[at + 2]) << 16 }
        switch (ins, content) {
        case (.readData, .data(let bytes)):
            guard d.count == 7 else { return status(.lengthError) }
            let offset = le3(1), length = le3(4)
            guard offset <= bytes.count, length == 0 || offset + length <= bytes.count else { return status(.boundaryError) }
            return frames(Array(bytes[offset..<(length == 0 ? bytes.count : offset + length)]))
        case (.readRecords, .records(let list)):
            guard d.count == 7 else { return status(.lengthError) }
            let offset = le3(1), count = le3(4)
            guard offset < max(list.count, 1), count == 0 || offset + count <= list.count else { return status(.boundaryError) }
            let chosen = list.isEmpty ? [] : Array(list[offset..<(count == 0 ? list.count : offset + count)])
            return frames(chosen.flatMap { $0 })
        case (.getValue, .value(let v)):
            guard d.count == 1 else { return status(.lengthError) }
            let u = UInt32(bitPattern: v)
            return [UInt8(u & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 24)] + status(.ok)
        default:
            return status(.parameterError)  // the wrong read for the file's type
        }
    }
}
