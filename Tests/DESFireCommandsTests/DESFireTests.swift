import APDU
import DESFireCommands
import PropertyBased
import Testing

/// A card that answers exactly these exchanges, in this order (a strict transcript replay:
/// any other command is an error, so the commands sent are checked too).
func card(_ exchanges: [(String, String)]) throws -> CardExchange {
    let text = (["# cardscan transcript 1"] + exchanges.flatMap { ["> " + $0.0, "< " + $0.1] }).joined(separator: "\n")
    return CardExchange(channel: ReplayChannel(try Transcript(parsing: text)))
}

func prefixes(_ bytes: [UInt8]) -> [[UInt8]] { (0..<bytes.count).map { Array(bytes.prefix($0)) } }

@Suite struct DESFireCommandTests {
    @Test func commandsAreWrappedAsTheDataSheetSays() throws {
        #expect(try DESFireCommand.getVersion.apdu.encoded() == [0x90, 0x60, 0x00, 0x00, 0x00])
        #expect(try DESFireCommand.getApplicationIDs.apdu.encoded().hexString == "90 6A 00 00 00")
        let orca = try DESFireAID(hex: "3010F2")
        #expect(orca.value == 0x3010F2)
        #expect(try DESFireCommand.selectApplication(orca).apdu.encoded().hexString == "90 5A 00 00 03 30 10 F2 00")
        let file = try DESFireFileNumber(4)
        #expect(try DESFireCommand.getFileSettings(file).apdu.encoded().hexString == "90 F5 00 00 01 04 00")
        #expect(try DESFireCommand.getValue(file).apdu.encoded().hexString == "90 6C 00 00 01 04 00")
        // Offset and length are 3 bytes, least significant first; 0 = everything.
        #expect(
            try DESFireCommand.readData(file, offset: 0x010203, length: 0x20).apdu.encoded().hexString
                == "90 BD 00 00 07 04 03 02 01 20 00 00 00")
        #expect(
            try DESFireCommand.readRecords(try DESFireFileNumber(2)).apdu.encoded().hexString == "90 BB 00 00 07 02 00 00 00 00 00 00 00")
        #expect(try DESFireCommand.additionalFrame.apdu.encoded().hexString == "90 AF 00 00 00")
        #expect(throws: DESFireError.self) { try DESFireCommand.readData(file, offset: 0x1000000) }
        #expect(throws: DESFireError.self) { try DESFireFileNumber(32) }
        #expect(throws: DESFireError.self) { try DESFireAID(hex: "3010") }
        // A wrapped APDU gives its native command back.
        let back = try #require(DESFireCommand(wrapped: try CommandAPDU(hex: "90 F5 00 00 01 04 00")))
        #expect(back == .getFileSettings(file))
        #expect(DESFireCommand(wrapped: try CommandAPDU(hex: "00 A4 04 00 00")) == nil)
    }

    /// The read list and the write list never overlap; every command a profile could make reads.
    @Test func readsAndWritesAreApart() {
        #expect(Set(DESFireInstruction.reads.keys).isDisjoint(with: DESFireInstruction.changing.keys))
        for c: DESFireCommand in [.getVersion, .getApplicationIDs, .getFileIDs, .getFreeMemory, .additionalFrame] {
            #expect(c.instruction.isReadOnly)
        }
        #expect(!DESFireInstruction(rawValue: 0xDC).isReadOnly)
        #expect(DESFireInstruction(rawValue: 0xDC).description == "Debit (DC)")
    }
}

@Suite struct DESFireAnswerTests {
    static let version = "04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 11 22 33 44 55 66 BA 44 39 52 80 40 09"

