import APDU
import DESFireCommands

/// A DESFire file as an image holds it, from its GetFileSettings answer and what reading it
/// gave (nil: it needs a key, or its read failed): the same shape `cardscan desfire --image`
/// writes, so every source of DESFire dumps gives the same images.
enum DESFireFileMapping {
    /// A file larger than this is refused: DESFire cards hold at most 32 KB, and an image keeps
    /// a locked file as zeros of its size (a dump claiming 16 MB must not cost 16 MB).
    static let maximumSize = 64 << 10

    /// The problem with settings whose file could not be on a card, or nil.
    static func sizeProblem(_ settings: DESFireFileSettings) -> String? {
        switch settings.sizes {
        case .data(let size) where size > maximumSize: return "a file of \(size) bytes: DESFire files are at most 64 KiB here"
        case .records(let size, let count, let current) where size * max(count, current) > maximumSize:
            return "records of \(size) bytes × \(max(count, current)): more than 64 KiB"
        default: return nil
        }
    }

    static func file(id: Int, settings: DESFireFileSettings, content: [UInt8]?) -> DESFireCardImage.File {
        let readable = content != nil && !settings.readNeedsKey
        var file = DESFireCardImage.File(id: id, type: settings.type.name, read: readable ? "free" : "key")
        let bytes = readable ? content : nil
        switch settings.sizes {
        case .data(let size):
            file.data = (bytes ?? [UInt8](repeating: 0, count: size)).hexString
        case .records(let size, _, _):
            file.recordSize = size
            let b = bytes ?? []
            file.records =
                size > 0 ? stride(from: 0, to: b.count - b.count % size, by: size).map { Array(b[$0..<($0 + size)]).hexString } : []
        case .value(let lower, let upper, let credit, _):
            file.value = bytes.flatMap { try? DESFireFileSettings.value($0) }.map(Int.init) ?? 0
            // The image's defaults are left out, as hand-written images leave them.
            file.lower = lower == 0 ? nil : Int(lower)
            file.upper = upper == .max ? nil : Int(upper)
            file.limitedCredit = credit == 0 ? nil : Int(credit)
        }
        return file
    }

    /// What reading a file gives (ReadData, ReadRecords concatenated, GetValue little-endian),
    /// or nil when it needs a key.
    static func readable(_ settings: DESFireFileSettings, _ content: DESFireCardImage.Content) -> [UInt8]? {
        guard !settings.readNeedsKey else { return nil }
        switch content {
        case .data(let d): return d
        case .records(let r): return r.flatMap { $0 }
        case .value(let v): return (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * $0)) }
        }
    }
}
