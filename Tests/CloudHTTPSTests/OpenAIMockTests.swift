@testable import CloudHTTPSCore
import JSONModel
import MockCloudServer
import Foundation
import TandemBridge
import Testing

/// The OpenAI-compatible dialect end to end against the mock.
@Suite struct OpenAIMockTests {
    @Test func streamsWithUsageAndServedModel() throws {
        let (model, token) = try ModelFactory.mock(.openai, "ok")
        let run = GenerationRun.run(model, .prompt("hi you"))
        let result = try run.result.get()
        #expect(run.recorder.text == "Echo: hi you")
        #expect(result.finish == .stop)
        #expect(result.modelVersion == "gpt-4o-mini-2026-01-01")
        #expect(result.usage == Usage(promptTokens: 9, outputTokens: 4, thinkingTokens: 2))
        let sent = try MockServer.shared.requests(token)[0]
        #expect((sent["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
    }

    @Test func withoutStreamingAndWithoutUsage() throws {
        let (model, _) = try ModelFactory.mock(.openai, "nousage", ["stream": "false"])
        let run = GenerationRun.run(model, .prompt("plain"))
        #expect(run.recorder.text == "Echo: plain")
        #expect(run.value?.usage == Usage())
        let (streamed, _) = try ModelFactory.mock(.openai, "nousage")
        #expect(GenerationRun.run(streamed, .prompt("plain")).value?.finish == .stop)
    }

    @Test(arguments: [true, false])
    func toolCallsRoundTrip(stream: Bool) throws {
        let (model, token) = try ModelFactory.mock(.openai, "tools", ["stream": stream ? "true" : "false"])
        var request = BackendRequest(messages: [.user("weather?")], tools: [ToolDeclaration(name: "get_weather", description: "w", parametersSchema: #"{"type":"object"}"#)])
        let first = GenerationRun.run(model, request)
        #expect(first.value?.finish == .toolCalls)
        #expect(first.recorder.toolCalls == [
            ToolCall(id: "call_1", name: "get_weather", argumentsJSON: #"{"city": "Paris"}"#),
            ToolCall(id: "call_2", name: "get_time", argumentsJSON: #"{"zone": "CET"}"#),
        ])
        request.messages.append(.assistant("", toolCalls: first.recorder.toolCalls))
        request.messages.append(.toolOutput("sunny", callId: "call_1", toolName: "get_weather"))
        request.messages.append(.toolOutput("noon", callId: "call_2", toolName: "get_time"))
        let second = GenerationRun.run(model, request)
        #expect(second.recorder.text == "Tool results: sunny; noon")
        let sent = try MockServer.shared.requests(token)
        let tools = sent[0]["tools"] as? [[String: Any]]
        #expect((tools?[0]["function"] as? [String: Any])?["name"] as? String == "get_weather")
    }

    @Test func guidedOutputUsesStrictJSONSchema() throws {
        let (model, token) = try ModelFactory.mock(.openai, "json")
        let run = GenerationRun.run(model, .prompt("city", options: BackendOptions(responseSchema: #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#)))
        #expect(try JSONValue(parsing: run.recorder.text, keepingNumberText: true)["population"]?.integerValue == 2_102_650)
        let format = try MockServer.shared.requests(token)[0]["response_format"] as? [String: Any]
        #expect(format?["type"] as? String == "json_schema")
        #expect((format?["json_schema"] as? [String: Any])?["strict"] as? Bool == true)
    }

    @Test(arguments: [
        ("refusal", BackendStatus.refusal), ("filter", .guardrail), ("notfound", .modelNotFound), ("quota", .quotaExceeded),
        ("array-error", .invalidArgument), ("context", .exceededContextWindowSize), ("unavailable", .serverError),
        ("stream-error", .serverError), ("cut", .serverError), ("cut-clean", .serverError), ("garbage", .decoding), ("html", .decoding),
    ])
    func failuresMapToTheirCodes(scenario: String, expected: BackendStatus) throws {
        let (model, token) = try ModelFactory.mock(.openai, scenario)
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == expected, "\(scenario): \(String(describing: failure))")
        let attempts = try MockServer.shared.requests(token).count
        #expect(attempts == (scenario == "unavailable" ? 3 : 1), "\(scenario) made \(attempts) attempts")
    }

    @Test func lengthIsAFinishReason() throws {
        let (model, _) = try ModelFactory.mock(.openai, "length")
        #expect(GenerationRun.run(model, .prompt("x")).value?.finish == .maxTokens)
        // The cap is sent and honoured: one token, then `length`.
        let (capped, token) = try ModelFactory.mock(.openai, "ok")
        let run = GenerationRun.run(capped, .prompt("a b c d e f", options: BackendOptions(maxTokens: 1)))
        #expect(run.value?.finish == .maxTokens)
        #expect(run.recorder.events.filter { if case .text = $0 { true } else { false } }.count == 1)
        #expect(try MockServer.shared.requests(token)[0]["max_completion_tokens"] as? Int == 1)
    }

    @Test func rateLimitHonoursRetryAfterAndQuotaIsNeverRetried() throws {
        let (model, token) = try ModelFactory.mock(.openai, "ratelimit-then-ok")
        let started = MonotonicClock.nowMilliseconds()
        #expect(GenerationRun.run(model, .prompt("x")).value?.finish == .stop)
        #expect(MonotonicClock.nowMilliseconds() - started >= 200)  // retry-after-ms: 200
        #expect(try MockServer.shared.requests(token).count == 2)
        let (limited, _) = try ModelFactory.mock(.openai, "ratelimit", ["max_attempts": "1"])
        let failure = GenerationRun.run(limited, .prompt("x")).failure
        #expect(failure?.status == .rateLimited)
        #expect(failure?.retryAfterMilliseconds == 200)
    }

    @Test func badKeyIsAuth() throws {
        let (model, _) = try ModelFactory.mock(.openai, "ok", ["api_key_env": "TANDEM_TEST_WRONG_OPENAI_KEY"])
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .auth)
        #expect(failure?.httpStatus == 401)
    }

    @Test func serverWithoutAuthentication() throws {
        let (model, token) = try ModelFactory.mock(.openai, "nokey", ["api_key_env": "", "api_key_required": "false"])
        #expect(model.availability(locale: nil) == .available)
        #expect(GenerationRun.run(model, .prompt("x")).value != nil)
        #expect(try MockServer.shared.requests(token).count == 1)
    }

    @Test func embeddingsFollowIndexAndModelsAreListed() throws {
        let (model, _) = try ModelFactory.mock(.openai, "ok", ["embedding_dimensions": "12"])
        let vectors = try model.embed(["one", "two"], cancellation: .init(nil))
        #expect(vectors.map(\.count) == [12, 12])
        let single = try model.embed(["two"], cancellation: .init(nil))
        #expect(single[0] == vectors[1])  // order follows `index`, though the mock reverses positions
        #expect(try model.listModels() == ["gpt-4o-mini", "text-embedding-3-small"])
        #expect(throws: BackendFailure.self) { try model.countTokens(.prompt("x")) }
        #expect(!model.info.capabilities.contains(.tokenCounting))
    }
}
