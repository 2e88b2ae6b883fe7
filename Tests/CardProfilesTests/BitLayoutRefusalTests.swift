import APDU
import Foundation
import Testing

@testable import CardExploration
@testable import CardProfiles
@testable import CardReports
@testable import ProfileLanguage
@testable import ReadEngine

/// Layouts a profile cannot use are refused when it loads, each problem named.
extension BitReaderTests {
    @Test(arguments: [
        ("layouts:\n  l:\n    - bitmap: 3\n      fields: [ { name: a, bits: 4 } ]\n", "a 3-bit bitmap stands for 3 elements, not 1"),
        ("layouts:\n  l:\n    - { name: a, bits: 4 }\n    - { name: a, bits: 4 }\n", "'a' is declared twice"),
        (
            "layouts:\n  l:\n    - repeat: r\n      count-from: later\n      fields: [ { name: a, bits: 1 } ]\n",
            "'later' is not a value declared before"
        ),
        ("layouts:\n  l:\n    - { name: a, bits: 4, unused: 2 }\n", "an element is one thing"),
        ("card:\n  x: { from: b, offset: 0, length: 1, type: uint, when: { field: a, in: 1 } }\n", "it belongs in trips or contracts"),
        ("layouts:\n  l:\n    - choose: v\n      cases: []\n", "'v' is not a value declared before this choice"),
        (
            "layouts:\n  l:\n    - { name: v, bits: 2 }\n    - choose: v\n      cases: [ { values: 3-1, fields: [] } ]\n",
            "'3-1' is not a value or a range"
        ),
        ("card:\n  x: { from: b, field: a }\n", "answer 'b' has no layout"),
        ("card:\n  x: { from: b, bit-offset: 0, bit-length: 65 }\n", "an integer is at most 64 bits, not 65"),
        ("card:\n  x: { from: b, bit-offset: 30, bit-length: 8 }\n", "reads bits 30…37 but answer 'b' is 32 bits"),
        ("card:\n  x: { from: b, bit-offset: 0, bit-length: 8, offset: 1 }\n", "'offset' counts bytes"),
        ("card:\n  x: { from: b, bit-offset: 0, bit-length: 7, type: letters }\n", "multiple of 5 bits"),
        ("card:\n  x: { from: b, offset: 0, length: 2, type: letters }\n", "type letters reads 5-bit letters"),
    ])
    func refusedAtLoad(_ c: (String, String)) {
        let yaml = profileYAML("steps:\n  - read-binary: { sfi: 0x07, length: 4 }\n    as: b\n" + c.0)
        do {
            _ = try load(yaml)
            Issue.record("accepted: \(c.0)")
        } catch {
            #expect(error.message.contains(c.1), "\(error.message)")
        }
    }

    @Test func unknownLayoutsAndFieldsAreNamed() {
        let yaml = profileYAML(
            """
            steps:
              - read-binary: { sfi: 0x07, length: 4 }
                as: b
                layout: nope
              - read-binary: { sfi: 0x08, length: 4 }
                as: c
                layout: l
            layouts:
              l: [ { name: a, bits: 4 } ]
            card:
              x: { from: c, field: missing }
              y: { from: c, field: a, type: bcd-date }
            """)
        do {
            _ = try load(yaml)
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("no layout is named 'nope'"), "\(error.message)")
            #expect(error.message.contains("layout 'l' has no value 'missing'"), "\(error.message)")
            #expect(error.message.contains("'a' is 4 bits: a BCD date is 32 bits"), "\(error.message)")
        }
    }
}
