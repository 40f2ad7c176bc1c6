import Foundation
import MockCloudServer
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// The routing matrix's real rows (DESIGN §3): `tandem.cloud` against the TLS mock and
/// `tandem.fake` as the local side, opened from a config file through the real loader, in both
/// dialects. Only offline-class failures of a cloud primary fall back, unless the config widens
/// the policy.
@Suite struct CloudRoutingMatrixTests {
    static let dialects: [DialectKind] = [.gemini, .openai]
    static let prompt = "Name a river"

    @Test(arguments: dialects)
    func preferCloudWithTheMockStoppedFallsBackToLocalAsOffline(_ dialect: DialectKind) async throws {
        let mock = try await onOwnThread { try MockServer.start() }
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", mock: mock)
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        // The same config first reaches the running mock...
        let served = try await session.respond(to: Self.prompt)
        #expect(served.servedBy == "cloud")
        #expect(served.content == "Echo: \(Self.prompt)")
        // ...then, with the server gone, the connection is refused and the local side serves.
        try await onOwnThread { mock.stop() }
        let fallback = try await session.respond(to: Self.prompt)
        #expect(fallback.servedBy == "local")
        #expect(fallback.content == "The local side answers.")
        #expect(fallback.rawResponse.modelVersion == "local-v1")
        #expect(fallback.fallback.primaryID == "cloud")
        #expect(fallback.fallback.primaryTried)
        #expect(fallback.fallback.reason?.name == "offline")
        // The local side received the whole conversation, the cloud's answer included: the fake
        // counts the words of every message (prompt 3, "Echo: Name a river" 4, prompt 3).
        #expect(fallback.usage.promptTokens == 3 + 4 + 3)
        #expect(session.transcript.entries.count == 4)
    }

    @Test(arguments: dialects)
    func preferCloudWith503AfterRetriesThrowsServerErrorNamingTheCloud(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "unavailable", cloud: ["max_attempts": "3"])
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: Self.prompt) }
        #expect(error?.code == .backendFailure)
        #expect(error?.failure?.status == .serverError)
        #expect(error?.primary?.backendID == "cloud")
        #expect(error?.primary?.reason.name == "serverError")
        #expect(error?.message.hasPrefix("cloud: failed") == true, "\(String(describing: error))")
        #expect(error?.secondary == nil, "a 5xx of a cloud primary never reaches the local side")
        #expect(try await fixture.requests().count == 3, "retried up to max_attempts")
        #expect(session.transcript.entries.isEmpty)
    }

    @Test(arguments: dialects)
    func preferCloudWith429ThrowsRateLimitedByDefault(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit", cloud: ["max_attempts": "2"])
        defer { fixture.cleanUp() }
        let error = await #expect(throws: TandemError.self) { try await fixture.session().respond(to: Self.prompt) }
        #expect(error?.code == .backendFailure)
        #expect(error?.failure?.status == .rateLimited)
        #expect((error?.failure?.retryAfterMilliseconds ?? 0) > 0, "the server's delay reaches the caller")
        #expect(error?.primary?.backendID == "cloud")
        #expect(error?.secondary == nil)
        #expect(try await fixture.requests().count == 2, "a 429 with a short delay is retried")
    }

    @Test(arguments: dialects)
    func preferCloudWith429FallsBackWhenTheConfigWidensThePolicy(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(
            dialect, scenario: "ratelimit", cloud: ["max_attempts": "1"], fallbackAlsoOn: ["rateLimited"])
        defer { fixture.cleanUp() }
        let response = try await fixture.session().respond(to: Self.prompt)
        #expect(response.servedBy == "local")
        #expect(response.rawResponse.modelVersion == "local-v1")
        #expect(response.fallback.primaryTried)
        #expect(response.fallback.reason?.name == "rateLimited")
    }

    @Test(arguments: dialects)
    func tlsFailureThrowsAndNeverFallsBack(_ dialect: DialectKind) async throws {
        // Without ca_file the system CAs are used, and they do not trust the mock's test CA. A
        // policy widened to other failures still does not cover TLS.
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", cloud: ["ca_file": ""], fallbackAlsoOn: ["serverError", "rateLimited"])
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: Self.prompt) }
        #expect(error?.code == .backendFailure)
        #expect(error?.failure?.status == .tls)
        #expect(error?.primary?.backendID == "cloud")
        #expect(error?.secondary == nil, "a TLS failure is not offline: the local side is not asked")
        #expect(try await fixture.requests().isEmpty, "nothing reached the server")
    }

    @Test(arguments: dialects)
    func anUnconfiguredCloudIsNotCalledAndCarriesItsReason(_ dialect: DialectKind) async throws {
        // No key in the environment: availability says notConfigured without a network call.
        let unset = ["api_key_env": "TANDEM_TEST_UNSET_VARIABLE"]
        let preferCloud = try await CloudHostFixture(dialect, scenario: "ok", cloud: unset)
        defer { preferCloud.cleanUp() }
        let response = try await preferCloud.session().respond(to: Self.prompt)
        #expect(response.servedBy == "local")
        #expect(!response.fallback.primaryTried)
        #expect(response.fallback.reason?.name == "notConfigured")
        #expect(try await preferCloud.requests().isEmpty)

        let cloudOnly = try await CloudHostFixture(dialect, scenario: "ok", mode: "cloud-only", cloud: unset)
        defer { cloudOnly.cleanUp() }
        let error = await #expect(throws: TandemError.self) { try await cloudOnly.session().respond(to: Self.prompt) }
        #expect(error?.code == .unavailable)
        #expect(error?.availabilityReason == .notConfigured)
        #expect(error?.message.contains("TANDEM_TEST_UNSET_VARIABLE") == true, "names the variable: \(String(describing: error))")
    }

    @Test(arguments: dialects)
    func preferLocalWithLocalUnavailableIsServedByTheMockCloud(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", mode: "prefer-local", local: ["availability": "modelNotReady"])
        defer { fixture.cleanUp() }
        let response = try await fixture.session().respond(to: Self.prompt)
        #expect(response.servedBy == "cloud")
        #expect(response.content == "Echo: \(Self.prompt)")
        #expect(response.rawResponse.modelVersion == CloudHostFixture.servedVersion(dialect))
        #expect(response.rawResponse.finishReason == .stop)
        #expect(response.fallback.primaryID == "local")
        #expect(!response.fallback.primaryTried)
        #expect(response.fallback.reason?.name == "modelNotReady")
        #expect(response.usage.outputTokens > 0)
    }

    @Test(arguments: dialects)
    func preferLocalStreamsTheCloudAnswerInPieces(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", mode: "prefer-local", local: ["availability": "modelNotReady"])
        defer { fixture.cleanUp() }
        var snapshots: [ResponseSnapshot] = []
        for try await snapshot in try fixture.session().streamResponse(to: Self.prompt) { snapshots.append(snapshot) }
        let pieces = snapshots.filter { $0.response == nil }.map(\.content)
        #expect(pieces.count == 3, "the mock sends the echo in three events: \(pieces)")
        #expect(pieces.last == "Echo: \(Self.prompt)")
        #expect(snapshots.allSatisfy { $0.servedBy == "cloud" })
        #expect(snapshots.last?.response?.rawResponse.modelVersion == CloudHostFixture.servedVersion(dialect))
    }
}
