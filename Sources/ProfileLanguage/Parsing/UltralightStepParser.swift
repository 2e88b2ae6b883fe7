/// The MIFARE Ultralight step of a profile (docs/profile-format.md §Ultralight steps):
/// `read-pages: { first, count }`.
enum UltralightStepParser {
    static let actions = ["read-pages"]

    static func parse(_ c: Cursor) -> UltralightStep? {
        guard let s = c.section(.readPages) else { return nil }
        let first = s.required("first", "the first page, e.g. 4")?.int(0...255)
        let count = s.required("count", "how many pages, e.g. 12")?.int(1...256)
        guard let first, let count else { return nil }
        // READ names its first page in one byte (pages 0–255); a range past it needs SECTOR
        // SELECT, which cardscan does not send.
        if first + count - 1 > 255 { s["count"].issue("\(count) pages from page \(first) go past page 255, the last one READ can name") }
        return .readPages(first: first, count: count)
    }
}