    /// GetVersion in three frames, chained with ADDITIONAL FRAME.
    @Test func chainedFramesAreJoined() throws {
        let session = DESFireSession(
            exchange: try card([
                ("90 60 00 00 00", "04 01 01 01 00 18 05 91 AF"), ("90 AF 00 00 00", "04 01 01 01 04 18 05 91 AF"),
                ("90 AF 00 00 00", "04 11 22 33 44 55 66 BA 44 39 52 80 40 09 91 00"),
            ]))
        let data = try session.send(.getVersion)
        let v = try DESFireVersion(data)
        #expect(v.bytes.hexString == Self.version)
        #expect(v.uid.hexString == "04 11 22 33 44 55 66" && v.generation == "EV1" && v.storageBytes == 4096)
        #expect(v.productionWeek == 0x40 && v.productionYear == 0x09)
    }

    @Test func statusesAreTypedWithMessages() throws {
        let locked = DESFireSession(exchange: try card([("90 6A 00 00 00", "91 AE")]))
        #expect(throws: DESFireError.status(.authenticationError, command: .getApplicationIDs)) { try locked.send(.getApplicationIDs) }
        let e = DESFireError.status(.authenticationError, command: .getApplicationIDs)
        #expect(e.message == "GetApplicationIDs (6A) answered 91 AE: authentication error (a key is needed)")
        #expect(e.hint?.contains("needs a key") == true)
        let noFile = DESFireSession(exchange: try card([("90 F5 00 00 01 09 00", "91 F0")]))
        #expect(throws: DESFireError.status(.fileNotFound, command: .getFileSettings)) {
            try noFile.send(.getFileSettings(try DESFireFileNumber(9)))
        }
        // A bank card answers a native command with an ISO status word: not DESFire.
        let bank = DESFireSession(exchange: try card([("90 60 00 00 00", "6E 00")]))
        #expect(throws: DESFireError.notDESFire(StatusWord(0x6E, 0x00), command: .getVersion)) { try bank.send(.getVersion) }
        #expect(DESFireStatus(rawValue: 0x7E).description == "91 7E: length error")
        #expect(DESFireStatus.permissionDenied.needsKey && !DESFireStatus.boundaryError.needsKey)
    }

    /// A card that answers 91 AF for ever is cut off.
    @Test func endlessFramesAreBounded() throws {
        let exchange = try card(
            [("90 BD 00 00 07 01 00 00 00 00 00 00 00", "00 91 AF")] + Array(repeating: ("90 AF 00 00 00", "00 91 AF"), count: 20))
        let session = DESFireSession(exchange: exchange, maxFrames: 8)
        #expect(throws: DESFireError.tooManyFrames(8, command: .readData)) { try session.send(try .readData(try DESFireFileNumber(1))) }
        #expect(exchange.roundTrips == 8)
    }

    @Test func idListsAreWhole() throws {
        #expect(try DESFireAID.list(try Hex.parse("F2 10 30 EF 20 11")).map(\.description) == ["F21030", "EF2011"])
        #expect(try DESFireAID.list([]).isEmpty)
        #expect(throws: DESFireError.self) { try DESFireAID.list([1, 2, 3, 4]) }
        #expect(try DESFireFileNumber.list([0, 4, 31]).map(\.value) == [0, 4, 31])
        #expect(throws: DESFireError.self) { try DESFireFileNumber.list([0, 32]) }
        #expect(try DESFireFileSettings.value([0xD2, 0x04, 0, 0]) == 1234)
        #expect(try DESFireFileSettings.value([0xFF, 0xFF, 0xFF, 0xFF]) == -1)
        #expect(throws: DESFireError.self) { try DESFireFileSettings.value([1, 2, 3]) }
    }
}

@Suite struct DESFireFileSettingsTests {
    /// ORCA's trip file as Metrodroid's test gives its settings: a cyclic record file, plain,
    /// read free (E), 48-byte records, 5 of 5.
    @Test func aCyclicRecordFile() throws {
        let s = try DESFireFileSettings(try Hex.parse("04 00 32 E4 30 00 00 05 00 00 05 00 00"))
        #expect(s.type == .cyclicRecord && s.communication == .plain)
        #expect(s.access.read == 0x0E && s.access.write == 0x04 && s.access.readWrite == 0x03 && s.access.change == 0x02)
        #expect(!s.readNeedsKey)
        #expect(s.sizes == .records(recordSize: 48, maxRecords: 5, currentRecords: 5))
        #expect(s.readCommand(try DESFireFileNumber(2)) == (try DESFireCommand.readRecords(try DESFireFileNumber(2))))
    }

