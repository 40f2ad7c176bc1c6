import GuidedJSON
import Testing
import Tandem

/// A request with a schema or tools goes only to a side whose capabilities include guided JSON /
/// tools (the "supports the type of request" rule); a side's `unsupportedGuide` is recorded or
/// thrown, never dropped.
@Suite struct CapabilityRoutingTests {
    static let forecast = #"{"city": "Bern", "sky": "sunny", "celsius": 21}"#

    func preferLocal(local: [String: String], cloud: [String: String], tools: [any Tool] = []) throws -> LanguageModelSession {
        LanguageModelSession(
            model: HybridModel(mode: .preferLocal, local: try FakePlugin.model("local", local), cloud: try FakePlugin.model("cloud", cloud)),
            tools: tools)
    }

    @Test func localSideWithoutGuidedJSONFallsBackForASchema() async throws {
        let session = try preferLocal(
            local: ["without": "guidedJSON", "guided_reply": Self.forecast, "reply": "local text"], cloud: ["guided_reply": Self.forecast])
        let answer = try await session.respond(to: "Forecast?", generating: Forecast.self)
        #expect(answer.servedBy == "cloud")
        #expect(answer.response.fallback.primaryTried == false)
        #expect(answer.response.fallback.reason == .unsupported("response schema"))
        // A plain request is still the local side's.
        #expect(try await session.respond(to: "Hello").servedBy == "local")
    }

    @Test func localSideWithoutToolsFallsBackForAToolRequest() async throws {
        let weather = WeatherTool()
        let calls = #"[{"name": "weather", "arguments": {"city": "Bern"}}]"#
        let session = try preferLocal(
            local: ["without": "tools", "tool_calls": calls, "reply": "local"], cloud: ["tool_calls": calls, "reply": "cloud answer"],
            tools: [weather])
        let response = try await session.respond(to: "Weather in Bern?")
        #expect(response.servedBy == "cloud")
        #expect(response.fallback.reason == .unsupported("tools"))
        #expect(weather.cities == ["Bern"])
    }

    @Test func cloudFirstWithoutGuidedJSONServesFromTheLocalSide() async throws {
        let model = HybridModel(
            mode: .preferCloud, local: try FakePlugin.model("local", ["guided_reply": Self.forecast]),
            cloud: try FakePlugin.model("cloud", ["without": "guidedJSON"]))
        let answer = try await LanguageModelSession(model: model).respond(to: "Forecast?", generating: Forecast.self)
        #expect(answer.servedBy == "local")
        #expect(answer.response.fallback.reason == .unsupported("response schema"))
    }

    @Test func singleSideWithoutTheCapabilityIsAnUnsupportedRequest() async throws {
        let session = try FakePlugin.session(["without": "guidedJSON,tools", "guided_reply": Self.forecast])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Forecast?", generating: Forecast.self) }
        #expect(error?.code == .unsupportedRequest)
        #expect(error?.primary?.reason == .unsupported("response schema"))
    }

    @Test func unsupportedGuideOfTheLocalSideIsRecordedOnFallback() async throws {
        // The local side declares guided JSON but cannot honour this schema (no guided_reply).
        let session = try preferLocal(local: ["reply": "not JSON"], cloud: ["guided_reply": Self.forecast])
        let answer = try await session.respond(to: "Forecast?", generating: Forecast.self)
        #expect(answer.servedBy == "cloud")
        #expect(answer.response.fallback.primaryTried)
        #expect(answer.response.fallback.reason?.name == "unsupportedGuide")
    }

    @Test func unsupportedGuideOfTheOnlySideReachesTheCaller() async throws {
        let session = try FakePlugin.session(["reply": "not JSON"])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Forecast?", generating: Forecast.self) }
        #expect(error?.code == .backendFailure)
        #expect(error?.failure?.status == .unsupportedGuide)
    }

    @Test func fakeWithoutTheCapabilityRefusesRatherThanIgnores() throws {
        // Called directly, bypassing the router: the plugin itself never serves a schema it lacks.
        let model = try FakePlugin.model("local", ["without": "guidedJSON,tools", "reply": "plain"])
        #expect(!model.info.capabilities.contains(.guidedJSON) && !model.info.capabilities.contains(.tools))
        let schema = BackendRequest(messages: [.user("Forecast?")], options: BackendOptions(responseSchema: Forecast.generationSchema.jsonSchemaText))
        let refusal = #expect(throws: BackendFailure.self) {
            _ = try model.backend.generate(schema, cancellation: CancellationToken()) { _ in true }
        }
        #expect(refusal?.status == .unsupportedGuide)
        let tools = BackendRequest(messages: [.user("Weather?")], tools: [ToolDeclaration(name: "weather", description: "", parametersSchema: "{}")])
        do {
            _ = try model.backend.generate(tools, cancellation: CancellationToken()) { _ in true }
            Issue.record("a request with tools was served by a model without tools")
        } catch {
            #expect(error.status == .unsupportedOption)
        }
    }
}
