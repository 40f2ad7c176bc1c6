@testable import CloudHTTPSCore
import TandemBridge
import Testing

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 3, baseDelayMilliseconds: 500, maxDelayMilliseconds: 8_000)

    func failure(_ status: BackendStatus, http: Int32, retryAfter: UInt64 = 0) -> BackendFailure {
        var f = BackendFailure(status, "x")
        f.httpStatus = http
        f.retryAfterMilliseconds = retryAfter
        return f
    }

    @Test func neverRetried() {
        for f in [failure(.invalidArgument, http: 400), failure(.auth, http: 401), failure(.auth, http: 403),
                  failure(.modelNotFound, http: 404), failure(.quotaExceeded, http: 429), failure(.rateLimited, http: 429),
                  failure(.offline, http: 0), failure(.tls, http: 0), failure(.serverError, http: 501), failure(.guardrail, http: 200)] {
            #expect(policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.5) == nil, "\(f)")
        }
    }

    @Test func serverErrorsBackOffExponentiallyWithBoundedJitter() {
        for status in [500, 503, 504] {
            let f = failure(.serverError, http: Int32(status))
            #expect(policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0) == 500)
            #expect(policy.delay(after: f, attempt: 2, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0) == 1_000)
            #expect(policy.delay(after: f, attempt: 2, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.999)! >= 750)
            #expect(policy.delay(after: f, attempt: 3, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0) == nil)
        }
        let capped = RetryPolicy(maxAttempts: 10, baseDelayMilliseconds: 500, maxDelayMilliseconds: 8_000)
        #expect(capped.delay(after: failure(.serverError, http: 503), attempt: 9, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0) == 8_000)
    }

    @Test func rateLimitWaitsWhatTheServerSaidWhenItFits() {
        let f = failure(.rateLimited, http: 429, retryAfter: 2_000)
        let wait = policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.5)
        #expect(wait.map { $0 >= 2_000 && $0 <= 2_200 } == true)
        #expect(policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 1_500, jitter: 0.5) == nil)
        #expect(policy.delay(after: f, attempt: 1, outputDelivered: true, remainingMilliseconds: 60_000, jitter: 0.5) == nil)
        // Longer than the client is willing to sit through: returned to the caller at once.
        #expect(policy.delay(after: failure(.rateLimited, http: 429, retryAfter: 120_000), attempt: 1, outputDelivered: false, remainingMilliseconds: 600_000, jitter: 0.5) == nil)
    }

    /// A 500/503/504 with `Retry-After` waits the server's figure (not the shorter backoff), within
    /// the same bounds as a 429; a 501 is never retried, whatever it says.
    @Test func serverErrorsWithRetryAfterWaitWhatTheServerSaid() {
        for status in [500, 503, 504] {
            let f = failure(.serverError, http: Int32(status), retryAfter: 2_000)
            let wait = policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.5)
            #expect(wait.map { $0 >= 2_000 && $0 <= 2_200 } == true, "\(status): \(String(describing: wait))")
            #expect(policy.delay(after: f, attempt: 1, outputDelivered: false, remainingMilliseconds: 1_500, jitter: 0.5) == nil, "past the deadline")
            #expect(policy.delay(after: f, attempt: 3, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.5) == nil, "attempts spent")
            #expect(policy.delay(after: failure(.serverError, http: Int32(status), retryAfter: 120_000), attempt: 1,
                                 outputDelivered: false, remainingMilliseconds: 600_000, jitter: 0.5) == nil, "longer than max_retry_wait_ms")
        }
        #expect(policy.delay(after: failure(.serverError, http: 501, retryAfter: 100), attempt: 1, outputDelivered: false, remainingMilliseconds: 60_000, jitter: 0.5) == nil)
    }

    @Test func backoffLongerThanTheDeadlineIsNotWaited() {
        #expect(policy.delay(after: failure(.serverError, http: 503), attempt: 1, outputDelivered: false, remainingMilliseconds: 300, jitter: 0) == nil)
    }
}
