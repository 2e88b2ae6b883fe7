import Foundation
import Testing

@testable import APDU
@testable import CardSimulator

/// The ISO 7816 card image: what `contents()` refuses, and how the played card answers.
@Suite struct ISO7816CardImageTests {
    func card(_ json: String) throws -> ISO7816ImageCard {
        ISO7816ImageCard(try JSONDecoder().decode(ISO7816CardImage.self, from: Data(json.utf8)).contents())
    }

    func answer(_ card: ISO7816ImageCard, _ hex: String) throws -> String { card.respond(try Hex.parse(hex)).hexString }

    let image = """
        { "technology": "iso7816", "atr": "3B 80 80 01 01", "cla": ["00", "94"],
          "files": [ { "aid": "315449432E494341", "fid": "2000", "files": [
            { "fid": "2001", "sfi": 7, "records": ["01 02 03", "04 05 06"] },
            { "fid": "2010", "sfi": 8, "records": [] },
            { "fid": "0005", "sfi": 5, "binary": "AA BB CC" } ] } ],
          "answers": [ { "command": "80 5C 00 02 ..", "response": "00 00 2A F8 90 00" } ] }
        """

    @Test func answersAsACardDoes() throws {
        let c = try card(image)
        #expect(try answer(c, "00 B2 01 3C 00") == "6A 82")  // the MF has no SFI 7
        #expect(try answer(c, "00 A4 04 00 05 31 54 49 43 2E 00") == "6F 11 82 01 38 83 02 20 00 84 08 31 54 49 43 2E 49 43 41 90 00")
        #expect(try answer(c, "94 B2 02 3C 00") == "04 05 06 90 00")
        #expect(try answer(c, "00 B2 03 3C 00") == "6A 83")
        #expect(try answer(c, "00 B2 01 3C 02") == "6C 03")
        #expect(try answer(c, "00 B2 01 3D 00") == "01 02 03 04 05 06 90 00")
        #expect(try answer(c, "00 B0 85 01 05") == "BB CC 62 82")
        #expect(try answer(c, "00 B0 85 03 01") == "6B 00")
        #expect(try answer(c, "00 B2 01 2C 00") == "69 81")
        #expect(try answer(c, "84 B2 01 3C 00") == "6E 00")
        #expect(try answer(c, "80 5C 00 02 04") == "00 00 2A F8 90 00")
        #expect(try answer(c, "00 A4 08 0C 04 20 00 20 01") == "90 00")
        #expect(try answer(c, "00 B2 00 02 00") == "01 02 03 90 00")  // the first record of the current EF
    }

    /// Found by the fuzzer (iso7816-card-image): a record EF with no records trapped on `1...0`.
    @Test func aRecordFileWithNoRecordsAnswersNoSuchRecord() throws {
        let c = try card(image)
        _ = try answer(c, "00 A4 04 00 08 31 54 49 43 2E 49 43 41 00")
        for p2 in ["44", "45", "46"] { #expect(try answer(c, "00 B2 01 \(p2) 00") == "6A 83") }
        for p2 in ["00", "01", "02", "03"] { #expect(try answer(c, "00 B2 00 \(p2) 00") == "6A 83") }
    }

    @Test func malformedImagesAreRefusedByPlace() throws {
        func refusal(_ json: String) -> String? {
            do {
                _ = try JSONDecoder().decode(ISO7816CardImage.self, from: Data(json.utf8)).contents()
                return nil
            } catch let e as ISO7816CardImage.Invalid { return e.reason } catch { return "\(error)" }
        }
        let base = #"{"technology": "iso7816", "atr": "3B 80 80 01 01", "files": "#
        #expect(refusal(base + #"[{"fid": "3F00", "binary": ""}]}"#)?.hasPrefix("files[0].fid: 3F00 is reserved") == true)
        #expect(refusal(base + #"[{"records": ["00"], "binary": "00"}]}"#)?.contains("exactly one of files") == true)
        #expect(refusal(base + #"[{"sfi": 2, "records": ["00"]}, {"sfi": 2, "binary": "00"}]}"#) == "files: SFI 2 twice")
        #expect(refusal(base + #"[{"records": [""]}]}"#) == "files[0].records[0]: 0 bytes; a record has 1 to 254")
        #expect(refusal(base + #"[], "cla": ["0094"]}"#) == "cla[0]: '0094' is not one byte")
        #expect(
            refusal(base + #"[], "answers": [{"command": "80", "response": "90 00"}]}"#)
                == "answers[0].command: a command APDU has at least 4 bytes")
    }
}
