import Foundation
import MockCloudServer
import Tandem
import Testing

/// The session's tool loop end to end on the mock cloud, through the host and the plugin: the
/// model asks for two functions in one turn, the host validates the arguments, runs the tools,
/// sends the outputs back, and the mock answers from them.
@Suite struct CloudToolLoopTests {
    /// Gemini 3 (the mock refuses a function-call turn without its thought signature, as the
    /// real API does): the calls arrive whole, the signature travels back verbatim.
    /// Streamed (SSE) and whole (`"stream": false`) answers alike.
    @Test(arguments: ["true", "false"])
    func geminiFunctionCallsWithThoughtSignatures(stream: String) async throws {
        let fixture = try await CloudHostFixture(
            .gemini, scenario: "tools", mode: "cloud-only", model: "gemini-3.5-flash", cloud: ["stream": stream])
        defer { fixture.cleanUp() }
        let weather = WeatherTool(), time = TimeTool()
        let session = try fixture.session(tools: [weather, time])
        let response = try await session.respond(to: "Weather and time in Paris?")

        #expect(response.content == #"Tool results: {"output": "Sunny in Paris"}, {"output": "12:00 in Europe/Paris"}"#)
        #expect(response.servedBy == "cloud")
        #expect(response.rawResponse.modelVersion == "gemini-3.5-flash-001")
        #expect(weather.received == ["Paris/2"])
        #expect(time.received == ["Europe/Paris"])
        #expect(response.toolCalls.map(\.name) == ["get_weather", "get_time"])
        #expect(response.toolCalls.map(\.signature) == ["c2lnbmF0dXJlLW9uZQ==", ""])
        Self.expectTranscript(session.transcript, toolOutputs: ["Sunny in Paris", "12:00 in Europe/Paris"], version: "gemini-3.5-flash-001")

        let sent = try await fixture.requests()
        try #require(sent.count == 2, "one request per model turn")
        let declarations = try #require(((sent[0]["tools"] as? [[String: Any]])?.first?["functionDeclarations"]) as? [[String: Any]])
        #expect(declarations.compactMap { $0["name"] as? String } == ["get_weather", "get_time"])
        let contents = try #require(sent[1]["contents"] as? [[String: Any]])
        #expect(contents.compactMap { $0["role"] as? String } == ["user", "model", "user"])
        let callParts = try #require(contents[1]["parts"] as? [[String: Any]])
        #expect(callParts.first?["thoughtSignature"] as? String == "c2lnbmF0dXJlLW9uZQ==", "echoed verbatim")
        let answers = try #require(contents[2]["parts"] as? [[String: Any]])
        #expect(answers.compactMap { ($0["functionResponse"] as? [String: Any])?["name"] as? String } == ["get_weather", "get_time"])
    }

    /// OpenAI tool_calls, answered by tool messages carrying the call ids.
    /// Streamed, the calls are argument fragments joined by index; whole, one message.
    @Test(arguments: ["true", "false"])
    func openAIToolCalls(stream: String) async throws {
        let fixture = try await CloudHostFixture(.openai, scenario: "tools", mode: "cloud-only", cloud: ["stream": stream])
        defer { fixture.cleanUp() }
        let weather = WeatherTool(), time = TimeTool()
        let session = try fixture.session(tools: [weather, time])
        let response = try await session.respond(to: "Weather and time in Paris?")

        #expect(response.content == "Tool results: Sunny in Paris; 12:00 in CET")
        #expect(response.rawResponse.modelVersion == "gpt-4o-mini-2026-01-01")
        #expect(weather.received == ["Paris"])
        #expect(time.received == ["CET"])
        #expect(response.toolCalls.map(\.id) == ["call_1", "call_2"])
        Self.expectTranscript(session.transcript, toolOutputs: ["Sunny in Paris", "12:00 in CET"], version: "gpt-4o-mini-2026-01-01")

        let sent = try await fixture.requests()
        try #require(sent.count == 2)
        let tools = try #require(sent[0]["tools"] as? [[String: Any]])
        #expect(tools.compactMap { ($0["function"] as? [String: Any])?["name"] as? String } == ["get_weather", "get_time"])
        let messages = try #require(sent[1]["messages"] as? [[String: Any]])
        #expect(messages.compactMap { $0["role"] as? String } == ["user", "assistant", "tool", "tool"])
        let calls = try #require(messages[1]["tool_calls"] as? [[String: Any]])
        #expect(calls.compactMap { $0["id"] as? String } == ["call_1", "call_2"])
        #expect(messages[2...].compactMap { $0["tool_call_id"] as? String } == ["call_1", "call_2"])
    }

    /// The same conversation through prefer-cloud, streamed: each turn's text as snapshots,
    /// the tools run between the turns.
    @Test func streamedToolLoopOnPreferCloud() async throws {
        let fixture = try await CloudHostFixture(.openai, scenario: "tools")
        defer { fixture.cleanUp() }
        let session = try fixture.session(tools: [WeatherTool(), TimeTool()])
        var last: ResponseSnapshot?
        for try await snapshot in session.streamResponse(to: "Weather and time in Paris?") { last = snapshot }
        #expect(last?.response?.content == "Tool results: Sunny in Paris; 12:00 in CET")
        #expect(last?.servedBy == "cloud")
        #expect(last?.response?.fallback.reason == nil)
    }

    static func expectTranscript(_ transcript: Transcript, toolOutputs: [String], version: String) {
        let entries = transcript.entries
        guard entries.count == 5 else {
            Issue.record("expected prompt, calls, two outputs, answer: \(entries)")
            return
        }
        #expect(entries[0] == .prompt("Weather and time in Paris?"))
        if case .toolCalls(let calls, let servedBy, let modelVersion) = entries[1] {
            #expect(calls.map(\.name) == ["get_weather", "get_time"])
            #expect(servedBy == "cloud" && modelVersion == version)
        } else {
            Issue.record("no tool-call entry: \(entries[1])")
        }
        let outputs = entries[2...3].compactMap { entry -> String? in
            if case .toolOutput(let text, _, _) = entry { text } else { nil }
        }
        #expect(outputs == toolOutputs)
        if case .response(_, "cloud", let modelVersion) = entries[4] { #expect(modelVersion == version) } else {
            Issue.record("no cloud answer: \(entries[4])")
        }
    }
}
