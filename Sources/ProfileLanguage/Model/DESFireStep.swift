import APDU
import DESFireCommands

/// A DESFire step (docs/profile-format.md §DESFire steps): select an application, or read a
/// file's data, records or value — chosen from the file's settings, or declared.
public enum DESFireStep: Sendable {
    /// The first of these applications the card has (HSL: version 2, else version 1).
    case select([DESFireAID])
    /// One file, read as `mode`; `offset` and `length` (0: to the end) go to ReadData (in bytes) or ReadRecords (in records).
    case read(file: DESFireFileNumber, mode: ReadMode, offset: Int, length: Int)
    /// Several files, each read whole; the answer is their contents as records, in file-number
    /// order (Adelaide keeps one trip per file). Files the card refuses are left out.
    case readEach(files: FileSet, mode: ReadMode)

    /// A set of a card application's files (0…31) as one 32-bit mask: a value without storage
    /// of its own, listed in file-number order.
    public struct FileSet: Sendable, Equatable, Sequence {
        /// Bit n set: file n is in the set.
        public private(set) var mask: UInt32 = 0
        /// The set of `files`.
        public init(_ files: [DESFireFileNumber]) { for f in files { mask |= 1 << UInt32(f.value) } }
        /// Whether no file is in the set.
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
        /// GetFileSettings first, then the read the file's type calls for.
        case auto
        /// ReadData: the file's bytes.
        case data
        /// ReadRecords: the file's records.
        case records
        /// GetValue: a value file's value (4 bytes, signed, least significant first).
        case value
        /// GetFileSettings only: the answer is the file's settings.
        case settings
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
