import Foundation

/// A tiny lock-protected Int64 for the cancelling thread.
final class ManagedAtomicInt64: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    func store(_ v: Int64) { lock.lock(); value = v; lock.unlock() }
    func load() -> Int64 { lock.lock(); defer { lock.unlock() }; return value }
}
