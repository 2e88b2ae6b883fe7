// Release-build benchmarks (docs/performance.md). Run through scripts/bench.sh.
//
//   CardscanBench replay FIXTURES_DIR PROFILES_DIR [SECONDS]
//       transcripts replayed per second through the profile engine (one core), parsed
//       once; and with parsing included
//       (BENCH_ENGINE_ONLY=1: only the first figure, for profiling; BENCH_PER_FIXTURE=1: each
//       fixture's time a replay, costliest first)
//   CardscanBench profiles PROFILES_DIR
//       what loading the YAML data files costs, per file on one core: the shape check
//       (libyaml's event pass), Yams building the tree, and a whole profile load
//   CardscanBench pcsc READER N
//       N APDUs (a Shanghai read sequence, repeated) through PCSCTransport + the exchange
//       layer; prints the median and the quartiles per APDU in microseconds
import APDU
import CardProfiles
import CardReading
import Foundation
import PCSCTransport
import Yams

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s[s.count / 2]
}
func quartiles(_ xs: [Double]) -> (Double, Double, Double) {
    let s = xs.sorted()
    return (s[s.count / 4], s[s.count / 2], s[s.count * 3 / 4])
}

/// The APDUs of a full Shanghai read, record by record.
let shanghaiSequence: [[UInt8]] = {
    var s: [[UInt8]] = [try! Hex.parse("00 A4 04 00 09 A0 00 00 00 03 86 98 07 01 00"), try! Hex.parse("80 5C 00 02 04")]
    for r in 1...10 { s.append([0x00, 0xB2, UInt8(r), 0xC4, 0x17]) }
    return s
}()

