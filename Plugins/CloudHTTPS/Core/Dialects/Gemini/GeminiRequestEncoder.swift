import JSONModel
import TandemBridge

/// Writes a GenerateContentRequest (lowerCamelCase keys, UPPERCASE enums) from a BackendRequest.
struct GeminiRequestEncoder {
    let model: String

    func generateContentRequest(_ request: BackendRequest) throws(BackendFailure) -> JSONValue {
        let options = request.options
        if let problem = options.validationProblem() { throw BackendFailure(.invalidArgument, problem) }
        var systemParts: [JSONValue] = []
        var contents: [JSONValue] = []
        /// Consecutive tool outputs answer one turn of calls: they travel in one user content.
        var pendingResponses: [JSONValue] = []
        func flushResponses() {
            if !pendingResponses.isEmpty {
                contents.append(["role": "user", "parts": .array(pendingResponses)])
                pendingResponses = []
            }
        }
        for (index, message) in request.messages.enumerated() {
            let path = "messages[\(index)]"
            if message.role != .tool { flushResponses() }
            switch message.role {
            case .system:
                systemParts.append(["text": .string(message.content)])
            case .user:
                contents.append(["role": "user", "parts": [["text": .string(message.content)]]])
            case .assistant:
                var parts: [JSONValue] = []
                if !message.content.isEmpty { parts.append(["text": .string(message.content)]) }
                for (callIndex, call) in message.toolCalls.enumerated() {
                    let args = try Wire.parseJSONArgument(call.argumentsJSON, "\(path).tool_calls[\(callIndex)].arguments")
                    guard case .object = args else {
                        throw BackendFailure(.invalidArgument, "\(path).tool_calls[\(callIndex)].arguments must be a JSON object")
                    }
                    // The thought signature goes back verbatim, beside the call, in the same part.
                    parts.append(.members([
                        ("functionCall", .members([("name", .string(call.name)), ("args", args), ("id", call.id.isEmpty ? nil : .string(call.id))])),
                        ("thoughtSignature", call.signature.isEmpty ? nil : .string(call.signature)),
                    ]))
                }
                if parts.isEmpty { parts.append(["text": ""]) }
                contents.append(["role": "model", "parts": .array(parts)])
            case .tool:
                guard !message.toolName.isEmpty else {
                    throw BackendFailure(.invalidArgument, "\(path) is a tool output without tool_name; Gemini needs the function's name")
                }
                let output = (try? JSONValue(parsing: message.content, keepingNumberText: true)) ?? .string(message.content)
                pendingResponses.append(["functionResponse": .members([
                    ("name", .string(message.toolName)),
                    ("response", ["output": output]),
                    ("id", message.callId.isEmpty ? nil : .string(message.callId)),
                ])])
            }
        }
        flushResponses()
        guard !contents.isEmpty else { throw BackendFailure(.invalidArgument, "the request has only system messages; Gemini needs at least one user turn") }

        var tools: JSONValue?
        if !request.tools.isEmpty {
            var declarations: [JSONValue] = []
            for (index, tool) in request.tools.enumerated() {
                let schema = tool.parametersSchema.isEmpty
                    ? nil : try Wire.parseJSONArgument(tool.parametersSchema, "tools[\(index)].parameters_schema")
                declarations.append(.members([
                    ("name", .string(tool.name)),
                    ("description", tool.description.isEmpty ? nil : .string(tool.description)),
                    ("parametersJsonSchema", schema),
                ]))
            }
            tools = [["functionDeclarations": .array(declarations)]]
        }
        return .members([
            ("contents", .array(contents)),
            ("systemInstruction", systemParts.isEmpty ? nil : ["parts": .array(systemParts)]),
            ("tools", tools),
            ("generationConfig", try generationConfig(options)),
        ])
    }

    func generationConfig(_ o: BackendOptions) throws(BackendFailure) -> JSONValue {
        var temperature = o.temperature
        var topK = o.topK
        if o.sampling == .greedy {
            // Greedy: only the most likely token is ever a candidate.
            topK = 1
            temperature = temperature ?? 0
        }
        if let stops = o.stopSequences, stops.count > 5 {
            throw BackendFailure(.invalidArgument, "stop sequences: Gemini accepts at most 5, got \(stops.count)")
        }
        var seed: JSONValue?
        if let value = o.seed {
            guard value <= UInt64(Int32.max) else {
                throw BackendFailure(.invalidArgument, "seed \(value) is out of range: Gemini seeds are 0...\(Int32.max)")
            }
            seed = .integer(Int64(value))
        }
        try GeminiThinkingRules.check(model: model, level: o.thinkingLevel, budget: o.thinkingBudget)
        var thinking: JSONValue?
        if let level = o.thinkingLevel { thinking = ["thinkingLevel": .string(level.rawValue.uppercased())] }
        if let budget = o.thinkingBudget { thinking = ["thinkingBudget": .integer(Int64(budget))] }
        var schema: JSONValue?
        if let text = o.responseSchema { schema = try Wire.parseJSONArgument(text, "response schema") }
        return .members([
            ("candidateCount", 1),
            ("temperature", temperature.map { .float($0) }),
            ("topP", o.topP.map { .float($0) }),
            ("topK", topK.map { .integer(Int64($0)) }),
            ("maxOutputTokens", o.maxTokens.map { .integer(Int64($0)) }),
            ("stopSequences", o.stopSequences.map { .array($0.map { .string($0) }) }),
            ("seed", seed),
            ("responseMimeType", schema == nil ? nil : "application/json"),
            ("responseJsonSchema", schema),
            ("thinkingConfig", thinking),
        ])
    }
}
