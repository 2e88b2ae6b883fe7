import APDU
import Testing

@testable import FeliCaCommands

@Suite struct FeliCaFrameTests {
    let idm = try! IDm(Hex.parse("01 2E 4C D0 1A 2B 3C 4D"))
    let pmm = try! PMm(Hex.parse("03 01 4B 02 4F 49 93 FF"))

    @Test func pollingFrames() throws {
        #expect(try FeliCaCommand.polling(systemCode: SystemCode(0x8008), requestCode: 1) == (try Hex.parse("06 00 80 08 01 00")))
        #expect(try FeliCaCommand.polling() == (try Hex.parse("06 00 FF FF 00 00")))
        #expect(try FeliCaCommand.polling(systemCode: .ndef, timeSlots: 15) == (try Hex.parse("06 00 12 FC 00 0F")))
        #expect(throws: FeliCaError.self) { try FeliCaCommand.polling(timeSlots: 2) }
        #expect(throws: FeliCaError.self) { try FeliCaCommand.polling(requestCode: 3) }
        let answer = try Hex.parse("14 01") + idm.bytes + pmm.bytes + [0x80, 0x08]
        let p = try FeliCaResponse.polling(answer)
        #expect(p.idm == idm && p.pmm == pmm && p.systemCode == SystemCode(0x8008))
        #expect(try FeliCaResponse.polling(try Hex.parse("12 01") + idm.bytes + pmm.bytes).requestData == nil)
    }

