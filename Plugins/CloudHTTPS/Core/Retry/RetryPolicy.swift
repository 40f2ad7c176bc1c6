import TandemBridge

/// When a failed call is tried again, and after how long.
///
/// Retried: 429 when the server said how long to wait (`Retry-After`, seconds or an HTTP-date),
/// at most `maxServerDelayMilliseconds`; 500, 503 and 504 after the server's `Retry-After` when it
/// gave one (with the same bound), else with exponential backoff and jitter. A wait that would
/// pass the call's deadline is not made: the failure is returned at once, carrying the server's
/// delay (`retryAfterMilliseconds`) for the caller. Never: any other 4xx (400, 401, 403, 404), an
/// exhausted quota (`quotaExceeded`), transport failures (offline is the router's business), and
/// nothing once output reached the caller.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in total, the first included.
    public var maxAttempts: Int
    public var baseDelayMilliseconds: Int64
    public var maxDelayMilliseconds: Int64
    /// The longest server-requested wait (429, 5xx) this client sits through; a longer one is
    /// returned to the caller at once, with its delay, to decide (fall back, or come back later).
    public var maxServerDelayMilliseconds: Int64

    public init(maxAttempts: Int = 3, baseDelayMilliseconds: Int64 = 500, maxDelayMilliseconds: Int64 = 8_000, maxServerDelayMilliseconds: Int64 = 10_000) {
        self.maxAttempts = maxAttempts
        self.baseDelayMilliseconds = baseDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
        self.maxServerDelayMilliseconds = maxServerDelayMilliseconds
    }

    public static let retriedServerStatuses: Set<Int32> = [500, 503, 504]

    /// The wait before the next attempt, or nil when `failure` is final.
    /// - Parameters:
    ///   - attempt: the attempt that just failed, from 1.
    ///   - remainingMilliseconds: what is left of the call's deadline.
    ///   - jitter: a number in [0, 1) (random in production, fixed in tests).
    public func delay(
        after failure: BackendFailure, attempt: Int, outputDelivered: Bool, remainingMilliseconds: Int64, jitter: Double
    ) -> Int64? {
        guard !outputDelivered, attempt < maxAttempts else { return nil }
        let wait: Int64
        let serverDelay = failure.retryAfterMilliseconds
        let retriedServerError = failure.status == .serverError && Self.retriedServerStatuses.contains(failure.httpStatus)
        switch failure.status {
        case .rateLimited, .serverError where retriedServerError && serverDelay > 0:
            guard serverDelay > 0, serverDelay <= UInt64(maxServerDelayMilliseconds) else { return nil }
            // The server's own figure, stretched by up to 10% so that clients spread out.
            wait = Int64(serverDelay) + Int64(Double(serverDelay) * 0.1 * jitter)
        case .serverError where retriedServerError:
            let exponential = baseDelayMilliseconds << Int64(min(attempt - 1, 20))
            let capped = min(maxDelayMilliseconds, exponential)
            // Up to 25% shorter: "equal-ish" jitter that keeps the backoff growing.
            wait = capped - Int64(Double(capped) * 0.25 * jitter)
        default:
            return nil
        }
        // A wait that leaves no time for the attempt itself is not worth making.
        guard wait < remainingMilliseconds else { return nil }
        return max(0, wait)
    }
}
