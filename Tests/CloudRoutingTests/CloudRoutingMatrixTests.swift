import Foundation
import MockCloudServer
import PluginFixtures
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// The routing matrix's real rows (README "Routing: who answers"): `tandem.cloud` against the TLS
/// mock and `tandem.fake` as the local side, opened from a config file through the real loader, in
/// both dialects. Only offline-class failures of a cloud primary fall back, unless the config
/// widens the policy.
@Suite struct CloudRoutingMatrixTests {
    static let dialects: [DialectKind] = [.gemini, .openai]
    static let prompt = "Name a river"

    @Test(arguments: dialects)
    func preferCloudWithTheMockStoppedFallsBackToLocalAsOffline(_ dialect: DialectKind) async throws {
        let mock = try await runOffThePool { try MockServer.start() }
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", mock: mock)
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        // The same config first reaches the running mock...
        let served = try await session.respond(to: Self.prompt)
        #expect(served.servedBy == "cloud")
        #expect(served.content == "Echo: \(Self.prompt)")
        // ...then, with the server gone, the connection is refused and the local side serves.
        try await runOffThePool { mock.stop() }
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
    func anUnconfiguredCloudIsNotCalledAndItsReasonIsThrown(_ dialect: DialectKind) async throws {
        // No key in the environment: availability says notConfigured without a network call, and
        // prefer-cloud does not turn a missing key into a local answer.
        let unset = ["api_key_env": "TANDEM_TEST_UNSET_VARIABLE"]
        for mode in ["prefer-cloud", "cloud-only"] {
            let fixture = try await CloudHostFixture(dialect, scenario: "ok", mode: mode, cloud: unset)
            defer { fixture.cleanUp() }
            let error = await #expect(throws: TandemError.self) { try await fixture.session().respond(to: Self.prompt) }
            #expect(error?.code == .unavailable, "\(mode)")
            #expect(error?.availabilityReason == .notConfigured)
            #expect(error?.secondary == nil)
            #expect(error?.message.contains("TANDEM_TEST_UNSET_VARIABLE") == true, "names the variable: \(String(describing: error))")
            #expect(try await fixture.requests().isEmpty)
        }
        // Named in also_on, it falls back, and the record says why.
        let widened = try await CloudHostFixture(dialect, scenario: "ok", cloud: unset, fallbackAlsoOn: ["notConfigured"])
        defer { widened.cleanUp() }
        let response = try await widened.session().respond(to: Self.prompt)
        #expect(response.servedBy == "local")
        #expect(!response.fallback.primaryTried)
        #expect(response.fallback.reason?.name == "notConfigured")
    }

    /// The real plugin's reachable states as a table: each mode that uses the cloud × each state
    /// × the default policy and one widened by `also_on` × both dialects; the expected outcome
    /// follows the routing rules (`CloudRow.expected`).
    @Test(arguments: CloudRow.all)
    func routingTable(_ row: CloudRow) async throws {
        let fixture = try await CloudHostFixture(
            row.dialect, scenario: row.state.scenario(row.dialect), mode: row.mode,
            cloud: row.state.cloudSettings, local: row.mode == "prefer-local" ? ["availability": "modelNotReady"] : [:],
            fallbackAlsoOn: row.widened ? CloudRow.alsoOn : [])
        defer { fixture.cleanUp() }
        if case .offline = row.state {
            // Nothing listens there: the connection is refused, an offline-class failure.
            let url = fixture.mock.baseURL(row.dialect, token: fixture.token).replacing("127.0.0.1:\(fixture.mock.port)", with: "127.0.0.1:1")
            try Self.rewrite(fixture, cloudSetting: "base_url", to: url)
        }
        let session = try fixture.session()
        let outcome: Result<Response, TandemError>
        do throws(TandemError) { outcome = .success(try await session.respond(to: Self.prompt)) } catch { outcome = .failure(error) }
        switch (row.expected, outcome) {
        case (.served(let by, let reason, let tried), .success(let response)):
            #expect(response.servedBy == by, "\(row)")
            #expect(response.fallback.reason?.name == reason, "\(row)")
            #expect(response.fallback.primaryTried == tried, "\(row)")
            #expect(response.fallback.primaryID == (row.mode == "prefer-local" ? "local" : "cloud"), "\(row)")
        case (.thrown(let code, let primaryReason, let secondaryReason), .failure(let error)):
            #expect(error.code == code, "\(row): \(error)")
            #expect(error.primary?.reason.name == primaryReason, "\(row): \(error)")
            #expect(error.secondary?.reason.name == secondaryReason, "\(row): \(error)")
        case (let expected, let actual):
            Issue.record("\(row): expected \(expected), got \(actual)")
        }
    }

    static func rewrite(_ fixture: CloudHostFixture, cloudSetting key: String, to value: String) throws {
        let url = URL(fileURLWithPath: fixture.configPath)
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var backends = try #require(root["backends"] as? [String: Any])
        var cloud = try #require(backends["cloud"] as? [String: Any])
        var settings = try #require(cloud["settings"] as? [String: Any])
        settings[key] = value
        cloud["settings"] = settings
        backends["cloud"] = cloud
        root["backends"] = backends
        try JSONSerialization.data(withJSONObject: root).write(to: url)
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

/// One row of the cloud routing table.
struct CloudRow: Sendable, CustomStringConvertible {
    enum State: Sendable, CustomStringConvertible {
        case ok, notConfigured, offline
        /// The mock answers with this failure (after the retries it allows).
        case fails(BackendStatus)

        static let all: [State] = [.ok, .notConfigured, .offline, .fails(.serverError), .fails(.rateLimited), .fails(.tls),
                                   .fails(.decoding), .fails(.guardrail)]

        func scenario(_ dialect: DialectKind) -> String {
            switch self {
            case .ok, .notConfigured, .offline, .fails(.tls): "ok"
            case .fails(.serverError): "unavailable"
            case .fails(.rateLimited): "ratelimit"
            case .fails(.decoding): "html-stream"
            case .fails(.guardrail): dialect == .gemini ? "blocked" : "filter"
            case .fails(let status): fatalError("no mock scenario for \(status)")
            }
        }

        var cloudSettings: [String: String] {
            switch self {
            case .notConfigured: ["api_key_env": "TANDEM_TEST_UNSET_VARIABLE"]
            case .fails(.tls): ["ca_file": ""]  // the system CAs do not trust the mock's
            default: ["max_attempts": "2"]
            }
        }

        /// The name the router records for it.
        var reason: String? {
            switch self {
            case .ok: nil
            case .notConfigured: "notConfigured"
            case .offline: "offline"
            case .fails(let status): status.name
            }
        }

        var description: String { reason ?? "ok" }
    }

    enum Expected: Sendable {
        case served(by: String, reason: String?, primaryTried: Bool)
        case thrown(TandemError.Code, primary: String, secondary: String?)
    }

    /// The widened policy: one availability reason and two error codes.
    static let alsoOn = ["notConfigured", "serverError", "rateLimited"]

    let dialect: DialectKind
    let mode: String
    let state: State
    let widened: Bool

    static let all: [CloudRow] = [DialectKind.gemini, .openai].flatMap { dialect in
        ["prefer-cloud", "cloud-only", "prefer-local"].flatMap { mode in
            State.all.flatMap { state in [false, true].map { CloudRow(dialect: dialect, mode: mode, state: state, widened: $0) } }
        }
    }

    /// The routing rules for this row. prefer-local's local side is `modelNotReady`, so the cloud serves
    /// as the secondary there.
    var expected: Expected {
        let reason = state.reason
        switch mode {
        case "prefer-cloud":
            guard let reason else { return .served(by: "cloud", reason: nil, primaryTried: true) }
            let fallsBack = reason == "offline" || (widened && Self.alsoOn.contains(reason))
            if fallsBack { return .served(by: "local", reason: reason, primaryTried: reason != "notConfigured") }
            return .thrown(reason == "notConfigured" ? .unavailable : .backendFailure, primary: reason, secondary: nil)
        case "cloud-only":
            guard let reason else { return .served(by: "cloud", reason: nil, primaryTried: true) }
            return .thrown(reason == "notConfigured" ? .unavailable : .backendFailure, primary: reason, secondary: nil)
        default:
            guard let reason else { return .served(by: "cloud", reason: "modelNotReady", primaryTried: false) }
            return .thrown(reason == "notConfigured" ? .unavailable : .backendFailure, primary: "modelNotReady", secondary: reason)
        }
    }

    var description: String { "\(dialect) \(mode) cloud=\(state) policy=\(widened ? "widened" : "default")" }
}
