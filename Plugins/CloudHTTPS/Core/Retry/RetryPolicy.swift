import TandemBridge

/// When a failed call is tried again, and after how long.
///
/// Retried: 429 when the server said how long to wait, at most `maxServerDelayMilliseconds`, and
/// that wait fits the remaining budget;
/// 500, 503 and 504, with exponential backoff and jitter. Never: any other 4xx (400, 401, 403,
/// 404), an exhausted quota (`quotaExceeded`), transport failures (offline is the router's
/// business), and nothing once output reached the caller.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in total, the first included.
    public var maxAttempts: Int
    public var baseDelayMilliseconds: Int64
    public var maxDelayMilliseconds: Int64
    /// The longest server-requested wait (429) this client sits through; a longer one is
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
        switch failure.status {
        case .rateLimited:
            guard failure.retryAfterMilliseconds > 0, failure.retryAfterMilliseconds <= UInt64(maxServerDelayMilliseconds) else { return nil }
            // The server's own figure, stretched by up to 10% so that clients spread out.
            wait = Int64(failure.retryAfterMilliseconds) + Int64(Double(failure.retryAfterMilliseconds) * 0.1 * jitter)
        case .serverError where Self.retriedServerStatuses.contains(failure.httpStatus):
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
