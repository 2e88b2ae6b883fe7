import APDU
import ArgumentParser
import CardProfiles
import CardReading
import Foundation

/// `profiles validate --strict DIR`: a profile that loads is replayed over every transcript under
/// DIR, and any sign that it reads a card wrongly fails — a field that does not decode (a report
/// warning), a replay that diverges, exchanges it no longer sends. A transcript of another card
/// (recorded with another profile, or not recognised by this one) is counted and left alone.
struct StrictReplay {
    let profileFile: String
    let profile: Profile

    /// The exit status of the replays: 0, or 65 when any failed.
    func run(over dir: String) throws -> Int32 {
        let files = Self.transcripts(under: dir)
        guard !files.isEmpty else { throw ValidationError("--strict: no transcript (*.apdu) under \(dir)") }
        let registry = ProfileRegistry.standard()
        var read = 0, other = 0, failed = 0
        for file in files {
            let problems: [String]
            do {
                let transcript = try Transcript(parsing: try TextFile.read(file), file: file)
                // A transcript recorded with another profile is another card's.
                if let id = transcript[header: .profile], id != profile.id {
                    other += 1
                    continue
                }
                let outcome = try TranscriptReplay.run(transcript, file: file, registry: registry, explicit: profileFile)
                if outcome.profile?.id != profile.id || outcome.result.error?.isNotRecognised == true {
                    other += 1
                    continue
                }
                read += 1
                // A card removed mid-read is what was recorded, not the profile's doing.
                var error = outcome.result.error
                if case .transport? = error { error = nil }
                problems =
                    (outcome.result.report?.warnings.map { "warning: \($0)" } ?? []) + (error.map { ["error: \($0.message)"] } ?? [])
                    + (outcome.unused.isEmpty
                        ? [] : ["\(outcome.unused.count) recorded exchange(s) no longer sent (from line \(outcome.unused[0].line))"])
            } catch {
                read += 1
                problems = ["error: \((error as? UserFacingError)?.message ?? "\(error)")"]
            }
            for p in problems { eprint("\(profileFile): \(file): \(p)") }
            if !problems.isEmpty { failed += 1 }
        }
        out("  strict: \(read) transcript(s) read by \(profile.id), \(failed) with problems; \(other) of other cards")
        return failed == 0 ? 0 : ExitStatus.invalidInput.rawValue
    }

    /// Every `*.apdu` under `dir`, sorted.
    static func transcripts(under dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.hasSuffix(".apdu") }.sorted().map { dir + "/" + $0 }
    }
}
