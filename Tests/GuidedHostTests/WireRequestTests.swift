import GuidedJSON
import PluginFixtures
import Testing
import Tandem

/// What the host puts into the ABI request for guided generation and tools.
@Suite struct WireRequestTests {
    @Test func schemaTravelsAsJSONSchemaText() async throws {
        let backend = RecordingBackend(try FakePlugin.model("local", ["guided_reply": #"{"city": "Bern", "sky": "sunny", "celsius": 3}"#]).backend)
        let session = LanguageModelSession(model: LanguageModel(backend))
        _ = try await session.respond(to: "Weather?", generating: Forecast.self)
        let schemaText = try #require(backend.received.first?.options.responseSchema)
        #expect(try GenerationSchema(jsonSchema: schemaText) == Forecast.generationSchema)
        #expect(backend.received.first?.tools == [])
    }

    @Test func toolsAreDeclaredAndOutputsComeBackAsToolMessages() async throws {
        let calls = #"[{"name": "weather", "arguments": {"city": "Bern"}, "id": "c1"}]"#
        let backend = RecordingBackend(try FakePlugin.model("local", ["tool_calls": calls, "reply": "Sunny."]).backend)
        let session = LanguageModelSession(model: LanguageModel(backend), tools: [WeatherTool()])
        _ = try await session.respond(to: "Weather in Bern?")
        let turns = backend.received
        #expect(turns.count == 2)
        let declaration = try #require(turns.first?.tools.first)
        #expect(declaration.name == "weather" && declaration.description == "Today's weather in a city")
        #expect(try GenerationSchema(jsonSchema: declaration.parametersSchema) == WeatherTool.Arguments.generationSchema)
        #expect(turns.first?.options.responseSchema == nil)
        // Second turn: the whole conversation, the call, then the output with call id and tool name.
        #expect(turns.last?.messages == [
            .user("Weather in Bern?"),
            .assistant("", toolCalls: [ToolCall(id: "c1", name: "weather", argumentsJSON: #"{"city":"Bern"}"#)]),
            .toolOutput("Sunny, 21 °C in Bern", callId: "c1", toolName: "weather"),
        ])
        #expect(turns.last?.tools == turns.first?.tools, "tools stay declared on every turn")
    }
}
