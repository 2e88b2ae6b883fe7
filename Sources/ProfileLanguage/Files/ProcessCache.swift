import Foundation

/// Values worked out once per process and shared by every thread that asks (lookup tables,
/// currency exponents): the first asker computes, the others wait for it under the lock.
final class ProcessCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSRecursiveLock()  // a value made from another: a parent profile's own parent
    private var values: [Key: Value] = [:]

    func get(_ key: Key, _ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let v = values[key] { return v }
        let v = make()
        values[key] = v
        return v
    }
}
