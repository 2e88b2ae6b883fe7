import PropertyBased
import Testing

@testable import APDU

@Suite struct ATRTests {
    static let shanghai: [UInt8] = try! Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52")

    @Test func shanghaiATRBreaksDown() throws {
        let atr = try ATR(bytes: Self.shanghai)
        #expect(atr.ts == 0x3B && atr.t0 == 0x8B)
        #expect(atr.interfaceGroups.count == 2)
        #expect(atr.interfaceGroups[0].td == 0x80)
        #expect(atr.interfaceGroups[1].td == 0x01)
        #expect(atr.protocols == [0, 1])
        #expect(atr.historicalBytes == (try Hex.parse("20 85 00 8B 03 0F E0 9A A0 E0 40")))
        #expect(atr.tck == 0x52)
    }

    @Test func t0OnlyATRHasNoTCK() throws {
        let atr = try ATR(bytes: Hex.parse("3B 02 14 50"))
        #expect(atr.protocols == [0] && atr.tck == nil && atr.historicalBytes == [0x14, 0x50])
        let withTA = try ATR(bytes: Hex.parse("3B 9F 95 81 31 FE 9F 00 66 46 53 05 10 00 11 71 DF 00 00 00 00 00 02"))
        #expect(withTA.interfaceGroups[0].ta == 0x95)
    }

    @Test func badTCKAndBadTSAreErrors() throws {
        var bad = Self.shanghai
        bad[bad.count - 1] ^= 1
        #expect(throws: ATR.ParseError.tckMismatch(expected: 0x52, actual: 0x53)) { try ATR(bytes: bad) }
        #expect(throws: ATR.ParseError.invalidTS(0x3C)) { try ATR(bytes: [0x3C, 0x00]) }
        #expect(throws: ATR.ParseError.trailingBytes(1)) { try ATR(bytes: [0x3B, 0x00, 0x00]) }
    }

    @Test func dripFedATRGivesCleanErrors() {
        for prefix in prefixes(Self.shanghai) {
            #expect(throws: ATR.ParseError.self) { try ATR(bytes: prefix) }
        }
    }

    /// Random bytes after a valid TS (so the parser gets past the first byte): each either
    /// parses to an ATR that keeps its bytes and has the historical bytes T0 announces, or is a
    /// typed error.
    @Test func randomBytesParseOrGiveATypedError() async {
        await propertyCheck(count: 2000, input: Gen<Bool>.bool, Gen<UInt8>.uint8().array(of: 0...34)) { direct, tail in
            let bytes = [direct ? 0x3B : 0x3F] + tail
            do {
                let atr = try ATR(bytes: bytes)
                #expect(atr.bytes == bytes && atr.historicalBytes.count == Int(tail[0] & 0x0F))
            } catch let error as ATR.ParseError {
                #expect(!(error.message.isEmpty))
            } catch {
                Issue.record("an untyped error: \(error)")
            }
        }
    }

    /// An ATR built to the rules (interface groups as each TD announces, K historical bytes,
    /// TCK when a protocol other than T=0 is named) always parses back to its parts.
    @Test func wellFormedATRsParseToTheirParts() async {
        await propertyCheck(
            count: 1000, input: Gen<UInt8>.uint8().array(of: 0...3), Gen<UInt8>.uint8().array(of: 0...15), Gen<UInt8>.uint8()
        ) { protocols, historical, interface in
            // TD1…: each names a protocol (low nibble) and announces TA/TB/TC from `interface`'s bits.
            let groups = protocols.map { $0 & 0x0F }
            let presence = interface & 0x70  // which of TA, TB, TC each group has
            let interfaceBytes = ([0x10, 0x20, 0x40] as [UInt8]).filter { presence & $0 != 0 }
            var body: [UInt8] = [(groups.isEmpty ? 0 : 0x80) | presence | UInt8(historical.count)]
            body += interfaceBytes  // TA1, TB1, TC1
            for (i, proto) in groups.enumerated() {
                body.append((i + 1 < groups.count ? 0x80 : 0) | presence | proto)  // TDi, announcing group i+1
                body += interfaceBytes
            }
            body += historical
            let needsTCK = groups.contains { $0 != 0 }
            if needsTCK { body.append(body.reduce(0, ^)) }
            let bytes = [0x3B] + body
            guard let atr = try? ATR(bytes: bytes) else {
                Issue.record("a well-formed ATR did not parse: \(bytes.hexString)")
                return
            }
            #expect(atr.historicalBytes == historical)
            #expect((atr.tck != nil) == needsTCK)
            #expect(atr.protocols.contains { groups.isEmpty || groups.contains(UInt8($0)) } || groups.isEmpty)
        }
    }
}
