import Tandem
import Testing

@testable import TandemServer

/// Router errors to HTTP statuses, and the access rules.
@Suite struct ErrorMappingTests {
    static func status(_ error: TandemError) -> APIError { APIError(error, retryAfterSeconds: 2) }

    @Test func noModelMayServeIs503WithBothSides() throws {
        let error = TandemError(
            .unavailable, "no model could serve",
            primary: RoutingAttempt(backendID: "local", reason: .unavailable(.modelNotReady, detail: "loading")),
            secondary: RoutingAttempt(backendID: "cloud", reason: .unavailable(.notConfigured, detail: "no key")))
        let mapped = Self.status(error)
        #expect(mapped.status == 503)
        let sides = try #require(mapped.details)
        #expect(sides["primary"]?["reason"] == "modelNotReady")
        #expect(sides["secondary"]?["reason"] == "notConfigured")
        #expect(mapped.body["error"]?["tandem"]?["secondary"]?["backend"] == "cloud")
    }

    @Test func queueFullAndRateLimitsAre429WithRetryAfter() {
        let queue = TandemError(.backendFailure, "busy", failure: BackendFailure(.concurrentRequests, "queue full"))
        let mappedQueue = Self.status(queue)
        #expect(mappedQueue.status == 429 && mappedQueue.code == "queue_full")
        #expect(mappedQueue.headers.first { $0.name == "Retry-After" }?.value == "2")
        var limited = BackendFailure(.rateLimited, "slow down")
        limited.retryAfterMilliseconds = 4500
        let mappedLimit = Self.status(TandemError(.backendFailure, "limited", failure: limited))
        #expect(mappedLimit.status == 429 && mappedLimit.code == "rate_limited")
        #expect(mappedLimit.headers.first { $0.name == "Retry-After" }?.value == "5")
        // A local primary whose queue was full, and a secondary that failed too: still 429.
        let both = TandemError(
            .backendFailure, "both",
            primary: RoutingAttempt(backendID: "local", reason: .failed(BackendFailure(.concurrentRequests, "full"))),
            secondary: RoutingAttempt(backendID: "cloud", reason: .failed(BackendFailure(.rateLimited, "limited"))),
            failure: BackendFailure(.rateLimited, "limited"))
        #expect(Self.status(both).status == 429)
    }

    @Test(arguments: [
        (TandemError(.timeout, "late"), 504), (TandemError(.invalidOptions, "bad"), 400), (TandemError(.emptyPrompt, "empty"), 400),
        (TandemError(.unsupportedRequest, "tools"), 400), (TandemError(.decodingFailure, "not JSON"), 502),
        (TandemError(.backendFailure, "down", failure: BackendFailure(.serverError, "500")), 502),
        (TandemError(.backendFailure, "long", failure: BackendFailure(.exceededContextWindowSize, "too long")), 400),
        (TandemError(.backendFailure, "off", failure: BackendFailure(.offline, "no route")), 503),
    ] as [(TandemError, Int)])
    func statuses(_ error: TandemError, _ status: Int) {
        #expect(Self.status(error).status == status)
    }

    @Test func keyComparisonAndBindRule() {
        #expect(AccessPolicy.constantTimeEqual(Array("secret".utf8), Array("secret".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("secreT".utf8), Array("secret".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("secret1".utf8), Array("secret".utf8)))
        #expect(!AccessPolicy.constantTimeEqual([], Array("secret".utf8)))
        let keyed = AccessPolicy(apiKey: "k-123")
        #expect(keyed.admits(authorization: "Bearer k-123"))
        #expect(!keyed.admits(authorization: "Bearer k-124"))
        #expect(!keyed.admits(authorization: "k-123"))
        #expect(!keyed.admits(authorization: nil))
        #expect(AccessPolicy(apiKey: nil).admits(authorization: nil))
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "127.0.0.1") == nil)
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "127.8.9.1") == nil)
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "::1") == nil)
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "0.0.0.0")?.contains("API key") == true)
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "::") != nil)
        #expect(AccessPolicy(apiKey: nil).bindProblem(host: "192.168.1.4") != nil)
        #expect(keyed.bindProblem(host: "0.0.0.0") == nil)
    }
}
