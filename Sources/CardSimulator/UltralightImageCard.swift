import APDU
import MIFARECommands

/// A MIFARE Ultralight or NTAG card from an ``UltralightCardImage``, answering the tag's own
/// commands as the chip does (for the emulated PN532) and, through ``pcscAnswer(_:)``, the
/// storage-card pseudo-APDUs a PC/SC contactless reader turns them into (for vpcd):
/// - READ `30 page`: pages `page`…`page + 3`, wrapping to page 0 past the last page; a page past
///   the end, or one the image does not know (`..`: protected, or never read), is refused
///   with a NAK, as the chip refuses a protected page;
/// - GET_VERSION `60`, READ_CNT `39 n`, READ_SIG `3C 00`: from the image when it holds them;
///   otherwise the chip stays silent, as an Ultralight that has no such command does;
/// - every command that would write, count, lock or authenticate: a NAK. The image never changes.
public final class UltralightImageCard {
    /// The checked image the card answers from.
    public let contents: UltralightCardImage.Contents

    /// What the chip sends back to one command.
    public enum Answer: Equatable {
        /// Data bytes (with the CRC the reader checks and removes).
        case data([UInt8])
        /// A 4-bit NAK (`0`: invalid argument or page).
        case nak
        /// Nothing: the chip does not know the command.
        case silent
    }

    /// A card serving `contents`.
    public init(_ contents: UltralightCardImage.Contents) { self.contents = contents }

    /// Nothing to reset: READ has no state.
    public func reset() {}

    /// The chip's answer to one command. A reader that leaves the CRC to its host (libnfc with
    /// NP_HANDLE_CRC off, as nfc-mfultralight sends GET_VERSION) gets one back after the data.
    public func answer(_ frame: [UInt8]) -> Answer {
        guard frame.count >= 3, Self.crcA(frame.dropLast(2)) == Array(frame.suffix(2)) else { return chip(frame) }
        guard case .data(let bytes) = chip(Array(frame.dropLast(2))) else { return chip(Array(frame.dropLast(2))) }
        return .data(bytes + Self.crcA(bytes[...]))
    }

    /// ISO/IEC 14443-3 CRC_A (initial value 6363, the reflected polynomial 8408), least
    /// significant byte first.
    static func crcA(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for b in bytes {
            var x = b ^ UInt8(crc & 0xFF)
            x ^= x << 4
            crc = (crc >> 8) ^ (UInt16(x) << 8) ^ (UInt16(x) << 3) ^ (UInt16(x) >> 4)
        }
        return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    private func chip(_ command: [UInt8]) -> Answer {
        switch (command.first, command.count) {
        case (0x30, 2):
            let n = contents.pages.count, first = Int(command[1])
            guard first < n else { return .nak }
            var out: [UInt8] = []
            for i in 0..<4 {
                guard let page = contents.pages[(first + i) % n].allSatisfy({ $0 != nil }) ? contents.pages[(first + i) % n] : nil else {
                    return .nak
                }
                out += page.compactMap { $0 }
            }
            return .data(out)
        case (0x60, 1): return contents.version.map { .data($0) } ?? .silent
        case (0x3C, 2): return contents.signature.map { .data($0) } ?? .silent
        case (0x39, 2):
            guard let counters = contents.counters else { return .silent }
            guard command[1] < 3 else { return .nak }
            let c = counters[Int(command[1])]
            return .data([UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF)])
        case (0x1A, _):
            // Ultralight C's AUTHENTICATE: its key is never in an image, so the card refuses; a
            // chip without the command stays silent.
            return contents.model == .ultralightC ? .nak : .silent
        default:
            return UltralightCommand.changing[command.first ?? 0] != nil ? .nak : .silent
        }
    }

    /// The answer of a PC/SC contactless reader with this card on it (PC/SC part 3 storage
    /// card commands): `FF CA 00 00 00` the UID, `FF B0 00 page Le` READ's first Le bytes
    /// (`6A 82` when the card refuses: past the end, or protected), `FF D6` refused (`69 82`:
    /// the image never changes), anything else `6A 81`.
    public func pcscAnswer(_ apdu: [UInt8]) -> [UInt8] {
        if let answer = ReaderGetData.answer(apdu, identifier: contents.uid) { return answer }
        guard apdu.count >= 5, apdu[0] == 0xFF, apdu[2] == 0x00 else { return [0x6A, 0x81] }
        switch apdu[1] {
        case 0xB0:
            let le = apdu[4] == 0 ? 16 : Int(apdu[4])
            guard le <= 16 else { return [0x6C, 0x10] }
            guard case .data(let four) = answer([0x30, apdu[3]]) else { return [0x6A, 0x82] }
            return Array(four.prefix(le)) + [0x90, 0x00]
        case 0xD6: return [0x69, 0x82]
        default: return [0x6A, 0x81]
        }
    }
}
