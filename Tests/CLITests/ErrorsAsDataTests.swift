import Foundation
import LabSupport
import Testing

/// With `--json`, a failed read is data on stdout too: what the card is, what was tried, what
/// to do, and the exit status (still the process's own).
@Suite struct ErrorsAsDataTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A Classic card whose keys the user has not given: no profile can read it.
    @Test func aClassicCardWithoutKeys() throws {
        let r = try Lab.cardscan(["read", "--json", Lab.root + "/Tests/LabCards/troika-image.json"])
        #expect(r.status == 76, "\(r.stderr)")
        let json = try object(r.stdout)
        #expect(json["error"] as? String == "unrecognised" && json["exit"] as? Int == 76)
        let card = json["card"] as? [String: Any]
        #expect(card?["technology"] as? String == "classic" && card?["uid"] as? String == "2B 3C 4D 5E", "\(r.stdout)")
        #expect((json["tried"] as? [String])?.contains("troika") == true)
        #expect((json["hint"] as? String)?.contains("`cardscan keys add FILE`") == true, "\(r.stdout)")
        #expect(r.stderr.contains("hint: a MIFARE Classic card opens only with its sector keys"), "\(r.stderr)")
    }

    /// Through pcscd: an ISO 7816 card that answers nothing a profile asks; then a card removed
    /// mid-read, whose partial report carries its `error`.
    @Test func unrecognisedAndPartialThroughPCSC() throws {
        let unknown = try Lab.writeTranscript(
            "# cardscan transcript 1\n# technology: iso7816\n# atr: 3B 80 80 01 01\n", name: "unknown-card")
        try Lab.exclusive {
            let card = try Lab.Card(unknown)
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(r.status == 76, "\(r.stdout)\(r.stderr)")
            let json = try object(r.stdout)
            #expect(json["error"] as? String == "unrecognised", "\(r.stdout)")
            let about = json["card"] as? [String: Any]
            #expect(about?["technology"] as? String == "iso7816" && about?["atr"] as? String == "3B 80 80 01 01", "\(r.stdout)")
            #expect((json["tried"] as? [String])?.contains("shanghai-transit") == true)
            let hint = json["hint"] as? String ?? ""
            #expect(hint.contains("`cardscan atr`") && hint.contains("`cardscan dump`") && hint.contains("`cardscan desfire`"), "\(hint)")
        }
        try Lab.exclusive {
            let card = try Lab.Card(Lab.fixture("shanghai-transit/full-read.apdu"), options: ["--remove-after", "5"])
            defer { card.stop() }
            let r = try Lab.cardscan(["--json", "--timeout", "5"])
            #expect(r.status == 74, "\(r.stderr)")
            let json = try object(r.stdout)
            #expect(json["partial"] as? Bool == true && (json["balance"] as? [String: Any])?["amount"] as? Int == 5710)
            let error = json["error"] as? [String: Any]
            #expect(error?["exit"] as? Int == 74, "\(r.stdout)")
            #expect((error?["message"] as? String)?.contains("the card was removed") == true, "\(r.stdout)")
        }
    }
}
