import Synchronization

/// A host-owned cancellation flag that plugins poll, with wakers for blocking waits.
///
/// - Note: Thread-safe. `cancel()` may be called from any thread, any number of times; each
///   registered waker runs at most once, on the cancelling thread (or at once, on the
///   registering thread, when already cancelled).
public final class CancellationToken: Sendable {
    private struct State {
        var cancelled = false
        var wakers: [Int: @Sendable () -> Void] = [:]
        var nextKey = 0
    }
    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func cancel() {
        let wakers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.wakers.removeAll() }
            return Array(state.wakers.values)
        }
        wakers.forEach { $0() }
    }

    /// Registers `wake`; returns a key for `removeWaker`, or nil when it already ran because the
    /// token was cancelled.
    @discardableResult
    public func addWaker(_ wake: @escaping @Sendable () -> Void) -> Int? {
        let key = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextKey += 1
            state.wakers[state.nextKey] = wake
            return state.nextKey
        }
        if key == nil { wake() }
        return key
    }

    public func removeWaker(_ key: Int) {
        state.withLock { _ = $0.wakers.removeValue(forKey: key) }
    }
}
