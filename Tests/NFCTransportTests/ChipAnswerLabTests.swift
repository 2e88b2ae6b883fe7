import Foundation
import LabSupport
import Testing

/// Emulated chips answer anticollision as real ones do: peers' own tools, through the real
/// libnfc, name every DESFire lab card a DESFire. nfc-list (libnfc-bin) fingerprints it from
/// its ATQA, SAK and ATS; libfreefare's mifare-desfire-info (libfreefare-bin) recognises a
/// DESFire by SAK 20 and an ATS beginning 75 77 81 02, then asks it for its version and key
/// settings.
@Suite struct ChipAnswerLabTests {
    static let desfireCards: [String] = {
        let dir = Lab.root + "/Tests/LabCards/"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { name in
            guard name.hasSuffix("-image.json"), let text = try? String(contentsOfFile: dir + name, encoding: .utf8) else { return false }
            return text.contains("\"technology\": \"desfire\"") || text.contains("\"technology\":\"desfire\"")
        }.sorted().map { dir + $0 }
    }()

    /// The UID as the image gives it, as the tools print it: `04 11 22 …` and `04112233…`.
    func uid(_ file: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        let spaced = try #require(object?["uid"] as? String).uppercased()
        let bytes = spaced.split(separator: " ").map { $0.lowercased() }
        return [bytes.joined(separator: "  "), bytes.joined()]
    }

    @Test func everyDESFireLabCardIsNamedADESFire() throws {
        #expect(Self.desfireCards.count >= 20)
        try Lab.exclusive {
            for card in Self.desfireCards {
                let name = URL(fileURLWithPath: card).lastPathComponent
                let pn532 = try Lab.PN532(card)
                defer { pn532.stop() }
                let ids = try uid(card)
                let list = try Lab.shell(["nfc-list", "-v", "-t", "1"], environment: pn532.environment, timeout: 30)
                #expect(list.stdout.contains("ATQA (SENS_RES): 03  44"), "\(name): \(list.stdout)")
                #expect(list.stdout.contains("UID (NFCID1): \(ids[0])"), "\(name): \(list.stdout)")
                #expect(list.stdout.contains("* MIFARE DESFire EV1 2K/4K/8K"), "\(name): \(list.stdout)")
                let info = try Lab.shell(["mifare-desfire-info"], environment: pn532.environment, timeout: 30)
                #expect(info.status == 0, "\(name): \(info.stdout)\(info.stderr)")
                #expect(info.stdout.contains("===> Version information for tag \(ids[1]):"), "\(name): \(info.stdout)\(info.stderr)")
                #expect(info.stdout.contains("Master Key settings"), "\(name): \(info.stdout)")
            }
        }
    }
}
