import Foundation

/// Runs `body` for every index in `0..<count` on `jobs` threads (each takes the next index
/// when it is free), and returns the results in index order whatever the timing.
func parallelMap<T>(_ count: Int, jobs: Int, _ body: (Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    if jobs <= 1 || count == 1 { return (0..<count).map(body) }
    let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
    results.initialize(repeating: nil)
    defer {
        results.deinitialize()
        results.deallocate()
    }
    let next = IndexCounter()
    withoutActuallyEscaping(body) { body in
        let shared = UncheckedBox((body, results))
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            let (body, results) = shared.value
            while let i = next.take(below: count) { results[i] = body(i) }
        }
    }
    return results.map { $0! }
}

/// The next index to work on, shared by the workers.
private final class IndexCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// Hands a value the workers only read (or write at their own index) across threads.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// `--shard I/N`: the I-th (1-based) of N deterministic slices of a list of paths. A path's
/// slice depends only on the path (FNV-1a of its bytes, modulo N), so adding a transcript never
/// moves the others, and every machine of a CI matrix agrees without talking to the others.
struct Shard: Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        index = i
        count = n
    }

    var description: String { "\(index)/\(count)" }

    func contains(_ path: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0100_0000_01b3
        }
        return Int(hash % UInt64(count)) == index - 1
    }
}
