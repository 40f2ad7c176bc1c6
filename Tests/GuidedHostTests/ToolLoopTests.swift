import GuidedJSON
import Testing
import Tandem

/// The session's tool loop end to end on the fake: the model asks, the host validates, calls,
/// feeds the output back, and the transcript records it all.
@Suite struct ToolLoopTests {
    static let bernCall = #"[{"name": "weather", "arguments": {"city": "Bern"}, "id": "call-7"}]"#

    @Test func toolLoopRunsEndToEndOnTheFake() async throws {
        let weather = WeatherTool()
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "reply": "It is sunny in Bern."], tools: [weather])
        let response = try await session.respond(to: "What is the weather in Bern?")
        #expect(response.content == "It is sunny in Bern.")
        #expect(weather.cities == ["Bern"])
        #expect(response.toolCalls == [ToolCall(id: "call-7", name: "weather", argumentsJSON: #"{"city":"Bern"}"#)])
        #expect(session.transcript.entries == [
            .prompt("What is the weather in Bern?"),
            .toolCalls([ToolCall(id: "call-7", name: "weather", argumentsJSON: #"{"city":"Bern"}"#)], servedBy: "local", modelVersion: "local-v1"),
            .toolOutput("Sunny, 21 °C in Bern", callID: "call-7", toolName: "weather"),
            .response("It is sunny in Bern.", servedBy: "local", modelVersion: "local-v1"),
        ])
        // The fake counts the word pieces of every message it receives: the prompt (6) on the
        // first turn; the prompt, the empty call message and the tool output (5) on the second.
        #expect(response.usage.promptTokens == 6 + (6 + 5))
        #expect(session.transcript.messages.map(\.role) == [.user, .assistant, .tool, .assistant])
    }

    @Test func callsOfOneTurnRunInOrderAndEachGetsItsOutput() async throws {
        let weather = WeatherTool()
        let calls = #"[{"name": "weather", "arguments": {"city": "Bern"}, "id": "a"}, {"name": "weather", "arguments": {"city": "Chur"}, "id": "b"}]"#
        let session = try FakePlugin.session(["tool_calls": calls, "reply": "Both sunny."], tools: [weather])
        _ = try await session.respond(to: "Bern and Chur?")
        #expect(weather.cities == ["Bern", "Chur"])
        #expect(Array(session.transcript.entries.dropFirst(2).prefix(2)) == [
            .toolOutput("Sunny, 21 °C in Bern", callID: "a", toolName: "weather"),
            .toolOutput("Sunny, 21 °C in Chur", callID: "b", toolName: "weather"),
        ])
    }

    @Test func structuredToolOutputIsFedBackAsJSON() async throws {
        let calls = #"[{"name": "forecast", "arguments": {"city": "Chur"}}]"#
        let session = try FakePlugin.session(["tool_calls": calls, "reply": "Mild and dry."], tools: [ForecastTool()])
        _ = try await session.respond(to: "Tomorrow in Chur?")
        #expect(session.transcript.entries.contains(
            .toolOutput(#"{"city":"Chur","celsius":18,"rain":false}"#, callID: "call-1", toolName: "forecast")))
    }

    @Test func toolThatThrowsEndsTheRequestWithItsError() async throws {
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "reply": "never"], tools: [BrokenTool()])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Weather in Bern?") }
        #expect(error?.code == .toolFailed)
        #expect(error?.toolFailure?.toolName == "weather")
        #expect(error?.toolFailure?.callID == "call-7")
        #expect(error?.toolFailure?.underlyingError as? BrokenTool.Outage == BrokenTool.Outage(service: "meteo"))
        #expect(session.transcript.entries.isEmpty)
        #expect(!session.isResponding, "the session is free for the next request")
    }

    @Test func inventedToolNameIsAnErrorNotACrash() async throws {
        let calls = #"[{"name": "teleport", "arguments": {"to": "Mars"}}]"#
        let session = try FakePlugin.session(["tool_calls": calls, "reply": "never"], tools: [WeatherTool()])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Beam me up") }
        #expect(error?.code == .unknownTool)
        #expect(error?.message.contains("\"teleport\"") == true)
        #expect(error?.message.contains("\"weather\"") == true, "names the tools the session has")
    }

    @Test func invalidArgumentsAreReportedOnceThenTheModelMayAnswer() async throws {
        let weather = WeatherTool()
        let calls = #"[{"name": "weather", "arguments": {"city": ""}}]"#
        let session = try FakePlugin.session(["tool_calls": calls, "reply": "I could not tell."], tools: [weather])
        let response = try await session.respond(to: "Weather?")
        #expect(response.content == "I could not tell.")
        #expect(weather.cities.isEmpty, "a tool never runs on invalid arguments")
        guard case .toolOutput(let report, "call-1", "weather") = session.transcript.entries[2] else {
            Issue.record("no tool output for the invalid call: \(session.transcript.entries)")
            return
        }
        #expect(report.hasPrefix("Error: invalid arguments for tool \"weather\""))
        #expect(report.contains("$.city"))
    }

    @Test func invalidArgumentsASecondTimeEndTheRequest() async throws {
        let weather = WeatherTool()
        let calls = #"[{"name": "weather", "arguments": {"town": "Bern"}}]"#
        let session = try FakePlugin.session(["tool_calls": calls, "tool_call_turns": "2", "reply": "never"], tools: [weather])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Weather?") }
        #expect(error?.code == .invalidToolArguments)
        #expect(error?.guided?.code == .validationFailed)
        #expect(weather.cities.isEmpty)
    }

    @Test func toolTurnsAreBoundedByDefaultToTen() async throws {
        let weather = WeatherTool()
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "tool_call_turns": "1000"], tools: [weather])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Weather?") }
        #expect(error?.code == .toolTurnLimit)
        #expect(error?.message.contains("10 turns") == true)
        // Nine turns ran the tool; the tenth asked again and ended the request.
        #expect(weather.cities.count == 9)
    }

    @Test func toolTurnBoundIsTheSessions() async throws {
        let weather = WeatherTool()
        let session = try FakePlugin.session(
            ["tool_calls": Self.bernCall, "tool_call_turns": "3", "reply": "Done."], tools: [weather], maximumToolTurns: 3)
        await #expect(throws: TandemError.self) { try await session.respond(to: "Weather?") }
        #expect(weather.cities.count == 2)
        let enough = try FakePlugin.session(
            ["tool_calls": Self.bernCall, "tool_call_turns": "3", "reply": "Done."], tools: [weather], maximumToolTurns: 4)
        #expect(try await enough.respond(to: "Weather?").content == "Done.")
    }

    @Test func toolsAndASchemaTogetherGiveATypedValue() async throws {
        let weather = WeatherTool()
        let session = try FakePlugin.session(
            ["tool_calls": Self.bernCall, "guided_reply": #"{"city": "Bern", "sky": "sunny", "celsius": 21}"#], tools: [weather])
        let answer = try await session.respond(to: "Forecast for Bern?", generating: Forecast.self)
        #expect(answer.content == Forecast(city: "Bern", sky: .sunny, celsius: 21))
        #expect(weather.cities == ["Bern"])
        #expect(answer.response.toolCalls.map(\.name) == ["weather"])
    }

    @Test func streamingWithToolsRunsTheLoopToo() async throws {
        let weather = WeatherTool()
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "reply": "Sunny in Bern."], tools: [weather])
        var contents: [String] = []
        for try await snapshot in session.streamResponse(to: "Weather in Bern?") { contents.append(snapshot.content) }
        #expect(contents == ["Sunny", "Sunny in", "Sunny in Bern.", "Sunny in Bern."])
        #expect(weather.cities == ["Bern"])
        #expect(session.transcript.entries.count == 4)
    }

    @Test func aTurnBoundBelowOneIsRejectedBeforeAnyCall() async throws {
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "error": "serverError"], tools: [WeatherTool()], maximumToolTurns: 0)
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Weather?") }
        #expect(error?.code == .invalidOptions)
        #expect(error?.message.contains("maximumToolTurns") == true)
    }

    @Test func toolsWithTheSameNameAreRejectedBeforeAnyCall() async throws {
        let session = try FakePlugin.session(["tool_calls": Self.bernCall, "error": "serverError"], tools: [WeatherTool(), BrokenTool()])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Weather?") }
        #expect(error?.code == .invalidOptions)
        #expect(error?.message.contains("\"weather\"") == true)
    }
}
