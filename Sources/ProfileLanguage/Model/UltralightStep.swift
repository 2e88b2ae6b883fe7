/// A step of a MIFARE Ultralight profile (`technology: ultralight`).
public enum UltralightStep: Sendable, Equatable {
    /// `read-pages: { first, count }`: pages `first` to `first + count − 1`, 4 bytes each, read
    /// with one READ (`30 page`, four pages) per four pages; the answer is their bytes in order.
    case readPages(first: Int, count: Int)

    /// The bytes the answer has: 4 a page.
    var declaredLength: Int? {
        switch self {
        case .readPages(_, let count): return count * 4
        }
    }
}
