import Foundation
import GuidedJSON
import JSONModel
import Tandem
import Testing

/// Constrained decoding and tool calls on the real model.
extension RealModelTests { @Suite struct Guided {
    let backend: PluginBackend

    init() throws { backend = try RunnerPlugin.shared.get() }
    static let moods = ["happy", "sad", "calm"]
    static let schema = """
        {"type": "object", "properties": {
          "mood": {"type": "string", "enum": ["happy", "sad", "calm"]},
          "age": {"type": "integer", "minimum": 1, "maximum": 120},
          "name": {"type": "string", "minLength": 2, "maxLength": 12}},
         "required": ["mood", "age", "name"], "additionalProperties": false}
        """

    func person(seed: UInt64) throws -> (text: String, result: BackendResult) {
        let request = BackendRequest(
            messages: [Message(role: .user, content: "Describe a person as JSON with their mood, age and name.")],
            options: BackendOptions(temperature: 1.0, seed: seed, maxTokens: 60, responseSchema: Self.schema))
        let (text, _, result) = try backend.collect(request)
        return (text, result)
    }

    /// 20 seeded runs at temperature 1: every document parses and satisfies every guide.
    @Test func twentySeededRunsAreAllValid() throws {
        let schema = try GenerationSchema(jsonSchema: Self.schema)
        var distinct = Set<String>()
        for seed in 1...20 as ClosedRange<UInt64> {
            let (text, result) = try person(seed: seed)
            #expect(result.finish == .stop, "seed \(seed): \(result.finish) after \(text)")
            let value = try JSONValue(parsing: text)
            try schema.validate(value)
            // The guides, checked independently of GuidedJSON's validator.
            guard case .string(let mood) = value["mood"], case .integer(let age) = value["age"], case .string(let name) = value["name"] else {
                Issue.record("seed \(seed): wrong shape \(text)"); continue
            }
            #expect(Self.moods.contains(mood))
            #expect((1...120).contains(age))
            #expect((2...12).contains(name.unicodeScalars.count), "seed \(seed): name \(name)")
            distinct.insert(text)
        }
        #expect(distinct.count > 1, "20 seeds gave one document")
    }

    @Test func sameSeedGivesTheSameDocument() throws {
        #expect(try person(seed: 42).text == person(seed: 42).text)
    }

    /// A pattern in the supported subset is enforced while decoding.
    @Test func patternIsEnforced() throws {
        let schema = #"{"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{2}$"}}, "required": ["code"]}"#
        for seed in 1...3 as ClosedRange<UInt64> {
            let (text, _, result) = try backend.collect(BackendRequest(
                messages: [Message(role: .user, content: "Give me a product code as JSON.")],
                options: BackendOptions(temperature: 1, seed: seed, maxTokens: 30, responseSchema: schema)))
            #expect(result.finish == .stop)
            guard case .string(let code) = try JSONValue(parsing: text)["code"] else { Issue.record("no code in \(text)"); continue }
            #expect(code.wholeMatch(of: /[A-Z]{3}-[0-9]{2}/) != nil, "\(code)")
        }
    }

    /// A construct local decoding cannot enforce (here a back-reference) is refused with its
    /// path, before any work.
    @Test func backReferenceIsAnUnsupportedGuide() throws {
        let schema = #"{"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a)\\1$"}}, "required": ["code"]}"#
        do {
            _ = try backend.collect(BackendRequest(messages: [Message(role: .user, content: "A code")], options: BackendOptions(responseSchema: schema)))
            Issue.record("a back-reference was accepted")
        } catch {
            #expect(error.status == .unsupportedGuide, "\(error)")
            #expect(error.message.contains("code"), "\(error.message)")
        }
    }

    static let weatherTool = ToolDeclaration(
        name: "get_weather", description: "Current weather for a city",
        parametersSchema: #"{"type": "object", "properties": {"city": {"type": "string", "minLength": 1, "maxLength": 30}}, "required": ["city"]}"#)

    /// With tools declared, the model answers with one call whose arguments follow the tool's
    /// schema; once the tool's output is in the conversation, it answers in text.
    @Test func toolCallThenAnswer() throws {
        let question = Message(role: .user, content: "What is the weather in Paris right now?")
        let (text, events, result) = try backend.collect(BackendRequest(
            messages: [question], tools: [Self.weatherTool], options: BackendOptions(sampling: .greedy, maxTokens: 40)))
        #expect(result.finish == .toolCalls)
        #expect(text.isEmpty, "the call document must not stream as text: \(text)")
        let calls = events.compactMap { if case .toolCall(let call) = $0 { call } else { nil } }
        try #require(calls.count == 1)
        #expect(calls[0].name == "get_weather")
        let arguments = try JSONValue(parsing: calls[0].argumentsJSON)
        guard case .string(let city) = arguments["city"] else { Issue.record("no city in \(calls[0].argumentsJSON)"); return }
        #expect((1...30).contains(city.unicodeScalars.count))

        let followUp = BackendRequest(
            messages: [question, Message(role: .assistant, content: "", toolCalls: calls),
                       Message(role: .tool, content: "18 °C, light rain", callId: calls[0].id, toolName: "get_weather")],
            tools: [Self.weatherTool], options: BackendOptions(sampling: .greedy, maxTokens: 24))
        let answer = try backend.collect(followUp)
        #expect(answer.result.finish == .stop || answer.result.finish == .maxTokens)
        #expect(!answer.text.isEmpty)
        #expect(!answer.events.contains { if case .toolCall = $0 { true } else { false } })
    }
}}
