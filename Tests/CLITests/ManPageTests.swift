import Foundation
import LabSupport
import Testing

/// The man pages: one per command, as git has them; rendered by man with no warning; the main
/// page has the real exit statuses, the environment, the files and SEE ALSO.
@Suite struct ManPageTests {
    static let pages: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Lab.root + "/docs/man")) ?? [])
        .filter { $0.hasSuffix(".1") }.sorted()

    @Test func aPagePerCommand() {
        for command in ["scan", "watch", "replay", "test", "read", "apdu", "profiles-show", "keys-add", "ndef-write", "classic"] {
            #expect(Self.pages.contains("cardscan-\(command).1"), "\(Self.pages)")
        }
        #expect(!Self.pages.contains { $0.contains("__complete") || $0.contains("help") })
    }

    @Test(arguments: pages) func rendersWithNoWarning(_ page: String) throws {
        let r = try Lab.shell(["/bin/sh", "-c", "MANWIDTH=80 man --warnings -l '\(Lab.root)/docs/man/\(page)' 2>&1 >/dev/null"])
        #expect(r.status == 0 && r.stdout.isEmpty, "\(page): \(r.stdout)\(r.stderr)")
    }

    @Test func theMainPageHasItsSections() throws {
        let r = try Lab.shell(["/bin/sh", "-c", "MANWIDTH=100 man -l '\(Lab.root)/docs/man/cardscan.1' 2>/dev/null"])
        let text = r.stdout
        for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] { #expect(text.contains("\n\(section)\n"), "\(section)") }
        for row in ["76    The card answered, but no profile recognises it.", "130   Interrupted (Ctrl-C)", "75    No card was presented"] {
            #expect(text.contains(row), "\(row)")
        }
        for variable in ["CARDSCAN_READER", "CARDSCAN_BUILTIN_PROFILES", "LIBNFC_DEVICE", "NO_COLOR", "XDG_CONFIG_HOME"] {
            #expect(text.contains("     \(variable)\n"), "\(variable)")
        }
        #expect(text.contains("cardscan-watch(1)") && text.contains("pcsc_scan(1)"))
    }
}
