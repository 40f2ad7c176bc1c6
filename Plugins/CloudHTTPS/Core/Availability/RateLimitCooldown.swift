import Synchronization
import TandemBridge

/// The wait a server asked for with a 429: from the failure that carried it until the delay has
/// passed, the model reports `rateLimited` (with the time left) and refuses to generate without
/// sending anything, so the next request does not go into the same refusal. Only a 429 with a
/// delay starts it (a quota without one, `quotaExceeded`, does not); a later 429 can only
/// lengthen it. It lives as long as the model, in memory.
public final class RateLimitCooldown: Sendable {
    /// Monotonic milliseconds; a test passes a clock it moves by hand.
    private let now: @Sendable () -> Int64
    /// When the wait ends, and how long the server asked for (for the detail text).
    private let state = Mutex<(until: Int64, asked: UInt64)?>(nil)

    public init(now: @escaping @Sendable () -> Int64 = MonotonicClock.nowMilliseconds) {
        self.now = now
    }

    /// Starts (or lengthens) the wait when `failure` is a 429 that said how long to wait.
    public func record(_ failure: BackendFailure) {
        guard failure.status == .rateLimited, failure.retryAfterMilliseconds > 0 else { return }
        let until = now() + Int64(clamping: failure.retryAfterMilliseconds)
        state.withLock { current in
            if let current, current.until >= until { return }
            current = (until, failure.retryAfterMilliseconds)
        }
    }

    /// Milliseconds until the wait has passed, nil when there is none.
    public var remainingMilliseconds: Int64? { current()?.left }

    /// The availability answer while waiting, nil when not.
    public var availability: Availability? {
        guard let wait = current() else { return nil }
        return .unavailable(.rateLimited, detail: Self.detail(left: wait.left, asked: wait.asked))
    }

    /// The failure a generation gets while waiting, before anything is sent; it carries the time
    /// left as its retry delay.
    public func refusal() -> BackendFailure? {
        guard let wait = current() else { return nil }
        var failure = BackendFailure(.rateLimited, Self.detail(left: wait.left, asked: wait.asked) + "; no request sent")
        failure.retryAfterMilliseconds = UInt64(wait.left)
        return failure
    }

    /// The time left and the delay asked for, read together; a wait that has passed is dropped.
    private func current() -> (left: Int64, asked: UInt64)? {
        let now = self.now()
        return state.withLock { state in
            guard let wait = state else { return nil }
            guard wait.until > now else {
                state = nil
                return nil
            }
            return (wait.until - now, wait.asked)
        }
    }

    /// "the server rate-limited this model (HTTP 429) and asked to wait 120.0 s: 118.4 s left".
    static func detail(left: Int64, asked: UInt64) -> String {
        "the server rate-limited this model (HTTP 429) and asked to wait \(seconds(Int64(clamping: asked))): \(seconds(left)) left"
    }

    /// Milliseconds as seconds with one decimal, rounded up so that "0.0 s left" never shows.
    static func seconds(_ milliseconds: Int64) -> String {
        let tenths = (milliseconds + 99) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
