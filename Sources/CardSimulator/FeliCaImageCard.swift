import APDU
import FeliCaCommands
import Foundation

/// A FeliCa card served from a card image (``FeliCaCardImage``, the document
/// `cardscan felica --image` writes). A system may list its areas, and a service may have no
/// blocks (a locked service that exists).
///
/// The card answers Polling for any of its systems (system n: the upper nibble of IDm byte 0
/// is n), Request System Code, Request Service (key version 0000 for a listed service code,
/// FFFF otherwise), Search Service Code (the areas and services in service-number order, an
/// area before the services it starts with), Read Without Encryption (A8 past the last block,
/// A6 for an unknown service or one that needs a key) and Write Without Encryption to a
/// service with a "w/o key" read/write attribute (same service number: 0009 writes 000B).
final class FeliCaImageCard {
    struct System {
        let code: UInt16
        var services: [UInt16: [[UInt8]]]
        var areas: [(code: UInt16, end: UInt16)] = []

        /// Search Service Code's order: by service number, an area before the services it
        /// starts with, then by code.
        var nodes: [[UInt8]] {
            let areaNodes = areas.map {
                (
                    key: ($0.code >> 6, 0, $0.code),
                    bytes: [UInt8($0.code & 0xFF), UInt8($0.code >> 8), UInt8($0.end & 0xFF), UInt8($0.end >> 8)]
                )
            }
            let serviceNodes = services.keys.map { (key: ($0 >> 6, 1, $0), bytes: [UInt8($0 & 0xFF), UInt8($0 >> 8)]) }
            return (areaNodes + serviceNodes).sorted { $0.key < $1.key }.map(\.bytes)
        }
    }

    let idm: [UInt8]
    let pmm: [UInt8]
    private(set) var systems: [System]

    /// The card an image describes; an image that does not check out is refused naming `file`.
    init(json data: Data, file: String) throws {
        let image: FeliCaCardImage
        do { image = try JSONDecoder().decode(FeliCaCardImage.self, from: data) } catch {
            throw FeliCaCardImage.Invalid(reason: "\(file): not a JSON object in the card image format (\(CardImageKind.describe(error)))")
        }
        let contents: FeliCaCardImage.Contents
        do { contents = try image.contents() } catch { throw FeliCaCardImage.Invalid(reason: "\(file): \(error.reason)") }
        idm = contents.idm
        pmm = contents.pmm
        systems = contents.systems.map { System(code: $0.code, services: $0.services, areas: $0.areas) }
    }

    /// The "with key" attributes: 08…17 with bit 0 clear.
    static func needsKey(_ code: UInt16) -> Bool { (0x08...0x17).contains(code & 0x3F) && code & 1 == 0 }

    func idm(forSystem n: Int) -> [UInt8] { [idm[0] & 0x0F | UInt8(n << 4)] + idm[1...] }

    /// Polling: the IDm and system code of the first system matching `code` (FFFF: the first).
    func poll(_ code: UInt16) -> (idm: [UInt8], system: [UInt8])? {
        guard let n = systems.firstIndex(where: { code == 0xFFFF || $0.code == code }) else { return nil }
        return (idm(forSystem: n), [UInt8(systems[n].code >> 8), UInt8(systems[n].code & 0xFF)])
    }

    /// The answer to a FeliCa frame (LEN first), or nil for a frame meant for another card.
    func answer(_ f: [UInt8]) -> [UInt8]? {
        guard f.count >= 10, Int(f[0]) == f.count else { return nil }
        let cardIDm = Array(f[2..<10])
        guard let n = (0..<systems.count).first(where: { idm(forSystem: $0) == cardIDm }) else { return nil }
        func reply(_ code: UInt8, _ body: [UInt8]) -> [UInt8] { [UInt8(10 + body.count), code] + cardIDm + body }
        switch f[1] {
        case 0x0C:  // Request System Code
            return reply(0x0D, [UInt8(systems.count)] + systems.flatMap { [UInt8($0.code >> 8), UInt8($0.code & 0xFF)] })
        case 0x04:  // Request Response
            return reply(0x05, [0x00])
        case 0x02:  // Request Service
            guard f.count >= 11 else { return nil }
            let count = Int(f[10])
            var versions: [UInt8] = [UInt8(count)]
            for i in 0..<count where f.count >= 13 + 2 * i {
                let code = UInt16(f[11 + 2 * i]) | UInt16(f[12 + 2 * i]) << 8
                versions += systems[n].services[code] != nil ? [0x00, 0x00] : [0xFF, 0xFF]
            }
            return reply(0x03, versions)
        case 0x0A:  // Search Service Code
            guard f.count == 12 else { return nil }
            let index = Int(f[10]) | Int(f[11]) << 8
            let nodes = systems[n].nodes
            return reply(0x0B, index < nodes.count ? nodes[index] : [0xFF, 0xFF])
        case 0x06, 0x08:  // Read / Write Without Encryption
            guard f.count >= 11 else { return nil }
            let m = Int(f[10])
            guard f.count >= 12 + 2 * m else { return reply(f[1] + 1, [0xFF, 0xA1]) }
            let codes = (0..<m).map { UInt16(f[11 + 2 * $0]) | UInt16(f[12 + 2 * $0]) << 8 }
            var i = 11 + 2 * m
            let blockCount = Int(f[i])
            i += 1
            // 1…15 blocks a command (§7.4.6); more would not fit the answer's length byte.
            guard (1...15).contains(blockCount) else { return reply(f[1] + 1, [0xFF, 0xA2]) }
            var elements: [(service: Int, block: Int)] = []
            for _ in 0..<blockCount {
                guard i + 1 < f.count else { return reply(f[1] + 1, [0xFF, 0xA2]) }
                let head = f[i]
                if head & 0x80 != 0 {
                    elements.append((Int(head & 0x0F), Int(f[i + 1])))
                    i += 2
                } else {
                    guard i + 2 < f.count else { return reply(f[1] + 1, [0xFF, 0xA2]) }
                    elements.append((Int(head & 0x0F), Int(f[i + 1]) | Int(f[i + 2]) << 8))
                    i += 3
                }
            }
            // The service's own blocks, else those of a service with the same number (overlapping services).
            func storage(_ code: UInt16) -> UInt16? {
                systems[n].services[code] != nil ? code : systems[n].services.keys.first { $0 >> 6 == code >> 6 }
            }
            if f[1] == 0x06 {
                var data: [UInt8] = []
                for (k, e) in elements.enumerated() {
                    guard e.service < codes.count, let key = storage(codes[e.service]), !Self.needsKey(codes[e.service]) else {
                        return reply(0x07, [UInt8(k + 1), 0xA6])
                    }
                    let blocks = systems[n].services[key]!
                    guard e.block < blocks.count else { return reply(0x07, [UInt8(k + 1), 0xA8]) }
                    data += blocks[e.block]
                }
                return reply(0x07, [0x00, 0x00, UInt8(elements.count)] + data)
            }
            let payload = Array(f[i...])
            guard payload.count == elements.count * 16 else { return reply(0x09, [0xFF, 0xA2]) }
            for (k, e) in elements.enumerated() {
                let code = e.service < codes.count ? codes[e.service] : 0
                guard let key = storage(code), code & 0x3F == 0x09 else { return reply(0x09, [UInt8(k + 1), 0xA5]) }
                guard e.block < systems[n].services[key]!.count else { return reply(0x09, [UInt8(k + 1), 0xA8]) }
                systems[n].services[key]![e.block] = Array(payload[(k * 16)..<((k + 1) * 16)])
            }
            return reply(0x09, [0x00, 0x00])
        default:
            return nil
        }
    }
}
