import Synchronization
import TandemBridge

/// The wait a server asked for with a 429: from the failure that carried it until the delay has
/// passed, the model reports `rateLimited` (with the time left) and refuses to generate without
/// sending anything, so the next request does not go into the same refusal. Only a 429 with a
/// delay starts it (a quota without one, `quotaExceeded`, does not); a later 429 can only
/// lengthen it. With a `CooldownFile` (the plugin always gives one when there is a cache folder)
/// the wait is also written to disk and read back, so it holds in every process that opens the
/// same backend until it has passed, not only in the one that got the 429.
public final class RateLimitCooldown: Sendable {
    /// Wall-clock milliseconds (the file is read by other processes); a test passes a clock it
    /// moves by hand.
    private let now: @Sendable () -> Int64
    /// The wait this process saw.
    private let state = Mutex<CooldownFile.Wait?>(nil)
    public let file: CooldownFile?

    public init(now: @escaping @Sendable () -> Int64 = WallClock.nowMilliseconds, file: CooldownFile? = nil) {
        self.now = now
        self.file = file
    }

    /// Starts (or lengthens) the wait when `failure` is a 429 that said how long to wait.
    public func record(_ failure: BackendFailure) {
        guard failure.status == .rateLimited, failure.retryAfterMilliseconds > 0 else { return }
        let wait = CooldownFile.Wait(until: now() + Int64(clamping: failure.retryAfterMilliseconds), asked: failure.retryAfterMilliseconds)
        state.withLock { current in
            if let current, current.until >= wait.until { return }
            current = wait
        }
        guard let file else { return }
        if case .wait(let stored) = file.read(), stored.until >= wait.until { return }
        do {
            try file.write(wait)
        } catch {
            file.warn("the rate-limit cooldown is kept in this process only: \(error.message)")
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

    /// The time left and the delay asked for: the later of this process's wait and the file's; a
    /// wait that has passed is dropped. The time left never exceeds the delay asked for, whatever
    /// the wall clock did since.
    private func current() -> (left: Int64, asked: UInt64)? {
        let now = self.now()
        var wait = state.withLock { state -> CooldownFile.Wait? in
            if let wait = state, wait.until <= now { state = nil }
            return state
        }
        if let file, case .wait(let stored) = file.read(), stored.until > now, stored.until > wait?.until ?? .min {
            wait = stored
        }
        guard let wait else { return nil }
        return (min(wait.until - now, Int64(clamping: wait.asked)), wait.asked)
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
