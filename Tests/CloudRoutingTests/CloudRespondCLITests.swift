import Foundation
import MockCloudServer
import Testing

import enum CloudHTTPSCore.DialectKind

/// `tandem respond --mode cloud-only` as an operator runs it: the real binary, a config file
/// pointing `tandem.cloud` at the mock, the key in the environment. The config's own mode is
/// prefer-local with a local side that would answer, so only `--mode` sends it to the cloud.
@Suite struct CloudRespondCLITests {
    static let dialects: [DialectKind] = [.gemini, .openai]

    static func fixture(_ dialect: DialectKind, _ scenario: String = "ok") async throws -> CloudHostFixture {
        try await CloudHostFixture(dialect, scenario: scenario, mode: "prefer-local")
    }

    @Test(arguments: dialects)
    func printsTheAnswerAndWhoServedIt(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect)
        defer { fixture.cleanUp() }
        let run = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "Hello mock"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Echo: Hello mock\n")
        #expect(run.stderr.contains("served by cloud, model \(CloudHostFixture.servedVersion(dialect))"), "\(run.stderr)")
        #expect(!run.leaksKey)
        #expect(try await fixture.requests().count == 1)
    }

    @Test(arguments: dialects)
    func jsonCarriesTheMocksModelVersion(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect)
        defer { fixture.cleanUp() }
        let run = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", "Hello mock"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["text"] as? String == "Echo: Hello mock")
        #expect(json["modelVersion"] as? String == CloudHostFixture.servedVersion(dialect))
        #expect(json["servedBy"] as? String == "cloud")
        #expect(json["finishReason"] as? String == "stop")
        let usage = try #require(json["usage"] as? [String: Any])
        #expect((usage["outputTokens"] as? Int ?? 0) > 0)
        let fallback = try #require(json["fallback"] as? [String: Any])
        #expect(fallback["primary"] as? String == "cloud")
        #expect(fallback["reason"] is NSNull)
        #expect(!run.leaksKey)
    }

    @Test(arguments: dialects)
    func streamPrintsThePiecesAsTheyArrive(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect)
        defer { fixture.cleanUp() }
        let plain = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--stream", "Hello mock"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "Echo: Hello mock\n")
        #expect(plain.stderr.contains("served by cloud, model \(CloudHostFixture.servedVersion(dialect))"))

        let json = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--stream", "--json", "Hello mock"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = try json.stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let deltas = lines.compactMap { $0["delta"] as? String }
        #expect(deltas.count == 3, "the mock streams the echo in three events: \(deltas)")
        #expect(deltas.joined() == "Echo: Hello mock")
        #expect(lines.last?["modelVersion"] as? String == CloudHostFixture.servedVersion(dialect))
        #expect(!plain.leaksKey && !json.leaksKey)
    }

    @Test(arguments: dialects)
    func schemaPrintsTheValidatedDocumentAndItsSnapshots(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect, "json")
        defer { fixture.cleanUp() }
        let schema = #"{"type": "object", "properties": {"city": {"type": "string"}, "population": {"type": "integer", "minimum": 0}}, "required": ["city", "population"]}"#
        try schema.write(toFile: fixture.folder + "/city.json", atomically: true, encoding: .utf8)
        let whole = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--schema", "city.json", "Facts about Paris"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout == #"{"city":"Paris","population":2102650}"# + "\n")
        #expect(whole.stderr.contains("served by cloud, model \(CloudHostFixture.servedVersion(dialect))"))
        // Streamed: the snapshot after the mock's first piece, then the validated document.
        let streamed = try await CLIRun.run(
            fixture, ["respond", "--mode", "cloud-only", "--schema", "city.json", "--stream", "Facts about Paris"])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(streamed.stdout.split(separator: "\n") == [#"{"city":"Paris"}"#, #"{"city":"Paris","population":2102650}"#])
        #expect(!whole.leaksKey && !streamed.leaksKey)
    }

    @Test(arguments: dialects)
    func aServerErrorExitsWithTheCloudsStatus(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect, "unavailable")
        defer { fixture.cleanUp() }
        let run = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", "Hello mock"])
        #expect(run.status == 6, "backend error: \(run.stderr)")
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "backendFailure")
        #expect(error["status"] as? String == "serverError")
        #expect((error["primary"] as? [String: Any])?["backend"] as? String == "cloud")
        #expect(run.stderr.contains("cloud: failed (serverError"), "\(run.stderr)")
        #expect(!run.leaksKey)
    }

    /// A 429's delay reaches the operator: `retryAfterMs` in the JSON error, `retry after 0.2 s`
    /// in the message (the mock asks for 200 ms; one attempt, so it is not retried). Each run
    /// has a fixture of its own: the first run's cooldown would otherwise hold in the second.
    @Test(arguments: dialects)
    func aRateLimitCarriesItsRetryDelayToTheCLI(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit", mode: "prefer-local", cloud: ["max_attempts": "1"])
        let plainFixture = try await CloudHostFixture(dialect, scenario: "ratelimit", mode: "prefer-local", cloud: ["max_attempts": "1"])
        defer { fixture.cleanUp(); plainFixture.cleanUp() }
        let json = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", "Hello mock"])
        #expect(json.status == 6, "\(json.stderr)")
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["status"] as? String == "rateLimited")
        #expect(error["retryAfterMs"] as? Int == 200, "\(error)")
        #expect((error["message"] as? String)?.hasSuffix("(retry after 0.2 s))") == true, "\(error)")
        let plain = try await CLIRun.run(plainFixture, ["respond", "--mode", "cloud-only", "Hello mock"])
        #expect(plain.status == 6)
        #expect(plain.stderr.contains("(retry after 0.2 s)"), "\(plain.stderr)")
    }

    /// `--tools FILE`: the declarations reach the wire in the protocol's shape, and the calls the
    /// server made come back printed, none of them run (the mock would answer a tool message).
    @Test(arguments: dialects)
    func toolsFromAFileAreDeclaredAndTheirCallsPrinted(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect, "tools")
        defer { fixture.cleanUp() }
        let tools = """
            [{"name": "get_weather", "description": "The weather in a city",
              "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
             {"name": "get_time", "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}}}]
            """
        try tools.write(toFile: fixture.folder + "/tools.json", atomically: true, encoding: .utf8)
        let run = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--tools", "tools.json", "--json", "Weather and time in Paris?"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["finishReason"] as? String == "toolCalls")
        let calls = try #require(json["toolCalls"] as? [[String: Any]])
        #expect(calls.map { $0["name"] as? String } == ["get_weather", "get_time"])
        let arguments = try calls.map { try JSONSerialization.jsonObject(with: Data(($0["arguments"] as? String ?? "").utf8)) as? [String: Any] }
        // What each mock sends: OpenAI's joined fragments, Gemini's whole calls.
        #expect(arguments.first??["city"] as? String == "Paris")
        #expect(arguments.last??["zone"] as? String == (dialect == .openai ? "CET" : "Europe/Paris"))
        let requests = try await fixture.requests()
        #expect(requests.count == 1, "nothing was run, so no second turn")
        let declared: [String] = switch dialect {
        case .openai: ((requests[0]["tools"] as? [[String: Any]]) ?? []).compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
        case .gemini: ((requests[0]["tools"] as? [[String: Any]])?.first?["functionDeclarations"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(declared == ["get_weather", "get_time"])
        #expect(!run.leaksKey)
    }

    /// `--thinking-level` and `--thinking-budget` become the protocol's own fields.
    @Test func thinkingOptionsReachTheWire() async throws {
        let openai = try await Self.fixture(.openai)
        defer { openai.cleanUp() }
        let level = try await CLIRun.run(openai, ["respond", "--mode", "cloud-only", "--thinking-level", "high", "Hello mock"])
        #expect(level.status == 0, "\(level.stderr)")
        #expect(try await openai.requests().map { $0["reasoning_effort"] as? String } == ["high"])

        let gemini = try await Self.fixture(.gemini)
        defer { gemini.cleanUp() }
        let budget = try await CLIRun.run(gemini, ["respond", "--mode", "cloud-only", "--thinking-budget", "512", "Hello mock"])
        #expect(budget.status == 0, "\(budget.stderr)")
        let config = try await gemini.requests().first?["generationConfig"] as? [String: Any]
        #expect((config?["thinkingConfig"] as? [String: Any])?["thinkingBudget"] as? Int == 512, "\(String(describing: config))")
        // A protocol that takes only a level says so, naming the option.
        let refused = try await CLIRun.run(openai, ["respond", "--mode", "cloud-only", "--thinking-budget", "512", "Hello mock"])
        #expect(refused.status == 6)
        #expect(refused.stderr.contains("the OpenAI protocol takes a thinking level (reasoning_effort), not a budget"), "\(refused.stderr)")
    }
}
