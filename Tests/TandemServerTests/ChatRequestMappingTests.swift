import GuidedJSON
import JSONModel
import Tandem
import Testing

@testable import TandemServer

/// What a chat completions body becomes for the router, and the 400s that name the field.
@Suite struct ChatRequestMappingTests {
    static func parse(_ text: String, maxMessages: Int = 1000) throws(APIError) -> ChatCompletionRequest {
        let body: JSONValue
        do { body = try JSONValue(parsing: text) } catch { fatalError("test JSON does not parse: \(error)") }
        return try ChatCompletionRequest(body: body, maxMessages: maxMessages)
    }

    static func failure(_ text: String, maxMessages: Int = 1000) -> APIError? {
        do {
            _ = try parse(text, maxMessages: maxMessages)
            return nil
        } catch {
            return error
        }
    }

    @Test func conversationWithToolRoundTripBecomesBackendMessages() throws {
        let request = try Self.parse("""
            {"model": "tandem", "messages": [
              {"role": "developer", "content": "Be brief."},
              {"role": "user", "content": [{"type": "text", "text": "Weather "}, {"type": "text", "text": "in Bern?"}]},
              {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\\"city\\":\\"Bern\\"}"}}]},
              {"role": "tool", "tool_call_id": "c1", "content": "21 C"}],
             "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}
            """)
        #expect(request.messages == [
            .system("Be brief."), .user("Weather in Bern?"),
            .assistant("", toolCalls: [ToolCall(id: "c1", name: "weather", argumentsJSON: #"{"city":"Bern"}"#)]),
            .toolOutput("21 C", callId: "c1", toolName: "weather"),
        ])
        #expect(request.tools.map(\.name) == ["weather"])
        #expect(request.tools[0].parametersSchema.contains("\"city\""))
        #expect(request.toolChoice == .auto)
        #expect(!request.stream)
    }

    @Test func optionsGoToBothSidesInTheirOwnTerms() throws {
        let request = try Self.parse("""
            {"model": "tandem", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.5, "top_p": 0.9,
             "max_completion_tokens": 40, "stop": "END", "seed": 7, "reasoning_effort": "low"}
            """)
        let local = request.options.backendOptions(for: .local)
        #expect(local.temperature == 0.5)
        #expect(local.sampling == .topP && local.topP == 0.9 && local.seed == 7)
        #expect(local.maxTokens == 40 && local.stopSequences == ["END"])
        #expect(local.thinkingLevel == nil)
        let cloud = request.options.backendOptions(for: .cloud)
        #expect(cloud.temperature == 0.5 && cloud.topP == 0.9 && cloud.maxTokens == 40 && cloud.stopSequences == ["END"])
        #expect(cloud.thinkingLevel == .low && cloud.seed == nil)
        let greedy = try Self.parse(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0, "max_tokens": 3}"#)
        #expect(greedy.options.backendOptions(for: .local).sampling == .greedy)
        #expect(greedy.options.backendOptions(for: .local).maxTokens == 3)
    }

    @Test func responseFormatBecomesASchemaAndStreamOptionsAreRead() throws {
        let request = try Self.parse("""
            {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": true, "stream_options": {"include_usage": true},
             "response_format": {"type": "json_schema", "json_schema": {"name": "w", "strict": true,
               "schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}}
            """)
        #expect(request.stream && request.includeUsage)
        let schema = try #require(request.schema)
        #expect(throws: (any Error).self) { try GeneratedContent(json: #"{"city": 3}"#, schema: schema) }
        #expect(try GeneratedContent(json: #"{"city": "Bern"}"#, schema: schema).property("city")?.string() == "Bern")
        let object = try Self.parse(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "json_object"}}"#)
        #expect(object.schema == nil && object.wantsJSONObject)
        let text = try Self.parse(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "text"}}"#)
        #expect(text.schema == nil && !text.wantsJSONObject)
    }

    @Test func toolChoiceNarrowsOrDropsTheDeclarations() throws {
        let tools = #""tools": [{"type": "function", "function": {"name": "a"}}, {"type": "function", "function": {"name": "b"}}]"#
        let none = try Self.parse(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], \#(tools), "tool_choice": "none"}"#)
        #expect(none.tools.isEmpty)
        let named = try Self.parse(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], \#(tools), "tool_choice": {"type": "function", "function": {"name": "b"}}}"#)
        #expect(named.tools.map(\.name) == ["b"] && named.toolChoice == .function("b"))
        let missing = Self.failure(#"{"model": "m", "messages": [{"role": "user", "content": "hi"}], \#(tools), "tool_choice": {"type": "function", "function": {"name": "c"}}}"#)
        #expect(missing?.param == "tool_choice.function.name")
    }

    @Test(arguments: [
        (#"{"messages": [{"role": "user", "content": "hi"}]}"#, "model", "missing_required_parameter"),
        (#"{"model": "m", "messages": []}"#, "messages", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}, {"role": "wizard", "content": "b"}]}"#, "messages[1].role", "invalid_role"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "x", "content": "b"}]}"#, "messages[1].tool_call_id", "unmatched_tool_call"),
        (#"{"model": "m", "messages": [{"role": "user", "content": 5}]}"#, "messages[0].content", "invalid_type"),
        (#"{"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}"#, "messages[0].content[0].type", "unsupported_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "temprature": 1}"#, "temprature", "unknown_parameter"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "temperature": 3}"#, "temperature", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "top_p": 0}"#, "top_p", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "max_tokens": 0}"#, "max_tokens", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "n": 2}"#, "n", "unsupported_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "reasoning_effort": "extreme"}"#, "reasoning_effort", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "stream_options": {"include_usage": true}}"#, "stream_options", "invalid_value"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object", "frob": 1}}}}"#, "response_format.json_schema.schema", "unsupported_schema"),
        (#"{"model": "m", "messages": [{"role": "user", "content": "a"}], "tool_choice": "required"}"#, "tool_choice", "invalid_value"),
        (#"[1, 2]"#, nil, "invalid_value"),
    ] as [(String, String?, String)])
    func badRequestsNameTheField(_ body: String, _ param: String?, _ code: String) throws {
        let error = try #require(Self.failure(body))
        #expect(error.status == 400)
        #expect(error.param == param)
        #expect(error.code == code)
        if let param { #expect(error.message.contains(param)) }
    }

    @Test func tooManyMessages() throws {
        let messages = Array(repeating: #"{"role": "user", "content": "hi"}"#, count: 11).joined(separator: ",")
        let error = try #require(Self.failure(#"{"model": "m", "messages": [\#(messages)]}"#, maxMessages: 10))
        #expect(error.code == "too_many_messages")
        #expect(error.message.contains("11") && error.message.contains("10"))
    }

    @Test func embeddingsInputsAndEncoding() throws {
        let body = try JSONValue(parsing: #"{"model": "local", "input": ["a", "b"], "encoding_format": "base64"}"#)
        let request = try EmbeddingsRequest(body: body, maxInputs: 10)
        #expect(request.inputs == ["a", "b"] && request.base64)
        // Little-endian float32: 1.0 is 00 00 80 3f.
        #expect(EmbeddingsRequest.base64([1.0]) == "AACAPw==")
        for (text, param) in [(#"{"model": "l", "input": [1]}"#, "input[0]"), (#"{"model": "l", "input": ""}"#, "input"),
                              (#"{"model": "l", "input": "a", "dimensions": 8}"#, "dimensions")] {
            let body = try JSONValue(parsing: text)
            do throws(APIError) {
                _ = try EmbeddingsRequest(body: body, maxInputs: 10)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.param == param)
            }
        }
    }
}
