import Foundation
import MockCloudServer
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// After a 429 that asked for a long wait (the mock's `ratelimit-long`: 120 s), one host keeps
/// the cloud side `rateLimited` and sends the server nothing more: the router hands the request
/// to the local side without asking the cloud when the policy falls back on rate limits, and
/// otherwise fails at once naming the time left. The wait itself, and its end, are tested on a
/// hand-moved clock in CloudHTTPSTests/RateLimitCooldownTests.
@Suite struct CloudCooldownTests {
    static let dialects: [DialectKind] = [.gemini, .openai]
    static let prompt = "Hello mock"

    @Test(arguments: dialects)
    func withoutFallbackOnRateLimitsTheNextRequestFailsAtOnce(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit-long")
        defer { fixture.cleanUp() }
        let host = try fixture.host()
        let model = try host.hybridModel()
        let first = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: model).respond(to: Self.prompt) }
        #expect(first?.code == .backendFailure)
        #expect(first?.failure?.status == .rateLimited)
        #expect(first?.failure?.retryAfterMilliseconds == 120_000)

        guard case .unavailable(.rateLimited, let detail, _) = try #require(host.models["cloud"]).availability else {
            Issue.record("the cloud side is not rateLimited: \(String(describing: host.models["cloud"]?.availability))")
            return
        }
        #expect(detail.contains("asked to wait 120.0 s"), "\(detail)")
        #expect(detail.hasSuffix(" s left"), "\(detail)")

        let second = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: model).respond(to: Self.prompt) }
        #expect(second?.code == .unavailable)
        #expect(second?.primary?.backendID == "cloud")
        #expect(second?.primary?.reason.name == "rateLimited")
        #expect(second?.secondary == nil, "prefer-cloud does not fall back on a rate limit by default")
        #expect(second?.message.contains(" s left") == true, "\(String(describing: second))")
        #expect(try await fixture.requests().count == 1, "the second request never reached the server")
    }

    @Test(arguments: dialects)
    func withFallbackOnRateLimitsTheCloudIsSkippedWithoutARequest(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit-long", fallbackAlsoOn: ["rateLimited"])
        defer { fixture.cleanUp() }
        let model = try fixture.host().hybridModel()
        let first = try await LanguageModelSession(model: model).respond(to: Self.prompt)
        #expect(first.servedBy == "local")
        #expect(first.fallback.primaryTried)
        #expect(first.fallback.reason?.name == "rateLimited")

        let second = try await LanguageModelSession(model: model).respond(to: Self.prompt)
        #expect(second.servedBy == "local")
        #expect(!second.fallback.primaryTried, "skipped on its availability")
        #expect(second.fallback.reason?.name == "rateLimited")
        #expect(second.fallback.reason?.description.contains(" s left") == true, "\(String(describing: second.fallback.reason))")
        #expect(try await fixture.requests().count == 1)
    }

    /// prefer-local with the cloud as the secondary: a local failure meets a rate-limited cloud,
    /// and the error names both, the cloud's with the time left.
    @Test func aRateLimitedSecondaryIsNamedWithTheTimeLeft() async throws {
        let fixture = try await CloudHostFixture(
            .openai, scenario: "ratelimit-long", mode: "prefer-local", local: ["error": "serverError"])
        defer { fixture.cleanUp() }
        let host = try fixture.host()
        let cloudOnly = try host.hybridModel(routing: .mode(.cloudOnly))
        _ = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: cloudOnly).respond(to: Self.prompt) }
        let error = await #expect(throws: TandemError.self) {
            try await LanguageModelSession(model: try host.hybridModel()).respond(to: Self.prompt)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.primary?.reason.name == "serverError")
        #expect(error?.secondary?.backendID == "cloud")
        #expect(error?.secondary?.reason.name == "rateLimited")
        #expect(error?.message.contains(" s left") == true, "\(String(describing: error))")
        #expect(try await fixture.requests().count == 1)
    }
}
