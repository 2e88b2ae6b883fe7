import CZlib

/// The files of a ZIP archive (PKWARE's APPNOTE.TXT), found through its central directory, each
/// read stored or deflated and checked against its CRC-32 and declared size. What a card dump
/// archive needs and no more: one disk, no ZIP64, no encryption. Every count and offset is
/// checked against the archive's bytes before it is used, and the files together may not
/// unpack to more than `ceiling` bytes.
struct ZipArchive {
    /// One file (or folder) as the central directory lists it.
    struct Entry {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localOffset: Int
        /// A folder's entry: its name ends in `/`.
        var isFolder: Bool { name.hasSuffix("/") }
    }

    let bytes: [UInt8]
    let entries: [Entry]
    let file: String

    /// At most this many entries: more is not an archive of card dumps.
    static let maximumEntries = 10_000

    init(_ bytes: [UInt8], file: String, ceiling: Int) throws(DumpError) {
        self.bytes = bytes
        self.file = file
        func fail(_ reason: String) -> DumpError { DumpError(file: file, place: "ZIP", reason: reason) }
        // The end of central directory record: 22 bytes and a comment of up to 65,535, at the end.
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        guard bytes.count >= 22,
            let end = stride(from: bytes.count - 22, through: lowest, by: -1).first(where: { Self.u32(bytes, $0) == 0x0605_4B50 })
        else { throw fail("no end of central directory record: not a whole ZIP archive") }
        guard Self.u16(bytes, end + 4) == 0, Self.u16(bytes, end + 6) == 0 else { throw fail("an archive split across disks") }
        let count = Int(Self.u16(bytes, end + 10))
        let directorySize = Int(Self.u32(bytes, end + 12)), directoryStart = Int(Self.u32(bytes, end + 16))
        guard count != 0xFFFF, directoryStart != 0xFFFF_FFFF else { throw fail("a ZIP64 archive (larger than cardscan reads)") }
        guard count <= Self.maximumEntries else { throw fail("\(count) entries: more than \(Self.maximumEntries)") }
        guard directoryStart + directorySize <= end else { throw fail("the central directory runs past its end record") }
        var list: [Entry] = []
        var at = directoryStart, total = 0
        for i in 0..<count {
            let entry = try Self.entry(bytes, at: &at, limit: directoryStart + directorySize) { reason throws(DumpError) in
                throw fail("central directory entry \(i): \(reason)")
            }
            total += entry.size
            guard total <= ceiling else { throw fail("its files unpack to more than \(ceiling >> 20) MiB") }
            list.append(entry)
        }
        entries = list
    }

    /// The entry at `at` of the central directory, `at` moved past it.
    private static func entry(
        _ b: [UInt8], at: inout Int, limit: Int, fail: (String) throws(DumpError) -> Never
    ) throws(DumpError) -> Entry {
        guard at + 46 <= limit, u32(b, at) == 0x0201_4B50 else { try fail("no central directory header at offset \(at)") }
        let nameLength = Int(u16(b, at + 28)), extra = Int(u16(b, at + 30)), comment = Int(u16(b, at + 32))
        guard at + 46 + nameLength + extra + comment <= limit else { try fail("its name runs past the central directory") }
        let name = String(decoding: b[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
        let entry = Entry(
            name: name, method: u16(b, at + 10), flags: u16(b, at + 8), crc: u32(b, at + 16), compressedSize: Int(u32(b, at + 20)),
            size: Int(u32(b, at + 24)), localOffset: Int(u32(b, at + 42)))
        at += 46 + nameLength + extra + comment
        return entry
    }

    /// The bytes of `entry`, unpacked and checked.
    func data(_ entry: Entry) throws(DumpError) -> [UInt8] {
        func fail(_ reason: String) -> DumpError { DumpError(file: file, place: entry.name, reason: reason) }
        guard entry.flags & 1 == 0 else { throw fail("encrypted: cardscan reads no encrypted archive") }
        let local = entry.localOffset
        guard local + 30 <= bytes.count, Self.u32(bytes, local) == 0x0403_4B50 else { throw fail("no local header at offset \(local)") }
        let start = local + 30 + Int(Self.u16(bytes, local + 26)) + Int(Self.u16(bytes, local + 28))
        guard start + entry.compressedSize <= bytes.count else { throw fail("its data runs past the end of the archive") }
        let packed = Array(bytes[start..<(start + entry.compressedSize)])
        let out: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else { throw fail("stored, yet its two sizes differ") }
            out = packed
        case 8: out = try Self.inflate(packed, size: entry.size) { reason throws(DumpError) in throw fail(reason) }
        default: throw fail("compression method \(entry.method): cardscan reads stored (0) and deflated (8) files")
        }
        let crc = out.withUnsafeBufferPointer { p in UInt32(crc32(0, p.baseAddress, UInt32(p.count))) }
        guard crc == entry.crc else {
            throw fail("CRC-32 \(String(crc, radix: 16)) where the archive says \(String(entry.crc, radix: 16))")
        }
        return out
    }

    /// Raw deflate data (RFC 1951) that must unpack to exactly `size` bytes.
    private static func inflate(_ packed: [UInt8], size: Int, fail: (String) throws(DumpError) -> Never) throws(DumpError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            try fail("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        // One byte more than declared: data that goes on past its size is told from data that ends.
        var out = [UInt8](repeating: 0, count: size + 1)
        var input = packed
        let status = input.withUnsafeMutableBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = inp.baseAddress
                stream.avail_in = UInt32(inp.count)
                stream.next_out = o.baseAddress
                stream.avail_out = UInt32(o.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            try fail(
                stream.total_out > size
                    ? "it unpacks to more than its declared \(size) bytes" : "its deflate data is damaged (zlib \(status))")
        }
        guard Int(stream.total_out) == size else { try fail("it unpacks to \(stream.total_out) bytes, not its declared \(size)") }
        return Array(out[0..<size])
    }

    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }
}
