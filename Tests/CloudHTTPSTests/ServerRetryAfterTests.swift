@testable import CloudHTTPSCore
import MockCloudServer
import TandemBridge
import Testing

/// Server retries against the mock, in both dialects: a `Retry-After` on 503 is honoured (seconds
/// and HTTP-date) within the call's deadline, and returned at once with its delay when waiting
/// would pass it; an HTML page served as an event stream is `decoding`.
@Suite struct ServerRetryAfterTests {
    static let dialects: [DialectKind] = [.gemini, .openai]

    /// The backoff alone would wait 20 ms (`retry_base_delay_ms` of the test models); the server
    /// asked for 1 s (a date 2 s ahead is 1–2 s away, as dates have whole seconds).
    @Test(arguments: dialects, ["retry-after-1-then-ok", "retry-date-2-then-ok"])
    func a503RetryAfterIsWaitedForThenTheSecondAttemptServes(_ dialect: DialectKind, scenario: String) throws {
        let (model, token) = try ModelFactory.mock(dialect, scenario)
        let started = MonotonicClock.nowMilliseconds()
        let run = GenerationRun.run(model, .prompt("x"))
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(run.value?.finish == .stop, "\(String(describing: run.failure))")
        #expect(elapsed >= 1_000, "retried after \(elapsed) ms")
        #expect(elapsed < 4_000)
        #expect(try MockServer.shared.requests(token).count == 2)
    }

    /// Waiting 30 s would pass the 5 s deadline: the 503 comes back at once, with the delay.
    @Test(arguments: dialects)
    func aRetryAfterPastTheDeadlineFailsAtOnceWithTheDelay(_ dialect: DialectKind) throws {
        let (model, token) = try ModelFactory.mock(dialect, "retry-after-30", ["total_timeout_ms": "5000", "max_retry_wait_ms": "60000"])
        let started = MonotonicClock.nowMilliseconds()
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(MonotonicClock.nowMilliseconds() - started < 2_000)
        #expect(failure?.status == .serverError)
        #expect(failure?.httpStatus == 503)
        #expect(failure?.retryAfterMilliseconds == 30_000)
        #expect(failure?.description.hasSuffix("(retry after 30.0 s)") == true, "\(String(describing: failure))")
        #expect(try MockServer.shared.requests(token).count == 1)
    }

    /// Longer than the client sits through (`max_retry_wait_ms`, default 10 s): not retried either.
    @Test(arguments: dialects)
    func aRetryAfterBeyondTheLongestWaitIsNotRetried(_ dialect: DialectKind) throws {
        let (model, token) = try ModelFactory.mock(dialect, "retry-after-30")
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.retryAfterMilliseconds == 30_000)
        #expect(try MockServer.shared.requests(token).count == 1)
    }

    @Test(arguments: dialects)
    func anHTMLPageServedAsAnEventStreamIsDecoding(_ dialect: DialectKind) throws {
        let (model, token) = try ModelFactory.mock(dialect, "html-stream")
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .decoding, "\(String(describing: failure))")
        #expect(failure?.message.contains("not SSE: <!DOCTYPE html>") == true, "\(String(describing: failure))")
        #expect(try MockServer.shared.requests(token).count == 1, "a decoding failure is not retried")
    }
}
