import APDU
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Steps built from earlier answers (docs/profile-format.md §Steps that depend on earlier
/// answers), on a small EMV-like card scripted exchange by exchange.
@Suite struct DependentStepTests {
    static let yaml = profileYAML(
        """
        terminal:
          9F1A: { number: 250, option: country }
          9A: "261124"
        steps:
          - select: { aid: 325041592E5359532E4444463031 }
            as: dir
          - for-each: { list: "dir:6F/A5/BF0C", tag: "61", order-by: "87", skip: { 4F: [A000000384] }, label: label }
            as: entry
            steps:
              - select: { aid-from: { from: entry, tag: 4F } }
                as: fci
              - command: "80 A8 00 00"
                data: { dol: "fci:6F/A5/9F38", template: "83" }
                as: gpo
              - read-records: { locator: ["gpo:77/94", { from: "gpo:80", offset: 2 }] }
                as: records
                optional: true
              - command: "80 CA 9F 4F 00"
                as: format
                optional: true
                only-if: { tag: 9F4D }
              - read-records: { sfi: { tag: 9F4D, offset: 0, length: 1 }, last: { tag: 9F4D, offset: 1, length: 1 } }
                as: log
                optional: true
        card:
          label: { tag: "50", type: ascii }
          pan: { tag: [5A, "57"], type: track2, part: pan, mask-digits: [6, 4] }
          expiry: { tag: "57", type: track2, part: expiry }
        trips:
          from: log
          dol: "format:9F4F"
          order: by-time
          credit-kinds: [refund]
          fields:
            time: { tag: 9A, type: bcd-date }
            amount: { tag: 9F02, type: bcd }
            kind: { tag: 9C, type: uint, map: { 0x00: purchase, 0x20: refund } }
        """)

    /// A directory of three: B (priority 2), A (priority 1), and an eftpos entry skipped.
    static let directory =
        "6F 26 A5 24 BF 0C 21 61 0A 4F 02 B0 0B 50 01 42 87 01 02 61 0A 4F 02 A0 0A 50 01 41 87 01 01 61 07 4F 05 A0 00 00 03 84 90 00"

    static let exchanges: [(String, String)] = [
        ("00 A4 04 00 0E 32 50 41 59 2E 53 59 53 2E 44 44 46 30 31 00", directory),
        // A first: its PDOL asks for the country (2) and the date (3); format-2 GPO; a log of 2.
        ("00 A4 04 00 02 A0 0A 00", "6F 13 84 02 A0 0A A5 0D 9F 38 05 9F 1A 02 9A 03 9F 4D 02 0B 02 90 00"),
        ("80 A8 00 00 07 83 05 02 50 26 11 24 00", "77 0A 94 04 08 01 01 00 57 02 12 34 90 00"),
        ("00 B2 01 0C 00", "70 0E 57 0C 47 61 73 90 01 01 00 10 D2 80 52 01 90 00"),
        ("80 CA 9F 4F 00", "9F 4F 07 9A 03 9F 02 06 9C 01 90 00"),
        ("00 B2 01 5C 00", "24 11 18 00 00 00 00 04 50 00 90 00"),
        ("00 B2 02 5C 00", "24 11 19 00 00 00 00 19 99 20 90 00"),
        // B: no PDOL, format-1 GPO, one record the card then refuses; no log, so no GET DATA.
        ("00 A4 04 00 02 B0 0B 00", "6F 04 84 02 B0 0B 90 00"),
        ("80 A8 00 00 02 83 00 00", "80 06 19 80 08 01 02 00 90 00"),
        ("00 B2 01 0C 00", "70 0A 5A 08 54 13 33 00 89 01 04 34 90 00"),
        ("00 B2 02 0C 00", "6A 83"),
    ]

    @Test func eachListedApplicationIsReadInPriorityOrder() throws {
        let p = try load(Self.yaml)
        let result = try run(p, Self.exchanges)
        #expect(result.error == nil, "\(String(describing: result.error))")
        let json = try #require(result.report).json.serialized()
        #expect(json.contains(#""card":{"label":"A","pan":"476173******0010","expiry":"2028-05"}"#), "\(json)")
        #expect(
            json.contains(
                #""applications":[{"label":"A","pan":"476173******0010","expiry":"2028-05"},{"label":"B","pan":"541333******0434"}]"#))
        // Newest first; the refund positive; each trip names its application.
        #expect(
            json.contains(
                #""trips":[{"time":"2024-11-19","amount":1999,"kind":"refund","application":"A"},{"time":"2024-11-18","amount":-450,"kind":"purchase","application":"A"}]"#
            ), "\(json)")
        #expect(json.contains(#""hidden":["card.pan","applications[1].card.pan"]"#))
    }

    /// Visa's proprietary log entry DF60 in place of 9F4D: the same log, found by the other tag.
    @Test func visasLogEntryDF60() throws {
        let p = try load(Self.yaml.replacingOccurrences(of: "tag: 9F4D", with: "tag: [9F4D, DF60]"))
        let exchanges = Self.exchanges.map { ($0.0, $0.1.replacingOccurrences(of: "9F 4D 02 0B 02", with: "DF 60 02 0B 02")) }
        let json = try #require(try run(p, exchanges).report).json.serialized()
        #expect(json.contains(#""time":"2024-11-19","amount":1999,"kind":"refund","application":"A""#), "\(json)")
    }

    @Test func theWholePANWhenAsked() throws {
        let p = try load(Self.yaml)
        var lines = ["# cardscan transcript 1"]
        for (c, r) in Self.exchanges { lines += ["> " + c, "< " + r] }
        let engine = ProfileEngine(
            session: CardSession(exchange: CardExchange(channel: ReplayChannel(try Transcript(parsing: lines.joined(separator: "\n"))))))
        engine.showsFullNumbers = true
        let json = try #require(engine.read(p).report).json.serialized()
        #expect(json.contains(#""pan":"4761739001010010""#) && !json.contains("hidden"))
    }

    @Test func aMissingListLeavesTheDependentStepAbsent() throws {
        // The directory answers without BF0C: no application to read, and no command sent.
        let p = try load(Self.yaml)
        let result = try run(p, [("00 A4 04 00 0E 32 50 41 59 2E 53 59 53 2E 44 44 46 30 31 00", "6F 02 A5 00 90 00")])
        #expect(result.error != nil)  // for-each is not optional: its list must be there
        if case .stepFailed(_, let step, _, _, let reason)? = result.error {
            #expect(step == "entry" && reason.description.contains("not sent"))
        } else {
            Issue.record("\(String(describing: result.error))")
        }
    }

    @Test(arguments: [
        ("08 01 01", "a file locator is 4-byte entries"),  // AFL not a multiple of 4
        ("00 01 01 00", "not SFI 1…30"),  // SFI 0
        ("08 02 01 00", "first ≤ last"),  // first after last
    ])
    func aBadFileLocatorIsAnAbsentAnswerNotACrash(_ afl: String, _ why: String) throws {
        let answers = { () -> Answers in
            var a = Answers()
            a["gpo"] = .data(try! Hex.parse("80 \(String(format: "%02X", 2 + afl.split(separator: " ").count)) 19 80 " + afl))
            return a
        }()
        let step = DependentStep.locatedRecords([ValueReference(place: .answer("gpo", try TLVPath("80")), offset: 2, line: 1)])
        guard case .failure(let reason) = step.resolve(in: answers, terminal: { _, n in ([UInt8](repeating: 0, count: n), false) }) else {
            Issue.record("resolved")
            return
        }
        #expect(reason.description.contains(why), "\(reason)")
    }

    @Test(
        arguments: [
            ("47 61 73 90 01 01 00 10 D2 80", "pan", "4761739001010010"),
            ("47 61 73 90 01 01 00 10 D2 80", "expiry", nil),  // cut short after the separator
            ("47 61 73 90 01 01 00 10 D2 81 32 01", "expiry", nil),  // month 13
            ("47 6A 73 90 D2 80 52 01", "pan", nil),  // a non-digit in the PAN
            ("47 61 73 90 01 01 00 10", "expiry", nil),  // no separator
            ("FF", "pan", nil),  // nothing but padding
        ] as [(String, String, String?)])
    func track2PartsAndMalformedTrack2(_ hex: String, _ part: String, _ expected: String?) throws {
        let spec = try #require(
            try load(profileYAML("steps: [{ command: \"00 CA 00 57 00\", as: t }]\ncard: { x: { from: t, type: track2, part: \(part) } }"))
                .card.first?.spec)
        let value = try? FieldDecoder.decode(spec, from: try Hex.parse(hex), answer: "t")
        #expect(value.flatMap { $0 }?.description == expected)
    }

    @Test func masking() {
        #expect(ReportBuilder.masked("6799998900000060018", keeping: (6, 4)) == "679999*********0018")
        #expect(ReportBuilder.masked("1234", keeping: (6, 4)) == "1234")
    }

    @Test func terminalNumbersAreRightAlignedBCD() {
        #expect(TerminalSettings.bcd(840, length: 2) == [0x08, 0x40])
        #expect(TerminalSettings.bcd(123_456, length: 2) == [0x34, 0x56])
        #expect(TerminalSettings.fixedValues(header: "9A=261124 9F37=1A2B3C4D")?[TLVTag(bytes: [0x9A])] == [0x26, 0x11, 0x24])
        #expect(TerminalSettings.fixedValues(header: "9A=26112") == nil)
        // A value of no bytes reads back as written (the transcript parser accepts it too).
        #expect(TerminalSettings.fixedValues(header: "9F37=")?[TLVTag(bytes: [0x9F, 0x37])] == [])
        #expect(TerminalSettings.fixedValues(header: "=01") == nil && TerminalSettings.fixedValues(header: "9A") == nil)
    }

    @Test(arguments: [
        ("steps:\n  - for-each: { list: d, tag: \"61\" }\n    as: e\n", "needs 'steps'"),
        ("steps:\n  - command: \"80 A8 00 00 02 83 00\"\n    data: { dol: d }\n    as: e\n", "write the command without data"),
        ("steps:\n  - select: { aid: A0 }\n    as: e\n    data: { dol: e }\n", "'data' builds the data of a `command` step"),
        (
            "terminal: { 9F1A: { number: 1, option: planet } }\nsteps: [{ select: { aid: A0 }, as: e }]\n",
            "'planet' is not one of: country, currency"
        ),
        ("steps:\n  - read-records: { locator: [gpo], sfi: 1 }\n    as: e\n", "'sfi' does not apply"),
        (
            "steps:\n  - for-each: { list: d, tag: \"61\" }\n    as: e\n    steps:\n      - for-each: { list: e, tag: 4F }\n        as: f\n        steps: [{ select: { aid: A0 }, as: g }]\n",
            "do not nest"
        ),
        ("steps: [{ select: { aid: A0 }, as: e }]\ncard: { x: { tag: ZZ } }\n", "not a BER-TLV tag"),
        ("steps:\n  - select: { aid-from: \"fci:6F/84\" }\n    as: e\n", "no step is named 'fci'"),
        (
            "steps:\n  - command: \"80 A8 00 00\"\n    data: { dol: \"later:9F38\" }\n    as: e\n  - select: { aid: A0 }\n    as: later\n",
            "'later' is read after this step"
        ),
    ])
    func malformedDependentStepsNameTheirPlace(_ body: String, _ message: String) {
        do {
            _ = try load(profileYAML(body))
            Issue.record("loaded: \(body)")
        } catch {
            #expect(error.issues.contains { $0.reason.contains(message) }, "\(error.issues)")
        }
    }
}
