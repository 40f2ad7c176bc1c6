import JSONModel
import TandemBridge

/// Writes a CreateChatCompletionRequest from a BackendRequest.
struct OpenAIRequestEncoder {
    let model: String
    let maxTokensField: MaxTokensField

    func chatCompletionRequest(_ request: BackendRequest, stream: Bool) throws(BackendFailure) -> JSONValue {
        let o = request.options
        if let problem = o.validationProblem() { throw BackendFailure(.invalidArgument, problem) }
        if o.topK != nil || o.sampling == .topK {
            throw BackendFailure(.unsupportedOption, "top-k sampling is not part of the OpenAI chat completions protocol")
        }
        if o.thinkingBudget != nil {
            throw BackendFailure(.unsupportedOption, "thinking budget: the OpenAI protocol takes a thinking level (reasoning_effort), not a budget")
        }
        var seed: JSONValue?
        if let value = o.seed {
            guard value <= UInt64(Int64.max) else { throw BackendFailure(.invalidArgument, "seed \(value) is out of range: at most \(Int64.max)") }
            seed = .integer(Int64(value))
        }
        let temperature = o.sampling == .greedy ? (o.temperature ?? 0) : o.temperature

        var messages: [JSONValue] = []
        for (index, message) in request.messages.enumerated() {
            let path = "messages[\(index)]"
            switch message.role {
            case .system:
                messages.append(["role": "system", "content": .string(message.content)])
            case .user:
                messages.append(["role": "user", "content": .string(message.content)])
            case .assistant:
                var calls: [JSONValue] = []
                for (callIndex, call) in message.toolCalls.enumerated() {
                    guard !call.id.isEmpty else {
                        throw BackendFailure(.invalidArgument, "\(path).tool_calls[\(callIndex)] has no id; the OpenAI protocol needs it")
                    }
                    calls.append(["id": .string(call.id), "type": "function",
                                  "function": ["name": .string(call.name), "arguments": .string(call.argumentsJSON)]])
                }
                messages.append(.members([
                    ("role", "assistant"),
                    ("content", message.content.isEmpty && !calls.isEmpty ? .null : .string(message.content)),
                    ("tool_calls", calls.isEmpty ? nil : .array(calls)),
                ]))
            case .tool:
                guard !message.callId.isEmpty else {
                    throw BackendFailure(.invalidArgument, "\(path) is a tool output without call_id; the OpenAI protocol needs it")
                }
                messages.append(["role": "tool", "tool_call_id": .string(message.callId), "content": .string(message.content)])
            }
        }

        var tools: JSONValue?
        if !request.tools.isEmpty {
            var list: [JSONValue] = []
            for (index, tool) in request.tools.enumerated() {
                let schema = tool.parametersSchema.isEmpty
                    ? nil : try Wire.parseJSONArgument(tool.parametersSchema, "tools[\(index)].parameters_schema")
                list.append(["type": "function", "function": .members([
                    ("name", .string(tool.name)),
                    ("description", tool.description.isEmpty ? nil : .string(tool.description)),
                    ("parameters", schema),
                ])])
            }
            tools = .array(list)
        }
        var responseFormat: JSONValue?
        if let text = o.responseSchema {
            let schema = try Wire.parseJSONArgument(text, "response schema")
            responseFormat = ["type": "json_schema", "json_schema": ["name": "response", "schema": schema, "strict": true]]
        }
        return .members([
            ("model", .string(model)),
            ("messages", .array(messages)),
            ("stream", .bool(stream)),
            ("stream_options", stream ? ["include_usage": true] : nil),
            ("temperature", temperature.map { .float($0) }),
            ("top_p", o.topP.map { .float($0) }),
            (maxTokensField.rawValue, o.maxTokens.map { .integer(Int64($0)) }),
            ("stop", o.stopSequences.map { .array($0.map { .string($0) }) }),
            ("seed", seed),
            ("reasoning_effort", o.thinkingLevel.map { .string($0.rawValue) }),
            ("response_format", responseFormat),
            ("tools", tools),
        ])
    }
}
