import Foundation

/// libFuzzer's entry point: the target named by FUZZ_TARGET gets each input. The slowest
/// input is timed here, in thread CPU time (libFuzzer only reports whole seconds of wall time),
/// and printed at exit, and as it happens once over 1 ms (a run stopped by SIGINT, which
/// libFuzzer ends with `_Exit`, has no exit handlers: its log still has the slowest so far).
nonisolated(unsafe) let selected: ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    if name == "asan-canary" { return asanCanary }
    guard let target = Targets.all[name] else {
        FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(Targets.all.keys.sorted().joined(separator: " "))\n".utf8))
        exit(64)
    }
    // Warm up before anything is timed: the built-in profiles load once per process (under
    // AddressSanitizer about 0.2 s, on every core), which is no input's cost — loaded here, not
    // by whichever input first reaches them.
    _ = Fuzz.registry.profiles
    target([])
    atexit {
        let text = String(format: "cardscan-fuzz: slowest input %.3f ms (%d bytes)\n", slowestNanoseconds / 1e6, slowestSize)
        FileHandle.standardError.write(Data(text.utf8))
    }
    return target
}()
nonisolated(unsafe) var slowestNanoseconds = 0.0
nonisolated(unsafe) var slowestSize = 0

nonisolated(unsafe) var canarySink: UInt8 = 0

/// A planted heap overflow, no target: scripts/fuzz.sh runs it before a campaign and requires
/// AddressSanitizer to report it, which proves the Swift code carries ASan's checks. (swiftc
/// keeps only the last of several `-sanitize=` options, so a build can lose them silently.)
func asanCanary(_ input: [UInt8]) {
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
    bytes.initialize(repeating: 0, count: 4)
    canarySink = bytes[4 + input.count]
    bytes.deallocate()
}

/// The CPU time this thread has used: an input's own cost, whatever else the machine runs (a
/// wall clock would charge it with preemption by a build beside it, or a SIGSTOP).
func threadCPUNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let target = selected  // initialised (and warmed up) on the first call, before the clock starts
    let start = threadCPUNanoseconds()
    target(input)
    let took = Double(threadCPUNanoseconds() - start)
    if took > slowestNanoseconds {
        slowestNanoseconds = took
        slowestSize = size
        if took > 1e6 {
            let text = String(format: "cardscan-fuzz: slowest input so far %.3f ms (%d bytes)\n", took / 1e6, size)
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
    if took > slowBound { keepSlow(input, nanoseconds: took) }
    return 0
}

/// The campaign's bound (docs/reliability.md): an input slower than this is written to
/// FUZZ_SLOW_DIR, so that it can be run again alone — libFuzzer keeps only inputs that add
/// coverage, and a slow one that adds none was lost with its run.
let slowBound = 100e6
nonisolated(unsafe) var slowKept = 0

func keepSlow(_ input: [UInt8], nanoseconds: Double) {
    guard let dir = ProcessInfo.processInfo.environment["FUZZ_SLOW_DIR"], slowKept < 20 else { return }
    slowKept += 1
    let name = String(format: "%@/slow-%.0fms-%d-%d", dir, nanoseconds / 1e6, getpid(), slowKept)
    FileManager.default.createFile(atPath: name, contents: Data(input))
    FileHandle.standardError.write(Data("cardscan-fuzz: input over 100 ms kept as \(name)\n".utf8))
}
