@testable import CloudHTTPSCore
import JSONModel
import TandemBridge
import Testing

@Suite struct OpenAIDialectTests {
    let dialect = OpenAIDialect(model: "gpt-4o-mini", baseURL: "http://127.0.0.1:8080/v1", maxTokensField: .maxCompletionTokens, embeddingModel: "text-embedding-3-small", embeddingDimensions: nil)

    func body(_ request: BackendRequest, stream: Bool = true, dialect: OpenAIDialect? = nil) throws -> JSONValue {
        try JSONValue(parsing: (dialect ?? self.dialect).generateRequest(request, stream: stream, credential: "k").body ?? [], keepingNumberText: true)
    }

    @Test func requestShape() throws {
        let http = try dialect.generateRequest(.prompt("hi"), stream: true, credential: "sk-test")
        #expect(http.url == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(http.headers.contains { $0.name == "Authorization" && $0.value == "Bearer sk-test" })
        let json = try JSONValue(parsing: http.body!, keepingNumberText: true)
        #expect(json["model"]?.stringValue == "gpt-4o-mini")
        #expect(json["stream"]?.boolValue == true)
        #expect(json["stream_options"]?["include_usage"]?.boolValue == true)
        #expect(json["messages"]?[0]?["role"]?.stringValue == "system")
        let whole = try body(.prompt("hi"), stream: false)
        #expect(whole["stream"]?.boolValue == false)
        #expect(whole["stream_options"] == nil)
    }

