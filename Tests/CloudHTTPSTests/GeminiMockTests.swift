@testable import CloudHTTPSCore
import JSONModel
import MockCloudServer
import Foundation
import Synchronization
import TandemBridge
import Testing

/// The Gemini dialect end to end: libcurl, TLS with the test CA, SSE, decoding, errors, retries,
/// against the mock server.
@Suite struct GeminiMockTests {
    @Test func streamsTextUsageAndModelVersion() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "ok")
        let run = GenerationRun.run(model, .prompt("hello there"))
        let result = try run.result.get()
        #expect(run.recorder.text == "Echo: hello there")
        #expect(run.recorder.events.filter { if case .text = $0 { true } else { false } }.count == 3)
        #expect(result.finish == .stop)
        #expect(result.modelVersion == "gemini-2.5-flash-001")
        #expect(result.usage == Usage(promptTokens: 7, outputTokens: 5))
        #expect(run.recorder.usages == [Usage(promptTokens: 7, outputTokens: 5)])
        let sent = try MockServer.shared.requests(token)
        #expect(sent.count == 1)
        #expect((sent[0]["systemInstruction"] as? [String: Any]) != nil)
    }

    @Test func callsOnOneModelMayOverlap() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "ok")
        #expect(model.info.capabilities.contains(.concurrentCalls))
        let texts = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let run = GenerationRun.run(model, .prompt("call \(index)"))
            texts.withLock { $0.append(run.recorder.text) }
        }
        #expect(texts.withLock { $0.sorted() } == (0..<4).map { "Echo: call \($0)" })
        #expect(try MockServer.shared.requests(token).count == 4)
    }

    @Test func nonStreamedGenerateContent() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "ok", ["stream": "false"])
        #expect(!model.info.capabilities.contains(.streaming))
        let run = GenerationRun.run(model, .prompt("whole"))
        #expect(run.recorder.text == "Echo: whole")
        #expect(run.value?.modelVersion == "gemini-2.5-flash-001")
    }

    @Test func thoughtPartsAreHiddenButCounted() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "thoughts")
        let run = GenerationRun.run(model, .prompt("capital?"))
        #expect(run.recorder.text == "Paris is the capital of France.")
        #expect(!run.recorder.text.contains("think"))
    }

    @Test func toolCallRoundTripEchoesTheThoughtSignature() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "tools", model: "gemini-3.5-flash")
        let tools = [ToolDeclaration(name: "get_weather", description: "Weather", parametersSchema: #"{"type":"object","properties":{"city":{"type":"string"}}}"#),
                     ToolDeclaration(name: "get_time", description: "Time", parametersSchema: #"{"type":"object"}"#)]
        var request = BackendRequest(messages: [.user("Weather and time in Paris?")], tools: tools)
        let first = GenerationRun.run(model, request)
        #expect(first.value?.finish == .toolCalls)
        let calls = first.recorder.toolCalls
        #expect(calls.map(\.name) == ["get_weather", "get_time"])
        #expect(calls[0].signature == "c2lnbmF0dXJlLW9uZQ==")
        #expect(try JSONValue(parsing: calls[0].argumentsJSON, keepingNumberText: true)["days"]?.integerValue == 2)

        request.messages.append(.assistant("", toolCalls: calls))
        request.messages.append(.toolOutput(#"{"temp":21}"#, callId: calls[0].id, toolName: "get_weather"))
        request.messages.append(.toolOutput("14:00", callId: calls[1].id, toolName: "get_time"))
        let second = GenerationRun.run(model, request)
        #expect(second.failure == nil, "\(String(describing: second.failure))")
        #expect(second.recorder.text.contains("21"))
        // The mock (like Gemini 3) rejects a call part without its signature; check what was sent too.
        let sent = try MockServer.shared.requests(token)
        let modelTurn = (sent[1]["contents"] as? [[String: Any]])?[1]
        let parts = modelTurn?["parts"] as? [[String: Any]]
        #expect(parts?[0]["thoughtSignature"] as? String == "c2lnbmF0dXJlLW9uZQ==")
    }

    @Test func guidedOutputSendsTheSchema() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "json")
        let run = GenerationRun.run(model, .prompt("city", options: BackendOptions(responseSchema: #"{"type":"object","properties":{"city":{"type":"string"}}}"#)))
        #expect(try JSONValue(parsing: run.recorder.text, keepingNumberText: true)["city"]?.stringValue == "Paris")
        let config = try MockServer.shared.requests(token)[0]["generationConfig"] as? [String: Any]
        #expect(config?["responseMimeType"] as? String == "application/json")
        #expect(config?["responseJsonSchema"] != nil)
    }

    @Test(arguments: [
        ("blocked", BackendStatus.guardrail), ("safety", .guardrail), ("badrequest", .invalidArgument), ("notfound", .modelNotFound),
        ("internal", .serverError), ("timeout504", .serverError), ("cut", .serverError), ("cut-clean", .serverError),
        ("garbage", .decoding), ("html", .decoding), ("huge", .decoding), ("stream-error", .serverError), ("notjson", .serverError),
        ("close", .serverError), ("ratelimit-long", .rateLimited), ("perday", .rateLimited),
    ])
    func failuresMapToTheirCodes(scenario: String, expected: BackendStatus) throws {
        let (model, token) = try ModelFactory.mock(.gemini, scenario)
        let run = GenerationRun.run(model, .prompt("x"))
        #expect(run.failure?.status == expected, "\(scenario): \(String(describing: run.failure))")
        let attempts = try MockServer.shared.requests(token).count
        let retried = ["internal", "timeout504"].contains(scenario)
        #expect(attempts == (retried ? 3 : 1), "\(scenario) made \(attempts) attempts")
        if scenario == "ratelimit-long" { #expect(run.failure?.retryAfterMilliseconds == 120_000) }
    }

    @Test func maxTokensIsAFinishReasonNotAnError() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "maxtokens")
        let run = GenerationRun.run(model, .prompt("long", options: BackendOptions(maxTokens: 4)))
        #expect(run.value?.finish == .maxTokens)
        #expect(run.recorder.text == "The beginning of a long answer")
        let (capped, token) = try ModelFactory.mock(.gemini, "ok")
        let cut = GenerationRun.run(capped, .prompt("a b c d e f", options: BackendOptions(maxTokens: 1)))
        #expect(cut.value?.finish == .maxTokens)
        #expect(cut.recorder.text == "Echo:")  // the first of three pieces
        #expect((try MockServer.shared.requests(token)[0]["generationConfig"] as? [String: Any])?["maxOutputTokens"] as? Int == 1)
    }

    @Test func retriesAfterRetryInfoAnd503ThenSucceeds() throws {
        for scenario in ["ratelimit-then-ok", "flaky"] {
            let (model, token) = try ModelFactory.mock(.gemini, scenario)
            let started = MonotonicClock.nowMilliseconds()
            let run = GenerationRun.run(model, .prompt("again"))
            #expect(run.value?.finish == .stop, "\(scenario): \(String(describing: run.failure))")
            #expect(run.recorder.text == "Echo: again")
            #expect(try MockServer.shared.requests(token).count == 2)
            if scenario == "ratelimit-then-ok" { #expect(MonotonicClock.nowMilliseconds() - started >= 200) }  // RetryInfo said 0.2s
        }
    }

    @Test func attemptsAreBoundedBySettingAndDeadline() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "unavailable", ["max_attempts": "2"])
        #expect(GenerationRun.run(model, .prompt("x")).failure?.status == .serverError)
        #expect(try MockServer.shared.requests(token).count == 2)
        // A 429 whose delay does not fit the deadline is returned at once with its delay.
        let (limited, limitedToken) = try ModelFactory.mock(.gemini, "ratelimit", ["total_timeout_ms": "150"])
        let failure = GenerationRun.run(limited, .prompt("x")).failure
        #expect(failure?.status == .rateLimited)
        #expect(failure?.retryAfterMilliseconds == 200)
        #expect(try MockServer.shared.requests(limitedToken).count == 1)
    }

    @Test func credentialsAreCheckedByTheServer() throws {
        let (wrong, _) = try ModelFactory.mock(.gemini, "ok", ["api_key_env": "TANDEM_TEST_WRONG_KEY"])
        let failure = GenerationRun.run(wrong, .prompt("x")).failure
        #expect(failure?.status == .auth)
        #expect(failure?.httpStatus == 400)
        #expect(failure?.message.contains("API_KEY_INVALID") == true)
        // A variable that is not set: no request is made at all.
        let (missing, token) = try ModelFactory.mock(.gemini, "ok", ["api_key_env": "TANDEM_TEST_UNSET_VARIABLE"])
        #expect(GenerationRun.run(missing, .prompt("x")).failure?.status == .auth)
        #expect(try MockServer.shared.requests(token).isEmpty)
        #expect(missing.availability(locale: nil) == .unavailable(.notConfigured, detail: "no API key: the environment variable TANDEM_TEST_UNSET_VARIABLE is not set"))
    }

    @Test func thinkingRulesAreCheckedBeforeSending() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "ok")
        #expect(GenerationRun.run(model, .prompt("x", options: BackendOptions(thinkingLevel: .high))).failure?.status == .unsupportedOption)
        #expect(try MockServer.shared.requests(token).isEmpty)
    }

    @Test func embeddingsCountTokensAndModels() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "ok", ["embedding_dimensions": "16"])
        let vectors = try model.embed(["alpha", "beta", "alpha"], cancellation: .init(nil))
        #expect(vectors.count == 3)
        #expect(vectors.allSatisfy { $0.count == 16 })
        #expect(vectors[0] == vectors[2])
        #expect(vectors[0] != vectors[1])
        #expect(try model.embed(["beta"], cancellation: .init(nil)) == [vectors[1]])  // :embedContent, same vector
        #expect(try model.countTokens(.prompt("one two three")) == 3)
        #expect(try model.listModels().contains("gemini-2.5-flash"))
        // The server returning other dimensions than configured is caught.
        let (mismatched, _) = try ModelFactory.mock(.gemini, "ok")
        var settings = mismatched.settings
        settings.requestEmbeddingDimensions = true
        settings.embeddingDimensions = 8
        let sized = CloudModel(settings: settings)
        #expect(try sized.embed(["x"], cancellation: .init(nil))[0].count == 8)
    }
}
