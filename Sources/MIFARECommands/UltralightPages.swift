import APDU

/// Why an Ultralight page could not be read.
public enum UltralightError: UserFacingError, Equatable {
    /// The tag refused a READ at `page`: past its end (`pageCount` known), or a protected area
    /// (EV1, NTAG21x and Ultralight C can need a password or key to read; cardscan never tries
    /// one).
    case refused(page: Int, pageCount: Int?)
    /// A READ answered `count` bytes, not 16.
    case shortAnswer(page: Int, count: Int)
    /// A page beyond what one READ can name (0–255).
    case unaddressable(page: Int)

    public var message: String {
        switch self {
        case .refused(let page, let n?) where page >= n: "page \(page) is past the end of the tag's \(n) pages"
        case .refused(let page, _): "the tag refused to read page \(page): a protected area, or past its end"
        case .shortAnswer(let page, let count): "READ of page \(page) answered \(count) bytes, not 16"
        case .unaddressable(let page): "page \(page): READ names pages 0 to 255"
        }
    }

    public var hint: String? {
        switch self {
        case .refused(_, nil), .refused: "cardscan reads what needs no password; `cardscan ultralight` shows which pages are readable"
        default: nil
        }
    }
}

/// Reading an Ultralight's pages with READ (`30 page`, four pages at a time) over any channel
/// that takes the tag's own commands: libnfc's, or a PC/SC reader's through PCSCType2Channel.
/// A range is read with one READ per four pages, starting at its first page, and only the
/// pages asked for are kept (``plan(_:)``).
public enum UltralightPages {
    /// Pages `pages` (page numbers, each 4 bytes), in order; `pageCount` (when known) lets a
    /// refusal say "past the end".
    public static func read(_ channel: CardChannel, pages: ClosedRange<Int>, pageCount: Int? = nil) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (start, skip, take) in plan(pages) {
            let group = try readGroup(page: start, pageCount: pageCount, transmit: channel.transmit)
            out += (skip..<(skip + take)).map { Array(group[($0 * 4)..<($0 * 4 + 4)]) }
        }
        return out
    }

    /// The READs that read `pages`: each READ's first page, how many of its pages to skip, how
    /// many to keep. A READ covers four pages; the last one ends at the last page asked for
    /// (it starts up to three pages earlier) rather than running past it into pages that may
    /// be protected — a chip refuses a whole READ that touches one.
    public static func plan(_ pages: ClosedRange<Int>) -> [(start: Int, skip: Int, take: Int)] {
        var out: [(Int, Int, Int)] = []
        var page = pages.lowerBound
        while page <= pages.upperBound {
            let take = min(4, pages.upperBound - page + 1)
            let start = take < 4 ? max(0, pages.upperBound - 3) : page
            out.append((start, page - start, take))
            page += take
        }
        return out
    }

    /// One READ at `page` through `transmit`: its 16 bytes. A transport failure (a card
    /// removed) is thrown as it is; a tag's refusal becomes ``UltralightError/refused(page:pageCount:)``.
    public static func readGroup(page: Int, pageCount: Int? = nil, transmit: ([UInt8]) throws -> [UInt8]) throws -> [UInt8] {
        guard (0...255).contains(page) else { throw UltralightError.unaddressable(page: page) }
        if let n = pageCount, page >= n { throw UltralightError.refused(page: page, pageCount: n) }
        let answer: [UInt8]
        do { answer = try transmit(UltralightCommand.read(page: UInt8(page))) } catch let e as CardTransportError {
            // A PC/SC reader answers a refused READ BINARY with a status word: a refusal, not a lost card.
            if case .other = e.failure { throw UltralightError.refused(page: page, pageCount: pageCount) }
            throw e
        }
        // A NAK is one byte (4 bits on air): 0 or 1 invalid argument, 4 or 5 a CRC or parity fault.
        if answer.count == 1 { throw UltralightError.refused(page: page, pageCount: pageCount) }
        guard answer.count >= 16 else { throw UltralightError.shortAnswer(page: page, count: answer.count) }
        return Array(answer.prefix(16))
    }
}
