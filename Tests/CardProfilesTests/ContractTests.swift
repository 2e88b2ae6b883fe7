import APDU
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Contracts through a contract list, counters by slice, layouts chosen per contract, and the
/// ISO 7816 quirks Calypso cards need (class 94, Le 00 answered empty).
@Suite struct ContractTests {
    /// A list of two entries (pointer 2 then 1; the first says type 1), two contract records,
    /// a counter file of two 3-byte counters.
    let profile = profileYAML(
        """
        steps:
          - read-record: { sfi: 0x1E, record: 1 }
            as: list
            layout: list
          - read-records: { sfi: 0x09, first: 1, last: 2, length: 2 }
            as: contracts
          - read-record: { sfi: 0x19, record: 1 }
            as: counters
        layouts:
          list:
            - repeat: entries
              count-bits: 4
              fields: [ { name: kind, bits: 4 }, { name: pointer, bits: 4 } ]
          wide: [ { name: tariff, bits: 16 } ]
          narrow: [ { name: tariff, bits: 8 }, { name: journeys, bits: 8 } ]
        contracts:
          from: contracts
          list: { from: list, repeat: entries, pointer: pointer }
          layout: { by: entry.kind, cases: { 1: narrow }, otherwise: wide }
          fields:
            tariff: { field: tariff, type: hex }
            kind: { field: entry.kind }
            counter: { from: counters, slice: 3, length: 3, type: uint, when: { field: journeys } }
        """)

    @Test func theListOrdersThePointersPickTheCountersFollow() throws {
        // list: count 2, (kind 1, pointer 2), (kind 0, pointer 1) → bits 0010 0001 0010 0000 0001
        let r = try run(
            try load(profile),
            [
                ("00 B2 01 F4 00", "21 20 10 90 00"),
                ("00 B2 01 4C 02", "AB CD 90 00"), ("00 B2 02 4C 02", "12 05 90 00"),
                ("00 B2 01 CC 00", "00 00 07 00 00 09 90 00"),
            ])
        let report = try #require(r.report)
        #expect(report.json.serialized().contains(#""contracts":[{"tariff":"12","kind":1,"counter":9},{"tariff":"ABCD","kind":0}]"#))
        #expect(report.warnings.isEmpty)
    }

    @Test func aPointerPastTheRecordsIsAWarningNotACrash() throws {
        // count 1, (kind 0, pointer 9)
        let r = try run(
            try load(profile),
            [
                ("00 B2 01 F4 00", "10 90 90 00"), ("00 B2 01 4C 02", "AB CD 90 00"), ("00 B2 02 4C 02", "6A 83"),
                ("00 B2 01 CC 00", "00 00 07 90 00"),
            ])
        let report = try #require(r.report)
        #expect(report.contracts.isEmpty)
        #expect(report.warnings.map(\.description) == ["contracts[0]: the contract list points at record 9, which the card did not give"])
    }

    @Test func badReferencesAreRefusedWithTheirLine() {
        let bad = profile.replacingOccurrences(of: "pointer: pointer }", with: "pointer: where }")
            .replacingOccurrences(of: "field: entry.kind }", with: "field: entry.nothing }")
        do {
            _ = try load(bad)
            Issue.record("loaded")
        } catch {
            #expect(error.message.contains("contracts.list.pointer: the entries of 'entries' have no value 'where'"))
            #expect(error.message.contains("contracts.fields.kind: the list's entries have no value 'nothing'"))
        }
    }

    @Test func aMissingTableIsNamedWithWhereItWasLookedFor() {
        do {
            _ = try load(
                profileYAML(
                    "steps:\n  - command: \"80 5C 00 02 04\"\n    as: p\ncard:\n  n: { from: p, length: 1, table: no-such-table }\n"))
            Issue.record("loaded")
        } catch {
            #expect(error.message.contains("test.yaml:8:") && error.message.contains("no table 'no-such-table' (looked for"))
        }
    }

    @Test func aTableShowsAnUnknownCodeAsTheCode() throws {
        let p = try load(
            profileYAML(
                """
                steps:
                  - command: "80 5C 00 02 04"
                    as: p
                card:
                  known: { from: p, length: 3, table: intercode-networks }
                  unknown: { from: p, offset: 1, length: 3, table: intercode-networks }
                  named: { from: p, offset: 1, length: 3, table: intercode-networks, default: "network {code}" }
                """))
        let r = try run(p, [("80 5C 00 02 04", "25 09 01 23 90 00")])
        #expect(
            r.report?.json.serialized().contains(#""card":{"known":"Navigo (Île-de-France)","unknown":"090123","named":"network 090123"}"#)
                == true)
    }

    @Test func classNinetyFourIsTriedOnceAndKept() throws {
        let p = try load(
            profileYAML(
                "classes: [\"00\", \"94\"]\nsteps:\n  - select: { aid: 315449432E494341 }\n    as: app\n  - read-record: { sfi: 7, record: 1, retry-length: 29 }\n    as: env\n"
            ))
        let r = try run(
            p,
            [
                ("00 A4 04 00 08 31 54 49 43 2E 49 43 41 00", "6E 00"), ("94 A4 04 00 08 31 54 49 43 2E 49 43 41 00", "90 00"),
                ("94 B2 01 3C 00", "90 00"), ("94 B2 01 3C 1D", "01 02 90 00"),
            ])
        #expect(r.error == nil)
        #expect(r.report?.exchanges == 4)
    }

    @Test func writesAndSessionCommandsAreRefusedByName() {
        for (apdu, name) in [
            ("94 8A 00 00 00", "OPEN SECURE SESSION (Calypso)"), ("00 DC 01 3C 02 00 00", "UPDATE RECORD"),
            ("94 BA 00 00 00", "SV DEBIT (Calypso)"),
        ] {
            do {
                _ = try load(profileYAML("steps:\n  - command: \"\(apdu)\"\n    as: x\n"))
                Issue.record("\(apdu) loaded")
            } catch {
                #expect(error.message.contains("it is \(name), which changes the card"), "\(error.message)")
            }
        }
        #expect((try? load(profileYAML("steps:\n  - command: \"94 B2 01 3C 1D\"\n    as: x\n"))) != nil)  // a Calypso-class read
    }
}
