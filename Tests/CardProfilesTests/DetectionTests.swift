import APDU
import CardReading
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

@Suite struct DetectionTests {
    /// A City Union card of another city (Xi'an, 71 00) is not Shanghai.
    @Test func shanghaiProfileRefusesAnotherCity() throws {
        let t = try transcript("city-union/xian-full.apdu")
        let shanghai = try builtInRegistry.resolve("shanghai-transit")
        let outcome = try TranscriptReplay.run(t, file: "x", registry: builtInRegistry, explicit: "shanghai-transit", lenient: true)
        #expect(outcome.result.report == nil)
        guard case .notThisCard(let id, let why)? = outcome.result.error else {
            Issue.record("expected notThisCard")
            return
        }
        #expect(id == shanghai.id)
        #expect(why.contains("71 00") && why.contains("20 00"), "\(why)")
        #expect(outcome.result.error?.isNotRecognised == true)
    }

    @Test func detectionPicksCityUnionForXian() throws {
        var t = try transcript("city-union/xian-full.apdu")
        t.headers.removeAll { $0.key == "profile" }
        let outcome = try TranscriptReplay.run(t, file: "x", registry: builtInRegistry, lenient: true)
        #expect(outcome.profile?.id == "city-union")
        #expect(outcome.result.report?.card["city"] == .string("7100"))
    }

    /// With the Shanghai ATR, detection tries Shanghai first: no extra APDU.
    @Test func detectionOnShanghaiCostsNoExtraExchange() throws {
        var t = try transcript("shanghai-transit/full-read.apdu")
        t.headers.removeAll { $0.key == "profile" }
        let outcome = try TranscriptReplay.run(t, file: "x", registry: builtInRegistry)
        #expect(outcome.profile?.id == "shanghai-transit")
        #expect(outcome.result.report?.exchanges == 14)  // SELECT, GET BALANCE, all-records refused, 10 records, 6A 83
        #expect(outcome.unused.isEmpty)
    }

    @Test func specificBeforeGenericOnTheSameAID() throws {
        let ordered = ProfileEngine.detectionOrder(builtInRegistry.profiles, atr: nil).map(\.id)
        #expect(ordered.firstIndex(of: "shanghai-transit")! < ordered.firstIndex(of: "city-union")!)
        #expect(ordered.first == "ezlink")  // CEPAS before any SELECT by AID
        let withATR = ProfileEngine.detectionOrder(
            builtInRegistry.profiles, atr: try Hex.parse("3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52"))
        #expect(withATR.first?.id == "shanghai-transit")
    }

    /// A Calypso ATR (historical bytes 80 5A 0A …), contact or contactless, puts the Calypso
    /// profiles first: no other family's SELECT reaches the card. A generic Type B ATR does not.
    @Test func aCalypsoATRRanksTheCalypsoProfilesFirst() throws {
        let calypso: Set = ["navigo", "intercode", "mobib", "ravkav", "opus", "lisboa-viva", "venezia-unica", "carta-mobile-pisa"]
        for atr in [
            "3B 8F 80 01 80 5A 0A 01 03 20 03 11 22 33 44 55 82 90 00 FC", "3B 6F 00 00 80 5A 0A 07 06 20 04 01 03 01 F4 1F 82 90 00",
        ] {
            let ordered = ProfileEngine.detectionOrder(builtInRegistry.profiles, atr: try Hex.parse(atr)).map(\.id)
            #expect(Set(ordered.prefix(calypso.count)) == calypso, "\(atr): \(ordered)")
            #expect(ordered.first == "navigo")  // the specific before the generic Intercode profile
        }
        let typeB = ProfileEngine.detectionOrder(builtInRegistry.profiles, atr: try Hex.parse("3B 88 80 01 00 00 00 00 33 81 81 00 3A"))
        #expect(!calypso.contains(typeB.first?.id ?? ""))
    }

    @Test func unknownCardIsUnrecognised() throws {
        let t = try Transcript(parsing: "# cardscan transcript 1\n# atr: 3B 02 14 50\n")
        let outcome = try TranscriptReplay.run(t, file: "x", registry: builtInRegistry, lenient: true)
        guard case .unrecognised(let tried, _)? = outcome.result.error else {
            Issue.record("expected unrecognised")
            return
        }
        // The ISO 7816 profiles: 8 byte-layout, 8 Calypso, 3 KS X 6924, 21 DESFire (they travel in
        // APDUs) and emv.
        #expect(tried.count == 41)
        #expect(tried.prefix(while: { $0 != "opal" }).suffix(3) == ["snapper", "cashbee", "t-money"])  // order 150–160
        // The DESFire profiles by order 170–190, then emv (900): a transit card with a PPSE is its own profile's first.
        #expect(
            tried.suffix(22) == [
                "opal", "clipper", "orca", "magnacarta", "hsl", "waltti", "intercard", "myki", "istanbulkart", "at-hop", "nol", "holo",
                "hop-fastpass", "presto", "tpf", "nortic", "nextfare-desfire", "adelaide-metrocard", "hafilat", "tampere", "hsl-v1", "emv",
            ])
        #expect(outcome.result.error?.isNotRecognised == true)
    }

    /// Profiles sharing a prefix of commands share their answers: no command is sent twice.
    @Test func sessionSendsNoCommandTwice() throws {
        var t = try transcript("city-union/xian-full.apdu")
        t.headers.removeAll { $0.key == "profile" }
        var sent: [[UInt8]] = []
        _ = try TranscriptReplay.run(t, file: "x", registry: builtInRegistry, lenient: true) { sent.append($0.command) }
        #expect(!sent.isEmpty, "the observer saw no command")
        #expect(Set(sent).count == sent.count, "\(sent.map(\.hexString))")
    }
}
