import Foundation
import LabSupport
import Testing

/// The habits of the tools users know: "did you mean", scriptor's scripts on standard input,
/// a profile file not replaced by accident, a configured libnfc device that is not there.
@Suite struct UserHabitsTests {
    let shanghai = Lab.fixture("shanghai-transit/full-read.apdu")

    /// A mistyped command or profile id: exit 64 or 66, with the nearest name.
    @Test func suggestions() throws {
        let scna = try Lab.cardscan(["scna"])
        #expect(scna.status == 64 && scna.stderr.contains("unknown command 'scna': did you mean 'scan'?"), "\(scna.stderr)")
        let profile = try Lab.cardscan(["profile", "list"])
        #expect(profile.status == 64 && profile.stderr.contains("unknown command 'profile': did you mean 'profiles'?"), "\(profile.stderr)")
        let id = try Lab.cardscan(["replay", shanghai, "--profile", "shanghai"])
        #expect(id.status == 66 && id.stderr.contains("no profile named 'shanghai': did you mean 'shanghai-transit'?"), "\(id.stderr)")
        let typo = try Lab.cardscan(["replay", shanghai, "--profile", "t-monye"])
        #expect(typo.stderr.contains("did you mean 't-money'?"), "\(typo.stderr)")
    }

    /// `replay --profile` of another card's recording says so, as a live scan does.
    @Test func anotherCardsRecordingIsNotThisCard() throws {
        let r = try Lab.cardscan(["replay", shanghai, "--profile", "t-money"])
        #expect(r.status == 76, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.isEmpty, "no made-up partial report: \(r.stdout)")
        #expect(r.stderr.contains("this card is not read by profile 't-money': the recording holds no answer to its step 'app'"))
    }

    /// `profiles add` refuses to replace a profile already added, unless --force; each
    /// profile's name tells it from the others.
    @Test func profilesAddAndNames() throws {
        let env = ["XDG_CONFIG_HOME": NSTemporaryDirectory() + "cardscan-habits-\(UUID().uuidString)"]
        let file = Lab.root + "/profiles/t-money.yaml"
        #expect(try Lab.cardscan(["profiles", "add", file], environment: env).stdout.hasPrefix("added t-money → "))
        let again = try Lab.cardscan(["profiles", "add", file], environment: env)
        #expect(again.status == 65 && again.stderr.contains("a profile 't-money' is already added"), "\(again.stderr)")
        let forced = try Lab.cardscan(["profiles", "add", "--force", file], environment: env)
        #expect(forced.status == 0 && forced.stdout.hasPrefix("replaced t-money → "), "\(forced.stdout)\(forced.stderr)")
        let list = try Lab.cardscan(["profiles", "list", "--json"], environment: env)
        let profiles = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        let names = profiles.compactMap { $0["name"] as? String }
        #expect(names.contains("HSL travel card") && names.contains("HSL travel card (version 1)"), "\(names)")
    }

    /// `cardscan apdu` reads a scriptor script from standard input (piped, or `--script -`);
    /// `reset` prints the card's new ATR.
    @Test func apduSpeaksScriptor() throws {
        try Lab.exclusive {
            let card = try Lab.Card(shanghai)
            defer { card.stop() }
            let script = "00A4040009A0000000038698070100\\n# a comment\\nreset\\n"
            for args in ["", "--script -"] {
                let r = try Lab.shell(["/bin/sh", "-c", "printf '\(script)' | \"$CARDSCAN_BIN/cardscan\" apdu \(args)"])
                #expect(r.status == 0, "\(args): \(r.stderr)")
                let lines = r.stdout.split(separator: "\n").map(String.init)
                #expect(lines.contains("> 00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"), "\(lines)")
                #expect(lines.contains("> reset"))
                #expect(lines.contains("< 3B 8B 80 01 20 85 00 8B 03 0F E0 9A A0 E0 40 52 : the ATR after the reset"), "\(lines)")
            }
        }
    }

    /// A configured libnfc device that is not there is listed as such; doctor sees the lab's
    /// vpcd driver.
    @Test func readersAndDoctorSayWhatIsThere() throws {
        try Lab.exclusive {
            let env = ["LIBNFC_DEVICE": "pn532_uart:/dev/cardscan-no-such-port"]
            let text = try Lab.cardscan(["readers"], environment: env)
            #expect(text.stdout.contains("libnfc  pn532_uart:/dev/cardscan-no-such-port   (cannot be opened: "), "\(text.stdout)")
            let json = try Lab.cardscan(["readers", "--json"], environment: env)
            let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
            let device = entries.first { $0["libnfc"] as? Bool == true }
            #expect(device?["usable"] as? Bool == false && device?["problem"] != nil, "\(json.stdout)")
            let doctor = try Lab.cardscan(["doctor"])
            #expect(doctor.stdout.contains("vsmartcard vpcd driver installed"), "\(doctor.stdout)")
            #expect(!doctor.stdout.contains("driver not installed"))
        }
    }
}