    @Test func optionsToolsAndSchema() throws {
        let options = BackendOptions(temperature: 0.2, topP: 0.5, seed: 7, maxTokens: 100, stopSequences: ["\n\n"], thinkingLevel: .high, responseSchema: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#)
        let request = BackendRequest(messages: [
            .user("q"),
            .assistant("", toolCalls: [ToolCall(id: "call_1", name: "lookup", argumentsJSON: #"{"q":"x"}"#)]),
            .toolOutput("found", callId: "call_1", toolName: "lookup"),
        ], tools: [ToolDeclaration(name: "lookup", description: "Search", parametersSchema: #"{"type":"object"}"#)], options: options)
        let json = try body(request)
        #expect(json["max_completion_tokens"]?.integerValue == 100)
        #expect(json["seed"]?.integerValue == 7)
        #expect(json["reasoning_effort"]?.stringValue == "high")
        #expect(json["stop"]?[0]?.stringValue == "\n\n")
        #expect(json["response_format"]?["type"]?.stringValue == "json_schema")
        #expect(json["response_format"]?["json_schema"]?["strict"]?.boolValue == true)
        #expect(json["response_format"]?["json_schema"]?["schema"]?["required"]?[0]?.stringValue == "a")
        #expect(json["tools"]?[0]?["function"]?["name"]?.stringValue == "lookup")
        let messages = try #require(json["messages"]?.arrayValue)
        #expect(messages[1]["content"] == .null)
        #expect(messages[1]["tool_calls"]?[0]?["function"]?["arguments"]?.stringValue == #"{"q":"x"}"#)
        #expect(messages[2]["role"]?.stringValue == "tool")
        #expect(messages[2]["tool_call_id"]?.stringValue == "call_1")

        let legacy = OpenAIDialect(model: "m", baseURL: "http://127.0.0.1/v1", maxTokensField: .maxTokens, embeddingModel: "e", embeddingDimensions: nil)
        let legacyJSON = try body(.prompt("x", options: BackendOptions(maxTokens: 5)), dialect: legacy)
        #expect(legacyJSON["max_tokens"]?.integerValue == 5)
        #expect(legacyJSON["max_completion_tokens"] == nil)
    }

    @Test func unsupportedOptionsAreNamed() {
        for options in [BackendOptions(topK: 40), BackendOptions(sampling: .topK), BackendOptions(thinkingBudget: 100)] {
            do { _ = try dialect.generateRequest(.prompt("x", options: options), stream: true, credential: nil); Issue.record("accepted \(options)") } catch {
                #expect(error.status == .unsupportedOption)
            }
        }
    }

    func decode(_ chunks: [String], done: Bool = true, streamed: Bool = true) throws(BackendFailure) -> ([BackendEvent], GenerationOutcome) {
        var decoder = dialect.makeDecoder(streamed: streamed)
        var events: [BackendEvent] = []
        for chunk in chunks { events += try decoder.decode(try! JSONValue(parsing: chunk, keepingNumberText: true)) }
        return (events, try decoder.finish(endMarkerSeen: done, strayText: []))
    }

    @Test func recordedStreamJoinsToolCallFragmentsByIndex() throws {
        var parser = SSEParser()
        var decoder = dialect.makeDecoder(streamed: true)
        var events: [BackendEvent] = []
        var done = false
        _ = try parser.feed(Array(RecordedStreams.openai.utf8)) { (event: SSEEvent) throws(BackendFailure) in
            if decoder.isEndMarker(event) { done = true; return }
            events += try decoder.decode(try! JSONValue(parsing: event.data, keepingNumberText: true))
        }
        let outcome = try decoder.finish(endMarkerSeen: done, strayText: parser.strayText)
        #expect(events == [.text("Héllo"), .toolCall(ToolCall(id: "call_9", name: "lookup", argumentsJSON: #"{"q":"x"}"#))])
        #expect(outcome == GenerationOutcome(finish: .toolCalls, modelVersion: "gpt-4o-mini-2024-07-18", usage: Usage(promptTokens: 9, outputTokens: 6)))
    }

    @Test func interleavedParallelCallsAndReasoningUsage() throws {
        let (events, outcome) = try decode([
            #"{"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{\"y\""}}]}}]}"#,
            #"{"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}}]}"#,
            #"{"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":":2}"}}]}}]}"#,
            #"{"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":4,"completion_tokens":10,"completion_tokens_details":{"reasoning_tokens":3}}}"#,
        ])
        #expect(events == [.toolCall(ToolCall(id: "a", name: "f", argumentsJSON: "{}")), .toolCall(ToolCall(id: "b", name: "g", argumentsJSON: #"{"y":2}"#))])
        #expect(outcome.usage == Usage(promptTokens: 4, outputTokens: 7, thinkingTokens: 3))
    }

    @Test func refusalLengthFilterAndCutStreams() throws {
        do { _ = try decode([#"{"choices":[{"delta":{"refusal":"No."},"finish_reason":null}]}"#, #"{"choices":[{"delta":{},"finish_reason":"stop"}]}"#]); Issue.record("refusal accepted") } catch {
            #expect(error.status == .refusal)
            #expect(error.message.contains("No."))
        }
        #expect(try decode([#"{"choices":[{"delta":{"content":"a"},"finish_reason":"length"}]}"#]).1.finish == .maxTokens)
        do { _ = try decode([#"{"choices":[{"delta":{"content":"a"},"finish_reason":"content_filter"}]}"#]) } catch { #expect(error.status == .guardrail) }
        do { _ = try decode([#"{"choices":[{"delta":{"content":"a"},"finish_reason":"stop"}]}"#], done: false); Issue.record("cut accepted") } catch {
            #expect(error.status == .serverError)
        }
        // Missing usage is fine.
        #expect(try decode([#"{"choices":[{"delta":{"content":"a"},"finish_reason":"stop"}],"usage":null}"#]).1.usage == nil)
        do { _ = try decode([#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}"#]) } catch {
            #expect(error.status == .decoding)
        }
    }

    @Test func wholeCompletionAndRefusal() throws {
        let (events, outcome) = try decode([#"{"model":"gpt-x","choices":[{"index":0,"message":{"role":"assistant","content":"Hi","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}"#], done: false, streamed: false)
        #expect(events == [.text("Hi")])
        #expect(outcome.modelVersion == "gpt-x")
        do { _ = try decode([#"{"choices":[{"message":{"content":null,"refusal":"I can't."},"finish_reason":"stop"}]}"#], done: false, streamed: false) } catch {
            #expect(error.status == .refusal)
        }
    }

    @Test func embeddingsAreOrderedByIndex() throws {
        let vectors = try dialect.decodeEmbeddings(JSONValue(parsing: #"{"data":[{"index":1,"embedding":[2]},{"index":0,"embedding":[1]}]}"#, keepingNumberText: true), count: 2)
        #expect(vectors == [[1], [2]])
        #expect(throws: BackendFailure.self) { try dialect.decodeEmbeddings(JSONValue(parsing: #"{"data":[{"index":0,"embedding":[2]},{"index":0,"embedding":[1]}]}"#, keepingNumberText: true), count: 2) }
        #expect(throws: BackendFailure.self) { try dialect.embedRequest(["a", ""], credential: nil) }
    }
}
