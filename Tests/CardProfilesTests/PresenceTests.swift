import Testing

@testable import CardProfiles
@testable import ProfileLanguage

/// The presence rules, each with its one meaning (docs/profile-format.md §When a value is
/// absent), and private fields.
@Suite struct PresenceTests {
    static let yaml = profileYAML(
        """
        steps:
          - read-binary: { sfi: 1, length: 8 }
            as: purse
        let:
          base: { from: purse, offset: 0, length: 2, type: uint }
        card:
          total: { sum: [base, check] }
          birthDate: { from: purse, offset: 4, length: 2, type: uint, unset: 0, personal: true }
          check: { from: purse, offset: 2, length: 1, type: uint }
        """)

    /// `unset`: a value the card keeps as not written is left out; a personal one is named in
    /// `hidden` all the same (whether a card keeps a birth date tells something too). A private
    /// field (`let`) is used and never reported.
    @Test func unsetPersonalDataIsStillNamedAndPrivateFieldsAreNotReported() throws {
        let p = try load(Self.yaml)
        // base 0x0102 = 258, check 3: total 261; the birth date's two bytes are 00 00 (unset).
        let r = try run(p, [("00 B0 81 00 08", "01 02 03 00 00 00 00 00 90 00")])
        let report = try #require(r.report)
        #expect(report.card.map(\.0) == ["total", "check"] && report.card["total"] == .int(261))
        #expect(report.hidden == ["card.birthDate"])
        let shown = try run(p, [("00 B0 81 00 08", "01 02 03 00 07 C6 00 00 90 00")])
        #expect(try #require(shown.report).hidden == ["card.birthDate"])  // set (0x07C6), hidden
    }
}