let args = CommandLine.arguments
switch args.count > 1 ? args[1] : "" {
case "replay":
    let fixtures = args[2], profilesDir = args[3]
    let seconds = args.count > 4 ? Double(args[4])! : 3
    let registry = ProfileRegistry(directories: [.init(path: profilesDir, isBuiltIn: true)])
    let files = (FileManager.default.enumerator(atPath: fixtures)?.compactMap { $0 as? String } ?? [])
        .filter { $0.hasSuffix(".apdu") && !$0.contains("bad-") }.sorted()
    guard !files.isEmpty else {
        FileHandle.standardError.write(Data("no .apdu transcripts under \(fixtures) (give a folder)\n".utf8))
        exit(66)
    }
    let texts = files.map { try! String(contentsOfFile: fixtures + "/" + $0, encoding: .utf8) }
    let parsed = zip(files, texts).map { try! Transcript(parsing: $1, file: $0) }
    // Check once that every fixture reads.
    for (f, t) in zip(files, parsed) {
        let o = try! TranscriptReplay.run(t, file: f, registry: registry)
        if o.result.report == nil {
            // A release build drops a precondition's message: say which fixture, and why.
            let why = o.result.error.map { "\($0)" } ?? "no report"
            FileHandle.standardError.write(Data("\(f) did not read with the profiles in \(profilesDir): \(why)\n".utf8))
            exit(65)
        }
    }
    func rate(_ body: (Int) -> Void) -> [Double] {
        var rates: [Double] = []
        for _ in 0..<5 {
            var n = 0
            let start = ContinuousClock.now
            let end = start + .milliseconds(Int(seconds * 200))
            while ContinuousClock.now < end {
                body(n % parsed.count)
                n += 1
            }
            let elapsed = ContinuousClock.now - start
            rates.append(Double(n) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        }
        return rates
    }
    if ProcessInfo.processInfo.environment["BENCH_PER_FIXTURE"] != nil {
        // Each fixture alone, costliest first: where the engine's time goes by card.
        var costs: [(String, Double)] = []
        for (i, f) in files.enumerated() {
            var samples: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                for _ in 0..<200 { _ = try! TranscriptReplay.run(parsed[i], file: f, registry: registry) }
                let d = ContinuousClock.now - start
                samples.append((Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12) / 200)
            }
            costs.append((f, median(samples)))
        }
        let total = costs.reduce(0) { $0 + $1.1 }
        for (f, us) in costs.sorted(by: { $0.1 > $1.1 }) {
            print(String(format: "%8.1f µs  %4.1f %%  %@", us, us / total * 100, f))
        }
        print(
            String(format: "mean %.1f µs a transcript: %.0f transcripts/s", total / Double(costs.count), Double(costs.count) / total * 1e6))
        exit(0)
    }
    let engineOnly = rate { i in _ = try! TranscriptReplay.run(parsed[i], file: files[i], registry: registry) }
    if ProcessInfo.processInfo.environment["BENCH_ENGINE_ONLY"] != nil {
        print(median(engineOnly))
        exit(0)
    }
    let withParsing = rate { i in
        _ = try! TranscriptReplay.run(try! Transcript(parsing: texts[i], file: files[i]), file: files[i], registry: registry)
    }
    print("fixtures: \(files.count) transcripts")
    print(
        String(
            format: "replay through the engine (parsed once): median %.0f transcripts/s over 5 runs (min %.0f, max %.0f)",
            median(engineOnly), engineOnly.min()!, engineOnly.max()!))
    print(String(format: "replay including transcript parsing:     median %.0f transcripts/s over 5 runs", median(withParsing)))
    let sh = try! TranscriptReplay.run(parsed[files.firstIndex(of: "shanghai-transit/full-read.apdu")!], file: "", registry: registry)
    let all = try! TranscriptReplay.run(parsed[files.firstIndex(of: "shanghai-transit/all-records.apdu")!], file: "", registry: registry)
    print(
        "exchanges per full Shanghai read: \(sh.result.report!.exchanges) record by record, \(all.result.report!.exchanges) with all-records-from-P1"
    )
case "profiles":
    // Every YAML file under the folder (profiles, layouts, tables, the known commands).
    // `profiles` is a link to the folder: the enumerator does not follow links.
    let dir = URL(fileURLWithPath: args[2]).resolvingSymlinksInPath().path
    let paths = (FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String } ?? [])
        .filter { $0.hasSuffix(".yaml") }.sorted().map { dir + "/" + $0 }
    let texts = paths.map { try! String(contentsOfFile: $0, encoding: .utf8) }
    let profiles = zip(paths, texts).filter { !$0.0.dropFirst(dir.count + 1).contains("/") }
    guard !profiles.isEmpty else {
        FileHandle.standardError.write(Data("no .yaml profiles in \(dir)\n".utf8))
        exit(66)
    }
    /// Median over 11 rounds of one pass over the files, in µs per file.
    func perFile(_ count: Int, _ pass: () -> Void) -> Double {
        pass()  // warm: tables and layouts a profile uses are cached per process, as in cardscan
        var samples: [Double] = []
        for _ in 0..<11 {
            let start = ContinuousClock.now
            pass()
            let d = ContinuousClock.now - start
            samples.append((Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12) / Double(count))
        }
        return median(samples)
    }
    let bytes = texts.reduce(0) { $0 + $1.utf8.count }
    let shape = perFile(texts.count) { for t in texts { precondition(YAMLText.refusedShape(t) == nil) } }
    let tree = perFile(texts.count) { for t in texts { _ = try! Yams.compose(yaml: t, .basic, .default, .utf8) } }
    let profileShape = perFile(profiles.count) { for (_, t) in profiles { precondition(YAMLText.refusedShape(t) == nil) } }
    let load = perFile(profiles.count) { for (p, t) in profiles { _ = try! ProfileLoader.load(yaml: t, file: p) } }
    print("files: \(texts.count) YAML files (\(bytes / 1024) kB), of which \(profiles.count) profiles")
    print(String(format: "shape check (libyaml events):  median %7.1f µs a file", shape))
    print(String(format: "Yams tree (compose):           median %7.1f µs a file  (the shape check adds %.1f %%)", tree, shape / tree * 100))
    print(
        String(
            format:
                "profile load (check, tree, typed profile): median %7.1f µs a profile  (its own file's shape check, %.1f µs, is %.1f %% of it)",
            load, profileShape, profileShape / load * 100))
case "pcsc":
    let reader = args[2], n = Int(args[3])!
    let card = try! PCSCContext().connect(to: reader)
    let exchange = CardExchange(channel: card)
    let commands = try! shanghaiSequence.map { try CommandAPDU(bytes: $0) }
    for c in commands { _ = try! exchange.send(c) }  // warm up
    var times: [Double] = []
    times.reserveCapacity(n)
    for i in 0..<n {
        let start = ContinuousClock.now
        let r = try! exchange.send(commands[i % commands.count])
        let d = ContinuousClock.now - start
        precondition(r.statusWord.isSuccess)
        times.append(Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6)
    }
    let (q1, m, q3) = quartiles(times)
    print(String(format: "swift %.1f %.1f %.1f", q1, m, q3))
default:
    print("usage: CardscanBench replay FIXTURES PROFILES [SECONDS] | pcsc READER N")
    exit(64)
}
