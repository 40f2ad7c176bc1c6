import CloudHTTPSCore
import MockCloudServer
import Synchronization
import TandemBridge
import Testing

/// The wait a 429 asks for, against the mock of both protocols, on a clock the test moves by
/// hand (nothing sleeps): `rateLimited` with the time left until it has passed, no request sent
/// meanwhile, and `available` again after.
@Suite struct RateLimitCooldownTests {
    /// Milliseconds that move only when the test says so.
    final class HandClock: Sendable {
        private let value = Atomic<Int64>(5_000_000)
        func read() -> Int64 { value.load(ordering: .relaxed) }
        func advance(_ milliseconds: Int64) { value.add(milliseconds, ordering: .relaxed) }
    }

    static func rateLimitedDetail(_ availability: Availability) -> String? {
        if case .unavailable(.rateLimited, let detail, nil) = availability { detail } else { nil }
    }

    @Test(arguments: [DialectKind.openai, .gemini])
    func a429WithADelayReportsRateLimitedUntilTheDelayHasPassed(_ dialect: DialectKind) throws {
        let clock = HandClock()
        let (model, token) = try ModelFactory.mock(dialect, "ratelimit-long", cooldown: RateLimitCooldown(now: clock.read))
        #expect(model.availability(locale: nil) == .available)
        let first = GenerationRun.run(model, .prompt("x")).failure
        #expect(first?.status == .rateLimited)
        #expect(first?.retryAfterMilliseconds == 120_000)

        let detail = Self.rateLimitedDetail(model.availability(locale: nil))
        #expect(detail == "the server rate-limited this model (HTTP 429) and asked to wait 120.0 s: 120.0 s left")
        clock.advance(100_000)
        #expect(Self.rateLimitedDetail(model.availability(locale: nil))?.hasSuffix(": 20.0 s left") == true)

        // Meanwhile a generation fails at once with the time left, and the server sees nothing.
        clock.advance(4_950)
        let refused = GenerationRun.run(model, .prompt("x")).failure
        #expect(refused?.status == .rateLimited)
        #expect(refused?.retryAfterMilliseconds == 15_050)
        #expect(refused?.message.contains("15.1 s left; no request sent") == true, "\(String(describing: refused))")
        #expect(try MockServer.shared.requests(token).count == 1)

        clock.advance(15_049)
        #expect(Self.rateLimitedDetail(model.availability(locale: nil))?.hasSuffix(": 0.1 s left") == true)
        clock.advance(1)
        #expect(model.availability(locale: nil) == .available)
        #expect(GenerationRun.run(model, .prompt("x")).failure?.status == .rateLimited)
        #expect(try MockServer.shared.requests(token).count == 2, "after the delay the request is sent again")
    }

    @Test func aLater429OnlyLengthensTheWait() {
        let clock = HandClock()
        let cooldown = RateLimitCooldown(now: clock.read)
        var long = BackendFailure(.rateLimited, "429")
        long.retryAfterMilliseconds = 60_000
        var short = long
        short.retryAfterMilliseconds = 1_000
        cooldown.record(long)
        cooldown.record(short)
        #expect(cooldown.remainingMilliseconds == 60_000)
        clock.advance(59_500)
        cooldown.record(short)
        #expect(cooldown.remainingMilliseconds == 1_000)
        // A server error with Retry-After, or a 429 without a delay, starts no wait.
        let other = RateLimitCooldown(now: clock.read)
        var unavailable = BackendFailure(.serverError, "503")
        unavailable.retryAfterMilliseconds = 5_000
        other.record(unavailable)
        other.record(BackendFailure(.rateLimited, "429 without a delay"))
        #expect(other.remainingMilliseconds == nil)
        #expect(other.availability == nil)
    }

    /// A 429 waited out by a retry inside the call, and an exhausted quota (a 429 without a
    /// delay), leave the model available.
    @Test func retried429AndQuotaLeaveTheModelAvailable() throws {
        let (retried, _) = try ModelFactory.mock(.openai, "ratelimit-then-ok")
        #expect(GenerationRun.run(retried, .prompt("x")).value?.finish == .stop)
        #expect(retried.availability(locale: nil) == .available)
        let (quota, _) = try ModelFactory.mock(.openai, "quota")
        #expect(GenerationRun.run(quota, .prompt("x")).failure?.status == .quotaExceeded)
        #expect(quota.availability(locale: nil) == .available)
    }
}
