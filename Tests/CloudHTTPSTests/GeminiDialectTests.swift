@testable import CloudHTTPSCore
import JSONModel
import TandemBridge
import Testing

@Suite struct GeminiDialectTests {
    let dialect = GeminiDialect(model: "gemini-3.5-flash", baseURL: "https://example.test/v1beta", embeddingModel: "gemini-embedding-001", embeddingDimensions: nil)

    func body(_ request: BackendRequest, stream: Bool = true) throws -> JSONValue {
        let http = try dialect.generateRequest(request, stream: stream, credential: "k")
        return try JSONValue(parsing: http.body ?? [], keepingNumberText: true)
    }

    @Test func urlsHeadersAndKeyPlacement() throws {
        let stream = try dialect.generateRequest(.prompt("hi"), stream: true, credential: "the-key")
        #expect(stream.url == "https://example.test/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse")
        #expect(stream.headers.contains { $0.name == "x-goog-api-key" && $0.value == "the-key" })
        #expect(!stream.url.contains("the-key"))
        let whole = try dialect.generateRequest(.prompt("hi"), stream: false, credential: "the-key")
        #expect(whole.url.hasSuffix("/models/gemini-3.5-flash:generateContent"))
    }

    @Test func conversationWithSystemToolCallsAndSignatures() throws {
        let signature = "c2lnbmF0dXJlLW9uZQ=="
        let request = BackendRequest(messages: [
            .system("You are terse."),
            .user("Weather in Paris and the time?"),
            .assistant("", toolCalls: [
                ToolCall(id: "c1", name: "get_weather", argumentsJSON: #"{"city":"Paris"}"#, signature: signature),
                ToolCall(name: "get_time", argumentsJSON: #"{"zone":"CET"}"#),
            ]),
            .toolOutput(#"{"temp":21}"#, callId: "c1", toolName: "get_weather"),
            .toolOutput("12:00", callId: "", toolName: "get_time"),
            .user("Thanks"),
        ], tools: [ToolDeclaration(name: "get_weather", description: "Weather by city", parametersSchema: #"{"type":"object","properties":{"city":{"type":"string"}}}"#)])
        let json = try body(request)
        #expect(json["systemInstruction"]?["parts"]?[0]?["text"]?.stringValue == "You are terse.")
        let contents = try #require(json["contents"]?.arrayValue)
        #expect(contents.map { $0["role"]?.stringValue } == ["user", "model", "user", "user"])
        let calls = try #require(contents[1]["parts"]?.arrayValue)
        #expect(calls[0]["functionCall"]?["name"]?.stringValue == "get_weather")
        #expect(calls[0]["functionCall"]?["args"]?["city"]?.stringValue == "Paris")
        #expect(calls[0]["thoughtSignature"]?.stringValue == signature)  // verbatim, beside the call
        #expect(calls[1]["thoughtSignature"] == nil)
        // Both outputs answer one turn: one user content with two functionResponse parts.
        let responses = try #require(contents[2]["parts"]?.arrayValue)
        #expect(responses.count == 2)
        #expect(responses[0]["functionResponse"]?["response"]?["output"]?["temp"]?.integerValue == 21)
        #expect(responses[1]["functionResponse"]?["response"]?["output"]?.stringValue == "12:00")
        #expect(json["tools"]?[0]?["functionDeclarations"]?[0]?["parametersJsonSchema"]?["type"]?.stringValue == "object")
    }

    @Test func generationConfigMapping() throws {
        let options = BackendOptions(
            sampling: .greedy, topP: 0.9, seed: 42, maxTokens: 64, stopSequences: ["END"],
            thinkingLevel: .low, responseSchema: #"{"type":"object"}"#)
        let config = try #require(try body(.prompt("x", options: options))["generationConfig"])
        #expect(config["candidateCount"]?.integerValue == 1)
        #expect(config["temperature"]?.numberValue == 0)
        #expect(config["topK"]?.integerValue == 1)
        #expect(config["topP"]?.numberValue.map { abs($0 - 0.9) < 1e-6 } == true)
        #expect(config["seed"]?.integerValue == 42)
        #expect(config["maxOutputTokens"]?.integerValue == 64)
        #expect(config["stopSequences"]?[0]?.stringValue == "END")
        #expect(config["thinkingConfig"]?["thinkingLevel"]?.stringValue == "LOW")
        #expect(config["responseMimeType"]?.stringValue == "application/json")
        #expect(config["responseJsonSchema"]?["type"]?.stringValue == "object")
    }

    @Test(arguments: [
        ("gemini-2.5-flash", ThinkingLevel?.some(.low), Int?.none, BackendStatus.unsupportedOption),
        ("gemini-2.5-flash", nil, 30_000, .invalidArgument),
        ("gemini-2.5-flash", nil, 0, .ok),
        ("gemini-2.5-pro", nil, 0, .invalidArgument),
        ("gemini-2.5-pro", nil, -1, .ok),
        ("gemini-2.5-flash-lite", nil, 100, .invalidArgument),
        ("gemini-2.5-flash-lite", nil, 512, .ok),
        ("gemini-3.1-pro-preview", .minimal, nil, .unsupportedOption),
        ("gemini-3.1-pro-preview", .medium, nil, .ok),
        ("gemini-3.8-flash", .minimal, nil, .unsupportedOption),
        ("gemini-3.5-flash", .minimal, nil, .ok),
        ("gemini-3.5-flash", .high, 1024, .invalidArgument),
        ("gemma-3-27b-it", .high, nil, .ok),
    ])
    func thinkingIsValidatedAgainstTheModelFamily(model: String, level: ThinkingLevel?, budget: Int?, expected: BackendStatus) {
        let dialect = GeminiDialect(model: model, baseURL: "https://x/v1beta", embeddingModel: "e", embeddingDimensions: nil)
        do {
            _ = try dialect.generateRequest(.prompt("x", options: BackendOptions(thinkingLevel: level, thinkingBudget: budget)), stream: true, credential: nil)
            #expect(expected == .ok, "\(model) \(String(describing: level)) \(String(describing: budget))")
        } catch {
            #expect(error.status == expected, "\(model): \(error)")
        }
    }

    @Test func badInputsNameWhatIsWrong() {
        func failure(_ request: BackendRequest) -> BackendFailure? {
            do { _ = try dialect.generateRequest(request, stream: true, credential: nil); return nil } catch { return error }
        }
        #expect(failure(.prompt("x", options: BackendOptions(seed: UInt64(Int32.max) + 1)))?.message.contains("seed") == true)
        #expect(failure(.prompt("x", options: BackendOptions(stopSequences: ["1", "2", "3", "4", "5", "6"])))?.message.contains("at most 5") == true)
        #expect(failure(.prompt("x", options: BackendOptions(responseSchema: "{not json")))?.message.contains("response schema") == true)
        #expect(failure(BackendRequest(messages: [.user("x"), .assistant("", toolCalls: [ToolCall(name: "f", argumentsJSON: "[1]")])]))?.message.contains("messages[1].tool_calls[0].arguments") == true)
        #expect(failure(BackendRequest(messages: [.user("x"), .toolOutput("1", callId: "c", toolName: "")]))?.message.contains("messages[1]") == true)
        #expect(failure(BackendRequest(messages: [.system("only")]))?.status == .invalidArgument)
    }

    // MARK: Decoding

    func decode(_ chunks: [String], streamed: Bool = true) throws(BackendFailure) -> ([BackendEvent], GenerationOutcome) {
        var decoder = dialect.makeDecoder(streamed: streamed)
        var events: [BackendEvent] = []
        for chunk in chunks { events += try decoder.decode(try! JSONValue(parsing: chunk, keepingNumberText: true)) }
        return (events, try decoder.finish(endMarkerSeen: false, strayText: []))
    }

    @Test func thoughtsAreCountedButNotShown() throws {
        let (events, outcome) = try decode([
            #"{"candidates":[{"content":{"parts":[{"text":"hmm","thought":true}]}}],"modelVersion":"gemini-3.5-flash-001"}"#,
            #"{"candidates":[{"content":{"parts":[{"text":"Answer","thoughtSignature":"AAA="}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1,"thoughtsTokenCount":40}}"#,
        ])
        #expect(events == [.text("Answer")])
        #expect(outcome == GenerationOutcome(finish: .stop, modelVersion: "gemini-3.5-flash-001", usage: Usage(promptTokens: 3, outputTokens: 1, thinkingTokens: 40)))
    }

    @Test func functionCallsCarryTheirSignatureAndFinishAsToolCalls() throws {
        let (events, outcome) = try decode([
            #"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1,2]},"id":"x1"},"thoughtSignature":"U0lH"},{"functionCall":{"name":"g"}}]},"finishReason":"STOP"}]}"#,
        ])
        #expect(events == [
            .toolCall(ToolCall(id: "x1", name: "f", argumentsJSON: #"{"a":[1,2]}"#, signature: "U0lH")),
            .toolCall(ToolCall(name: "g", argumentsJSON: "{}")),
        ])
        #expect(outcome.finish == .toolCalls)
    }

    @Test func blocksSafetyAndLimits() throws {
        #expect(throws: BackendFailure.self) { _ = try decode([#"{"promptFeedback":{"blockReason":"SAFETY"}}"#]) }
        do { _ = try decode([#"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}"#]) } catch { #expect(error.status == .guardrail) }
        do { _ = try decode([#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"SAFETY"}]}"#]) } catch { #expect(error.status == .guardrail) }
        let (_, outcome) = try decode([#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"MAX_TOKENS"}]}"#])
        #expect(outcome.finish == .maxTokens)
        do { _ = try decode([#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}"#]); Issue.record("cut stream accepted") } catch {
            #expect(error.status == .serverError)
            #expect(error.message.contains("natural end"))
        }
        do { _ = try decode([#"{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}"#]) } catch {
            #expect(error.status == .serverError)
            #expect(error.httpStatus == 503)
        }
    }

    @Test func strayJSONErrorInTheStreamIsReported() {
        var decoder = dialect.makeDecoder(streamed: true)
        let stray = Array("{\n\"error\": {\"code\": 429, \"message\": \"slow down\", \"status\": \"RESOURCE_EXHAUSTED\"}\n}".utf8)
        do { _ = try decoder.finish(endMarkerSeen: false, strayText: stray); Issue.record("accepted") } catch {
            #expect(error.status == .rateLimited)
        }
    }

    @Test func embeddingsAndTokenCounts() throws {
        let sized = GeminiDialect(model: "gemini-2.5-flash", baseURL: "https://x/v1beta", embeddingModel: "gemini-embedding-001", embeddingDimensions: 768)
        let http = try sized.embedRequest(["a", "b"], credential: nil)
        #expect(http.url == "https://x/v1beta/models/gemini-embedding-001:batchEmbedContents")
        let json = try JSONValue(parsing: http.body!, keepingNumberText: true)
        #expect(json["requests"]?[1]?["model"]?.stringValue == "models/gemini-embedding-001")
        #expect(json["requests"]?[1]?["outputDimensionality"]?.integerValue == 768)
        #expect(try sized.decodeEmbeddings(JSONValue(parsing: #"{"embeddings":[{"values":[1,2]},{"values":[3,4.5]}]}"#, keepingNumberText: true), count: 2) == [[1, 2], [3, 4.5]])
        let single = try sized.embedRequest(["only"], credential: nil)
        #expect(single.url == "https://x/v1beta/models/gemini-embedding-001:embedContent")
        #expect(try JSONValue(parsing: single.body!, keepingNumberText: true)["content"]?["parts"]?[0]?["text"]?.stringValue == "only")
        #expect(try sized.decodeEmbeddings(JSONValue(parsing: #"{"embedding":{"values":[0.5]}}"#, keepingNumberText: true), count: 1) == [[0.5]])
        #expect(throws: BackendFailure.self) { try sized.decodeEmbeddings(JSONValue(parsing: #"{"embeddings":[{"values":[1]}]}"#, keepingNumberText: true), count: 2) }
        let count = try #require(try sized.countTokensRequest(.prompt("hello"), credential: nil))
        let countBody = try JSONValue(parsing: count.body!, keepingNumberText: true)
        #expect(countBody["generateContentRequest"]?["model"]?.stringValue == "models/gemini-2.5-flash")
        #expect(try sized.decodeTokenCount(JSONValue(parsing: #"{"totalTokens":12}"#, keepingNumberText: true)) == 12)
    }
}
