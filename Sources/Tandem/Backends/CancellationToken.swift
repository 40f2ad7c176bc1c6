import Glibc
import Synchronization

/// A host-owned cancellation flag that plugins poll, with wakers for blocking waits.
///
/// - Note: Thread-safe. `cancel()` may be called from any thread, any number of times; each
///   registered waker runs at most once, on the cancelling thread (or at once, on the
///   registering thread, when already cancelled). Once `removeWaker` returns, that waker is not
///   running and never will: a plugin may free what its waker touches right after
///   unregistering it. A waker must not call `removeWaker` or `addWaker` itself.
public final class CancellationToken: Sendable {
    private struct State {
        var cancelled = false
        var wakers: [Int: @Sendable () -> Void] = [:]
        /// Keys of wakers that `cancel()` took and is running now (or is about to).
        var firing: Set<Int> = []
        var nextKey = 0
    }
    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func cancel() {
        let wakers = state.withLock { state -> [(Int, @Sendable () -> Void)] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.wakers.removeAll() }
            state.firing = Set(state.wakers.keys)
            return state.wakers.map { ($0.key, $0.value) }
        }
        // Run outside the lock: a waker may poll isCancelled.
        for (key, wake) in wakers {
            wake()
            state.withLock { _ = $0.firing.remove(key) }
        }
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

    /// Unregisters a waker; when `cancel()` is running it right now, waits until it has returned.
    public func removeWaker(_ key: Int) {
        while true {
            let done = state.withLock { state -> Bool in
                state.wakers.removeValue(forKey: key)
                return !state.firing.contains(key)
            }
            if done { return }
            sched_yield()
        }
    }
}
