/// The MIFARE Classic step of a profile (docs/profile-format.md §Classic steps):
/// `read-sector: { sector, key }`.
enum ClassicStepParser {
    static let actions = ["read-sector"]

    static func parse(_ c: Cursor) -> ClassicStep? {
        guard let s = c.section(.readSector) else { return nil }
        guard let sector = s.required("sector", "the sector, e.g. 8")?.int(0...39) else { return nil }
        let key = s["key"].choice(["a", "b"])
        return .readSector(sector: sector, keyB: key.map { $0 == "b" })
    }
}