    @Test func readWithoutEncryptionFrames() throws {
        let one = try FeliCaCommand.readWithoutEncryption(
            idm, services: [ServiceCode(0x008B)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 0)])
        #expect(one == (try Hex.parse("10 06") + idm.bytes + Hex.parse("01 8B 00 01 80 00")))
        // Two services, a 3-byte block element (block 0x0123, little-endian as nfcpy does).
        let two = try FeliCaCommand.readWithoutEncryption(
            idm, services: [ServiceCode(0x090F), ServiceCode(0x008B)],
            blocks: [BlockListElement(serviceIndex: 0, blockNumber: 19), BlockListElement(serviceIndex: 1, blockNumber: 0x0123)])
        #expect(two == (try Hex.parse("15 06") + idm.bytes + Hex.parse("02 0F 09 8B 00 02 80 13 01 23 01")))
        #expect(throws: FeliCaError.invalidArgument("1…15 blocks per command, not 16")) {
            try FeliCaCommand.readWithoutEncryption(
                idm, services: [ServiceCode(0x090F)],
                blocks: (0..<16).map { try BlockListElement(serviceIndex: 0, blockNumber: UInt16($0)) })
        }
        #expect(throws: FeliCaError.self) {
            try FeliCaCommand.readWithoutEncryption(
                idm, services: [ServiceCode(0x090F)], blocks: [BlockListElement(serviceIndex: 1, blockNumber: 0)])
        }
    }

    @Test func readResponsesAreChecked() throws {
        let block = [UInt8](0..<16)
        let ok = try Hex.parse("1D 07") + idm.bytes + [0x00, 0x00, 0x01] + block
        #expect(try FeliCaResponse.readWithoutEncryption(ok, idm: idm) == [block])
        let error = try Hex.parse("0C 07") + idm.bytes + [0x01, 0xA8]
        #expect(throws: FeliCaError.status(StatusFlags(0x01, 0xA8))) { try FeliCaResponse.readWithoutEncryption(error, idm: idm) }
        #expect(StatusFlags(0x01, 0xA8).description == "status 01 A8: illegal block number (block list element 1)")
        #expect(StatusFlags(0xFF, 0xA5).description == "status FF A5: access not allowed")
        let other = try IDm(Hex.parse("01 01 01 01 01 01 01 01"))
        #expect(throws: FeliCaError.wrongIDm(expected: other.bytes, actual: idm.bytes)) {
            try FeliCaResponse.readWithoutEncryption(ok, idm: other)
        }
        var badCode = ok
        badCode[1] = 0x09
        #expect(throws: FeliCaError.wrongResponseCode(expected: 0x07, actual: 0x09)) {
            try FeliCaResponse.readWithoutEncryption(badCode, idm: idm)
        }
        var badLen = ok
        badLen[0] = 0x1C
        #expect(throws: FeliCaError.lengthByteMismatch(declared: 0x1C, actual: 0x1D)) {
            try FeliCaResponse.readWithoutEncryption(badLen, idm: idm)
        }
    }

    /// Every strict prefix of a valid response is a clean error.
    @Test func dripFedResponses() throws {
        let frames: [[UInt8]] = [
            try Hex.parse("1D 07") + idm.bytes + [0x00, 0x00, 0x01] + [UInt8](repeating: 7, count: 16),
            try Hex.parse("14 01") + idm.bytes + pmm.bytes + [0x80, 0x08],
        ]
        for prefixLength in 0..<frames[0].count {
            var f = Array(frames[0].prefix(prefixLength))
            if !f.isEmpty { f[0] = UInt8(f.count) }
            #expect(throws: FeliCaError.self) { try FeliCaResponse.readWithoutEncryption(f, idm: idm) }
        }
        for prefixLength in 0..<frames[1].count where prefixLength != 18 {
            var f = Array(frames[1].prefix(prefixLength))
            if !f.isEmpty { f[0] = UInt8(f.count) }
            #expect(throws: FeliCaError.self) { try FeliCaResponse.polling(f) }
        }
    }

    @Test func otherCommandsRoundTrip() throws {
        #expect(FeliCaCommand.requestResponse(idm) == [0x0A, 0x04] + idm.bytes)
        #expect(try FeliCaResponse.requestResponse([0x0B, 0x05] + idm.bytes + [0x00], idm: idm) == 0)
        #expect(FeliCaCommand.requestSystemCode(idm) == [0x0A, 0x0C] + idm.bytes)
        #expect(
            try FeliCaResponse.requestSystemCode([0x0F, 0x0D] + idm.bytes + [0x02, 0x00, 0x03, 0xFE, 0x00], idm: idm) == [
                SystemCode(0x0003), SystemCode(0xFE00),
            ])
        #expect(try FeliCaCommand.requestService(idm, nodes: [ServiceCode(0x090F)]) == [0x0D, 0x02] + idm.bytes + [0x01, 0x0F, 0x09])
        #expect(try FeliCaResponse.requestService([0x0D, 0x03] + idm.bytes + [0x01, 0xFF, 0xFF], idm: idm) == [0xFFFF])
        let write = try FeliCaCommand.writeWithoutEncryption(
            idm, services: [ServiceCode(0x0009)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 1)],
            data: [[UInt8](repeating: 0x41, count: 16)])
        #expect(
            write.count == 0x20 && write[0] == 0x20 && write[1] == 0x08 && Array(write[10..<16]) == [0x01, 0x09, 0x00, 0x01, 0x80, 0x01])
        #expect(throws: Never.self) { try FeliCaResponse.writeWithoutEncryption([0x0C, 0x09] + idm.bytes + [0x00, 0x00], idm: idm) }
        #expect(throws: FeliCaError.badLength(field: "block data", expected: 16, actual: 3)) {
            try FeliCaCommand.writeWithoutEncryption(
                idm, services: [ServiceCode(0x0009)], blocks: [BlockListElement(serviceIndex: 0, blockNumber: 1)], data: [[1, 2, 3]])
        }
    }

    /// Search Service Code: services are 2 bytes, areas 4 (code, end), FF FF ends the list;
    /// every other length is an error, and every strict prefix too.
    @Test func searchServiceCodeFrames() throws {
        #expect(FeliCaCommand.searchServiceCode(idm, index: 0x0123) == [0x0C, 0x0A] + idm.bytes + [0x23, 0x01])
        func answer(_ tail: String) throws -> [UInt8] {
            let t = try Hex.parse(tail)
            return [UInt8(10 + t.count), 0x0B] + idm.bytes + t
        }
        #expect(try FeliCaResponse.searchServiceCode(answer("00 00 FE FF"), idm: idm) == .area(code: 0x0000, end: 0xFFFE))
        #expect(try FeliCaResponse.searchServiceCode(answer("C0 1C 3F 23"), idm: idm) == .area(code: 0x1CC0, end: 0x233F))
        #expect(try FeliCaResponse.searchServiceCode(answer("CA 1C"), idm: idm) == .service(ServiceCode(0x1CCA)))
        #expect(try FeliCaResponse.searchServiceCode(answer("FF FF"), idm: idm) == nil)
        #expect(throws: FeliCaError.trailingBytes(1)) { try FeliCaResponse.searchServiceCode(answer("00 00 FE FF 00"), idm: idm) }
        #expect(throws: FeliCaError.truncated(command: 0x0A, length: 13)) {
            try FeliCaResponse.searchServiceCode(answer("00 00 FE"), idm: idm)
        }
        #expect(throws: FeliCaError.wrongResponseCode(expected: 0x0B, actual: 0x03)) {
            try FeliCaResponse.searchServiceCode([0x0C, 0x03] + idm.bytes + [0x8B, 0x00], idm: idm)
        }
        let full = try answer("40 00 FF 07")
        for n in 0..<full.count where n != 12 {  // 12 bytes are a whole service answer
            var f = Array(full.prefix(n))
            if !f.isEmpty { f[0] = UInt8(f.count) }
            #expect(throws: FeliCaError.self) { try FeliCaResponse.searchServiceCode(f, idm: idm) }
        }
        #expect(FeliCaNode.area(code: 0x1CC0, end: 0x233F).description == "Area 1CC0h-233Fh")
        #expect(FeliCaNode.areaNumbers(code: 0x1CC0, end: 0x233F) == 0x73...0x8C)
        #expect(FeliCaNode.area(code: 0x0040, end: 0x07FF).packed == [0x40, 0x00, 0xFF, 0x07])
    }

    /// `--trace` lines for FeliCa answers: name, blocks or status; never a throw.
    @Test func responseSummaries() throws {
        #expect(
            FeliCaResponse.summary([0x1D, 0x07] + idm.bytes + [0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 16))
                == "Read Without Encryption, 1 block(s)")
        #expect(
            FeliCaResponse.summary([0x0C, 0x07] + idm.bytes + [0x01, 0xA8])
                == "Read Without Encryption, status 01 A8: illegal block number (block list element 1)")
        #expect(FeliCaResponse.summary([0x0C, 0x0B] + idm.bytes + [0xFF, 0xFF]) == "Search Service Code")
        #expect(FeliCaResponse.summary([0x0B, 0x7F] + idm.bytes + [0x00]) == "response code 7F")
        #expect(FeliCaResponse.summary([0x6D, 0x00]) == "not a FeliCa frame (length byte)")
        #expect(FeliCaResponse.summary([]) == "not a FeliCa frame (length byte)")
    }

    @Test func serviceCodesAndBlockElements() throws {
        #expect(ServiceCode(0x008B).packed == [0x8B, 0x00])
        #expect(ServiceCode(0x008B).number == 2 && ServiceCode(0x008B).attribute == 0x0B && !ServiceCode(0x008B).needsAuthentication)
        #expect(ServiceCode(0x0108).needsAuthentication && !ServiceCode(0x0118).needsAuthentication)
        #expect(ServiceCode(0x0048).description == "Service Code 0048h (Random RW with key)")
        #expect(ServiceCode(number: 0x24, attribute: 0x0F) == ServiceCode(0x090F))
        #expect(try BlockListElement(serviceIndex: 2, blockNumber: 5, accessMode: 1).packed == [0x92, 0x05])
        #expect(try BlockListElement(serviceIndex: 0, blockNumber: 0x1234).packed == [0x00, 0x34, 0x12])
        #expect(throws: FeliCaError.self) { try BlockListElement(serviceIndex: 16, blockNumber: 0) }
        #expect(throws: FeliCaError.badLength(field: "IDm", expected: 8, actual: 7)) { try IDm([1, 2, 3, 4, 5, 6, 7]) }
    }

    /// Found by an audit: `read-blocks: { first: 0xFFFF, count: 2 }` in a profile trapped
    /// converting block 65536 (the loader now refuses it too, at the step's line).
    @Test func aReadPlanPastBlock65535IsRefused() throws {
        #expect(throws: FeliCaError.invalidArgument("2 blocks from block 65535 go past block 65535")) {
            try FeliCaCommand.readPlan(first: 0xFFFF, count: 2, perCommand: 15)
        }
        #expect(throws: FeliCaError.self) { try FeliCaCommand.readPlan(first: 1, count: Int.max, perCommand: 15) }
        let last = try FeliCaCommand.readPlan(first: 0xFFFF, count: 1, perCommand: 15)
        #expect(last.count == 1 && last[0].count == 1 && last[0][0].blockNumber == 0xFFFF)
    }

    /// A full Suica read (balance block + 20 history blocks) in at most 3 commands.
    @Test func readPlanSplitsToTheCardsLimit() throws {
        let plan = try FeliCaCommand.readPlan(count: 20, perCommand: 10)
        #expect(plan.map(\.count) == [10, 10])
        #expect(plan[1].first?.blockNumber == 10)
        #expect(try FeliCaCommand.readPlan(first: 1, count: 4, perCommand: 3).map { $0.map(\.blockNumber) } == [[1, 2, 3], [4]])
        #expect(throws: FeliCaError.self) { try FeliCaCommand.readPlan(count: 3, perCommand: 16) }
    }
}
