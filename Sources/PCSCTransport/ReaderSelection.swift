/// Picks a reader from a list: an index (`0`), an exact name, or a substring that matches
/// exactly one reader (case-insensitive). `CARDSCAN_READER` gives the default choice.
public enum ReaderSelection {
    /// The reader `query` names in `readers`: an index in range, else an exact name, else the
    /// only name that contains it (case-insensitive); throws when none or several match.
    public static func select(_ query: String, from readers: [String]) throws(ReaderSelectionError) -> String {
        if readers.isEmpty { throw .noReaders }
        if let i = Int(query), readers.indices.contains(i) { return readers[i] }
        if readers.contains(query) { return query }
        let matches = readers.filter { $0.lowercased().contains(query.lowercased()) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw .notFound(query, available: readers) }
        throw .ambiguous(query, matches: matches)
    }
}
