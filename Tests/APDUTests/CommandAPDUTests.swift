import PropertyBased
import Synchronization
import Testing

@testable import APDU

@Suite struct CommandAPDUTests {
    @Test func fourShortCasesEncodeExactly() throws {
        #expect(try CommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0).encoded() == [0, 0xA4, 4, 0])
        #expect(try CommandAPDU(cla: 0, ins: 0xB0, p1: 0x95, p2: 0, le: 0x1E).encoded() == [0, 0xB0, 0x95, 0, 0x1E])
        #expect(try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, le: 256).encoded() == [0, 0xB0, 0, 0, 0x00])
        #expect(try CommandAPDU(cla: 0, ins: 0xA4, p1: 0, p2: 0x0C, data: [0x3F, 0x00]).encoded() == [0, 0xA4, 0, 0x0C, 2, 0x3F, 0x00])
        #expect(
            try CommandAPDU.select(aid: Hex.parse("A00000000386980701")).encoded()
                == Hex.parse("00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"))
    }

    @Test func extendedCasesEncodeExactly() throws {
        #expect(try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, le: 65536).encoded() == [0, 0xB0, 0, 0, 0, 0, 0])
        #expect(try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, le: 257).encoded() == [0, 0xB0, 0, 0, 0, 0x01, 0x01])
        let data = [UInt8](repeating: 0xAB, count: 300)
        #expect(try CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: data).encoded() == [0, 0xD6, 0, 0, 0, 0x01, 0x2C] + data)
        #expect(
            try CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: data, le: 65536).encoded()
                == [0, 0xD6, 0, 0, 0, 0x01, 0x2C] + data + [0, 0])
    }

    @Test func invalidCombinationsAreErrorsNotTraps() {
        #expect(throws: CommandAPDU.EncodingError.dataTooLong(65536)) {
            try CommandAPDU(cla: 0, ins: 0, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536)).encoded()
        }
        #expect(throws: CommandAPDU.EncodingError.leOutOfRange(0)) { try CommandAPDU(cla: 0, ins: 0, p1: 0, p2: 0, le: 0).encoded() }
        #expect(throws: CommandAPDU.EncodingError.leOutOfRange(65537)) {
            try CommandAPDU(cla: 0, ins: 0, p1: 0, p2: 0, le: 65537).encoded()
        }
        #expect(throws: CommandAPDU.EncodingError.tooShort(3)) { try CommandAPDU(bytes: [0, 0xA4, 4]) }
        #expect(throws: CommandAPDU.EncodingError.lengthMismatch(expected: 5, actual: 2)) {
            try CommandAPDU(bytes: [0, 0xA4, 4, 0, 5, 1, 2])
        }
        #expect(throws: CommandAPDU.EncodingError.malformedExtendedLength) { try CommandAPDU(bytes: [0, 0xA4, 4, 0, 0, 1]) }
    }

    @Test func parsesEachCase() throws {
        #expect(try CommandAPDU(hex: "00 A4 04 00").apduCase == .one)
        let c2 = try CommandAPDU(hex: "80 5C 00 02 04")
        #expect(c2.apduCase == .two && c2.le == 4)
        #expect(try CommandAPDU(hex: "00 B0 00 00 00").le == 256)
        let c3 = try CommandAPDU(hex: "00 A4 00 0C 02 3F 00")
        #expect(c3.apduCase == .three && c3.data == [0x3F, 0])
        let c4 = try CommandAPDU(hex: "00 A4 04 00 02 AA BB 00")
        #expect(c4.apduCase == .four && c4.le == 256)
        let c2e = try CommandAPDU(hex: "00 B0 00 00 00 00 00")
        #expect(c2e.le == 65536 && c2e.isExtended)
    }

    /// Commands of every ISO/IEC 7816-3 §12.1 case in like measure: `shape` picks no data, short
    /// data or extended data, and no Le, a short Le (1…256) or an extended one.
    static let shortOrExtended = zip(
        Gen<UInt8>.uint8(), Gen<UInt8>.uint8(), Gen<UInt8>.uint8(), Gen<UInt8>.uint8(),
        zip(Gen<Int>.int(in: 0...2), Gen<UInt8>.uint8().array(of: 1...300)).map { shape, bytes -> [UInt8] in
            switch shape {
            case 0: return []
            case 1: return Array(bytes.prefix(255))
            default: return bytes + [UInt8](repeating: 0xAB, count: max(0, 256 - bytes.count))
            }
        },
        zip(Gen<Int>.int(in: 0...2), Gen<Int>.int(in: 1...65536)).map { shape, n -> Int in shape == 0 ? 0 : shape == 1 ? n % 256 + 1 : n },
        Gen<Bool>.bool)

    /// encode → parse → encode is the identity for every case, short and extended; all four
    /// cases come up.
    @Test func roundTripProperty() async {
        let seen = Mutex<Set<Int>>([])
        await propertyCheck(count: 400, input: Self.shortOrExtended) { cla, ins, p1, p2, data, leRaw, ext in
            let le: Int? = leRaw == 0 ? nil : min(leRaw, 65536)
            seen.withLock { _ = $0.insert((data.isEmpty ? 1 : 3) + (le == nil ? 0 : 1)) }
            let command = CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, data: data, le: le, forceExtended: ext)
            guard let bytes = try? command.encoded() else {
                Issue.record("valid command failed to encode")
                return
            }
            guard let parsed = try? CommandAPDU(bytes: bytes) else {
                Issue.record("parse failed: \(bytes.hexString)")
                return
            }
            #expect(parsed.cla == cla && parsed.ins == ins && parsed.p1 == p1 && parsed.p2 == p2)
            #expect(parsed.data == data)
            #expect(parsed.le == le)
            #expect((try? parsed.encoded()) == bytes)
        }
        #expect(seen.withLock { $0 } == [1, 2, 3, 4], "cases 1–4 of ISO/IEC 7816-3 §12.1")
    }

    /// Random byte strings either parse to a command that re-encodes to the same bytes, or throw.
    @Test func randomBytesNeverCrash() async {
        await propertyCheck(count: 1000, input: Gen<UInt8>.uint8().array(of: 0...40)) { bytes in
            if let c = try? CommandAPDU(bytes: bytes) { #expect((try? c.encoded()) == bytes) }
        }
    }

    @Test func verifyDataIsSecretInDescriptions() throws {
        let v = CommandAPDU.verify(reference: 0x81, pin: [0x31, 0x32, 0x33, 0x34])
        #expect(v.description == "00 20 00 81 04 .. .. .. ..")
        #expect(WireRedaction.secretRange(in: try v.encoded()) == 5..<9)
        #expect(WireRedaction.secretRange(in: try CommandAPDU.getChallenge().encoded()) == nil)
    }

    @Test func buildersEncodeTheBytesTheSourcesUse() throws {
        #expect(try CommandAPDU.readBinary(sfi: 0x15, length: 0x1E).encoded() == Hex.parse("00 B0 95 00 1E"))
        #expect(try CommandAPDU.readRecord(1, sfi: 0x18, length: 0x17).encoded() == Hex.parse("00 B2 01 C4 17"))
        #expect(try CommandAPDU.readRecord(1, sfi: 0x18, allFromNumber: true, length: 256).encoded() == Hex.parse("00 B2 01 C5 00"))
        #expect(try CommandAPDU.getBalance().encoded() == Hex.parse("80 5C 00 02 04"))
        #expect(try CommandAPDU.cepasReadPurse(3).encoded() == Hex.parse("90 32 03 00 00"))
        #expect(try CommandAPDU.select(fileID: 0x3F00, returning: .none).encoded() == Hex.parse("00 A4 00 0C 02 3F 00"))
        #expect(try CommandAPDU.select(path: [0x1001, 0x0015]).encoded() == Hex.parse("00 A4 08 00 04 10 01 00 15 00"))
        #expect(try CommandAPDU.select(aid: [0xA0], occurrence: .next).encoded() == Hex.parse("00 A4 04 02 01 A0 00"))
        #expect(try CommandAPDU.getResponse(length: 0x32).encoded() == Hex.parse("00 C0 00 00 32"))
        #expect(try CommandAPDU.getData(tag: 0x9F36, length: 2).encoded() == Hex.parse("00 CA 9F 36 02"))
        #expect(try CommandAPDU.readBinary(offset: 0x0102, length: 16).encoded() == Hex.parse("00 B0 01 02 10"))
        #expect(try CommandAPDU.getChallenge().encoded() == Hex.parse("00 84 00 00 08"))
    }
}
