import PropertyBased
import Testing

@testable import APDU

@Suite struct BERTLVTests {
    @Test func realFCIParsesToTheTagPath() throws {
        let fci = try BERTLV.parse(sampleFCI)
        let info = try #require(fci.first(path: "6F/A5/9F0C"))
        #expect(info.value.count == 30)
        #expect(info.value == sampleEF15)
        #expect(fci.first(path: "6F/84")?.value == (try Hex.parse("A00000000386980701")))
        #expect(fci.first(path: "6F/A5/9F08")?.value == [0x02])
        #expect(fci.first(path: "6F/A5/50") == nil)
        #expect(fci.prettyPrinted().split(separator: "\n").first == "6F (50 bytes)")
        #expect(fci.prettyPrinted().contains("    9F08: 02"))
    }

    @Test func multiByteTagsAndLongLengths() throws {
        let value = [UInt8](repeating: 0x55, count: 300)
        let node = try BERTLV.parse([0x9F, 0x81, 0x01, 0x82, 0x01, 0x2C] + value)
        #expect(node.tag.bytes == [0x9F, 0x81, 0x01])
        #expect(node.value.count == 300)
        #expect(try BERTLV.parse([0x5F, 0x20, 0x81, 0x01, 0x41]).value == [0x41])
    }

    /// At most 4 tag bytes: the fifth byte of a tag is refused whatever its bit 8 says (a
    /// 5-byte tag ending in a byte with bit 8 clear was accepted).
    @Test func tagsAreAtMostFourBytes() throws {
        #expect(try BERTLV.parse([0x1F, 0x81, 0x82, 0x03, 0x01, 0xAA]).tag.bytes == [0x1F, 0x81, 0x82, 0x03])
        #expect(throws: BERTLV.ParseError.tagTooLong(offset: 0)) { try BERTLV.parse([0x1F, 0x81, 0x82, 0x83, 0x04, 0x01, 0xAA]) }
        #expect(BERTLV.lengthBytes(-1) == [0x00])  // no trap
    }

    @Test func rejectsIndefiniteLengthAndTrailingBytes() {
        #expect(throws: BERTLV.ParseError.indefiniteLength(offset: 1)) { try BERTLV.parse([0x6F, 0x80, 0x00, 0x00]) }
        #expect(throws: BERTLV.ParseError.trailingBytes(offset: 3, count: 1)) { try BERTLV.parse([0x84, 0x01, 0xA0, 0x00]) }
        #expect(throws: BERTLV.ParseError.valueOverrun(offset: 0, declared: 5, available: 1)) { try BERTLV.parse([0x84, 0x05, 0xA0]) }
    }

    @Test func depthIsCapped() {
        var bytes: [UInt8] = [0x80, 0x00]
        for _ in 0..<40 { bytes = [0xA0, UInt8(bytes.count)] + bytes }
        #expect(throws: BERTLV.ParseError.self) { try BERTLV.parse(bytes.count < 256 ? bytes : []) }
        var deep: [UInt8] = [0x80, 0x00]
        for _ in 0..<20 { deep = [0xA0, UInt8(deep.count)] + deep }
        #expect { try BERTLV.parse(deep) } throws: {
            ($0 as? BERTLV.ParseError).map { if case .tooDeep = $0 { true } else { false } } ?? false
        }
    }

    @Test func dripFedFCIGivesCleanErrors() {
        for prefix in prefixes(sampleFCI) {
            #expect(throws: BERTLV.ParseError.self) { try BERTLV.parse(prefix) }
        }
    }

    /// Random bytes either parse to objects whose values are slices of the input, in order and
    /// whole (written again with their definite lengths, they parse to the same objects), or
    /// give a typed error.
    @Test func randomBytesParseOrGiveATypedError() async {
        await propertyCheck(count: 2000, input: Gen<UInt8>.uint8().array(of: 0...64)) { bytes in
            do {
                let nodes = try BERTLV.parseAll(bytes)
                let again = nodes.flatMap { $0.tag.bytes + BERTLV.lengthBytes($0.value.count) + $0.value }
                #expect(try BERTLV.parseAll(again) == nodes)
                #expect(again.count <= bytes.count)  // BER may write a length longer than needed, never shorter
            } catch let error as BERTLV.ParseError {
                #expect(!(error.message.isEmpty))
            } catch {
                Issue.record("an untyped error: \(error)")
            }
        }
    }

    /// Objects written with minimal lengths (primitive values of random size, some inside a
    /// constructed 70) parse back to the same tags and values and re-encode to the same bytes.
    @Test func encodedObjectsParseBack() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.uint8().array(of: 0...200).array(of: 1...4), Gen<Bool>.bool) { values, wrap in
            let tags: [[UInt8]] = [[0x5A], [0x9F, 0x36], [0x5F, 0x20], [0x84]]
            var encoded: [UInt8] = []
            for (i, v) in values.enumerated() { encoded += tags[i % tags.count] + BERTLV.lengthBytes(v.count) + v }
            if wrap { encoded = [0x70] + BERTLV.lengthBytes(encoded.count) + encoded }
            guard let nodes = try? BERTLV.parseAll(encoded) else {
                Issue.record("did not parse: \(encoded.hexString)")
                return
            }
            let leaves = wrap ? nodes[0].children : nodes
            #expect(leaves.map(\.value) == values)
            #expect(leaves.map(\.tag.bytes) == values.indices.map { tags[$0 % tags.count] })
        }
    }

    @Test func pathSyntax() throws {
        #expect(try BERTLV.path("6F/A5/9F0C").map(\.description) == ["6F", "A5", "9F0C"])
        #expect(throws: BERTLV.ParseError.invalidPath("6F//A5")) { try BERTLV.path("6F//A5") }
        #expect(throws: BERTLV.ParseError.invalidPath("9F")) { try BERTLV.path("9F") }
    }

    /// KS X 6924's FCI: `B0` says "constructed" but holds the 47 raw purse bytes. The path
    /// ends there and gives the bytes; going through it finds nothing.
    @Test func aConstructedTagOverRawBytesIsKeptAsBytes() throws {
        let purse: [UInt8] = [0x00, 0x10, 0x01, 0x08] + [UInt8](repeating: 0xFF, count: 43)
        let fci = try BERTLV.parse([0x6F, 0x31, 0xB0, 0x2F] + purse)
        let b0 = try #require(fci.first(path: "6F/B0"))
        #expect(b0.value == purse)
        #expect(b0.isOpaque && b0.children.isEmpty)
        #expect(fci.first(path: "6F/B0/10") == nil)
        #expect(!fci.isOpaque && fci.children.count == 1)
        // A well-formed constructed value still has its children.
        let nested = try BERTLV.parse([0x6F, 0x05, 0xA5, 0x03, 0x88, 0x01, 0x02])
        #expect(nested.first(path: "6F/A5/88")?.value == [0x02])
        #expect(nested.first(path: "6F/A5")?.isOpaque == false)
        // An overrun of the outer object is still an error.
        #expect(throws: BERTLV.ParseError.self) { try BERTLV.parse([0x6F, 0x31, 0xB0, 0x2F] + purse.dropLast()) }
    }
}