    @Test func dataAndValueFiles() throws {
        let std = try DESFireFileSettings(try Hex.parse("00 00 00 11 20 00 00"))  // read key 1, RW key 0
        #expect(std.type == .standard && std.sizes == .data(size: 32) && std.readNeedsKey)
        let value = try DESFireFileSettings(try Hex.parse("02 00 EE EE 00 00 00 00 A0 86 01 00 00 00 00 00 01"))
        #expect(value.sizes == .value(lower: 0, upper: 100_000, limitedCredit: 0, limitedCreditEnabled: true))
        #expect(value.readCommand(try DESFireFileNumber(5)) == .getValue(try DESFireFileNumber(5)))
    }

    /// Every prefix, a trailing byte and an unknown type or mode are refused with a reason.
    @Test func truncatedAndOddSettingsAreRefused() throws {
        for good in [
            "04 00 32 E4 30 00 00 05 00 00 05 00 00", "00 00 E0 EE 20 00 00", "02 03 EE EE 00 00 00 00 A0 86 01 00 00 00 00 00 00",
        ] {
            let b = try Hex.parse(good)
            for p in prefixes(b) { #expect(throws: DESFireError.self) { try DESFireFileSettings(p) } }
            #expect(throws: DESFireError.self) { try DESFireFileSettings(b + [0]) }
        }
        #expect(throws: DESFireError.malformed(what: "file settings", reason: "file type 05 is not one of 00…04")) {
            try DESFireFileSettings([5, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: DESFireError.self) { try DESFireFileSettings([0, 2, 0, 0, 0, 0, 0]) }
        for p in prefixes(try Hex.parse(DESFireAnswerTests.version)) { #expect(throws: DESFireError.self) { try DESFireVersion(p) } }
        #expect(throws: DESFireError.self) { try DESFireVersion(try Hex.parse(DESFireAnswerTests.version) + [0]) }
    }

    static let settings = zip(
        Gen<Int>.int(in: 0...4), Gen<Int>.int(in: 0...2), Gen<UInt8>.uint8(), Gen<UInt8>.uint8(),
        Gen<Int>.int(in: 0...0xFF_FFFF), Gen<Int>.int(in: 0...0xFF_FFFF), Gen<Int>.int(in: 0...0xFF_FFFF), Gen<Bool>.bool)

    /// settings → bytes → settings is the identity, for every type.
    @Test func roundTripProperty() async {
        await propertyCheck(count: 500, input: Self.settings) { t, c, lo, hi, a, b, n, flag in
            let type = DESFireFileSettings.FileType.allCases[t]
            let comm = DESFireFileSettings.Communication.allCases[c]
            let sizes: DESFireFileSettings.Sizes
            switch type {
            case .standard, .backup: sizes = .data(size: a)
            case .value: sizes = .value(lower: Int32(-a), upper: Int32(b), limitedCredit: Int32(n), limitedCreditEnabled: flag)
            case .linearRecord, .cyclicRecord: sizes = .records(recordSize: a, maxRecords: b, currentRecords: n)
            }
            let s = DESFireFileSettings(type: type, communication: comm, access: .init(lo, hi), sizes: sizes)
            #expect((try? DESFireFileSettings(s.bytes)) == s, "\(s.bytes.hexString)")
        }
    }

    /// Random bytes never trap.
    @Test func randomBytesNeverCrash() async {
        await propertyCheck(count: 2000, input: Gen<UInt8>.uint8().array(of: 0...40)) { bytes in
            _ = try? DESFireFileSettings(bytes)
            _ = try? DESFireVersion(bytes)
            _ = try? DESFireAID.list(bytes)
            _ = try? DESFireFileNumber.list(bytes)
        }
    }
}
