import GuidedJSON
import JSONModel
import Tandem

/// A `POST /v1/chat/completions` body as the router takes it: the conversation as backend
/// messages, the client's tools as declarations (the client runs them; tool results come back
/// as `tool` messages on the next request), the response format as a schema, and the options
/// for whichever side serves. Everything is checked here, before any backend is called.
struct ChatCompletionRequest {
    enum ToolChoice: Equatable {
        case auto, none, required
        case function(String)
    }

    var model: String
    var messages: [Message]
    var tools: [ToolDeclaration]
    var toolChoice: ToolChoice
    /// The schema the answer must match (`response_format` json_schema), enforced while decoding
    /// by a side with guided JSON and checked on the final answer.
    var schema: GenerationSchema?
    /// `response_format` json_object: the answer must be a JSON object. Checked on the final
    /// answer only: the guided decoder's objects are closed, so "any object" is not a schema it
    /// can enforce.
    var wantsJSONObject: Bool
    var options: RequestOptions
    var stream: Bool
    var includeUsage: Bool

    static let knownFields: Set<String> = [
        "model", "messages", "temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "seed",
        "response_format", "tools", "tool_choice", "parallel_tool_calls", "reasoning_effort", "stream", "stream_options",
        "n", "user", "metadata", "store", "presence_penalty", "frequency_penalty", "logprobs",
    ]

    init(body: JSON, maxMessages: Int) throws(APIError) {
        let request = try RequestObject(body, path: "")
        try request.rejectUnknown(Self.knownFields)
        model = try request.requiredString("model")
        try Self.refuseUnsupported(request)

        guard let rawMessages = try request.array("messages") else {
            throw APIError.invalid("messages", "messages is required", code: "missing_required_parameter")
        }
        guard !rawMessages.isEmpty else { throw APIError.invalid("messages", "messages is empty: at least one message is needed") }
        guard rawMessages.count <= maxMessages else {
            throw APIError.invalid("messages", "messages has \(rawMessages.count) entries; this server takes at most \(maxMessages)", code: "too_many_messages")
        }
        messages = try Self.conversation(rawMessages)

        (tools, toolChoice) = try Self.tools(request)
        (schema, wantsJSONObject) = try Self.responseFormat(request.object("response_format"))
        options = try Self.options(request)
        stream = try request.bool("stream") ?? false
        let streamOptions = try request.object("stream_options")
        try streamOptions?.rejectUnknown(["include_usage"])
        if streamOptions != nil && !stream {
            throw APIError.invalid("stream_options", "stream_options is only allowed with stream: true")
        }
        includeUsage = try streamOptions?.bool("include_usage") ?? false
    }

    /// Fields accepted only at the value that changes nothing, since the router cannot honour
    /// any other.
    private static func refuseUnsupported(_ request: RequestObject) throws(APIError) {
        if let n = try request.integer("n"), n != 1 {
            throw APIError.invalid("n", "n: only 1 choice per request is supported, got \(n)", code: "unsupported_value")
        }
        if try request.bool("logprobs") == true {
            throw APIError.invalid("logprobs", "logprobs: not supported by this server", code: "unsupported_value")
        }
        for key in ["presence_penalty", "frequency_penalty"] {
            if let value = try request.number(key), value != 0 {
                throw APIError.invalid(key, "\(key): not supported by this server (only 0)", code: "unsupported_value")
            }
        }
    }

    // MARK: - Messages

    private static func conversation(_ raw: [JSON]) throws(APIError) -> [Message] {
        var messages: [Message] = []
        /// Tool call id → tool name, for the calls the assistant messages so far made.
        var calls: [String: String] = [:]
        for (index, value) in raw.enumerated() {
            let message = try RequestObject(value, path: "messages[\(index)]")
            let role = try message.requiredString("role")
            switch role {
            case "system", "developer":
                try message.rejectUnknown(["role", "content", "name"])
                messages.append(.system(try text(of: message, required: true)))
            case "user":
                try message.rejectUnknown(["role", "content", "name"])
                messages.append(.user(try text(of: message, required: true)))
            case "assistant":
                try message.rejectUnknown(["role", "content", "name", "tool_calls", "refusal"])
                let toolCalls = try Self.toolCalls(message)
                for call in toolCalls { calls[call.id] = call.name }
                let content = try text(of: message, required: toolCalls.isEmpty)
                messages.append(.assistant(content, toolCalls: toolCalls))
            case "tool":
                try message.rejectUnknown(["role", "content", "tool_call_id"])
                let callID = try message.requiredString("tool_call_id")
                guard let name = calls[callID] else {
                    let known = calls.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                    throw APIError.invalid(
                        message.fieldPath("tool_call_id"),
                        "\(message.fieldPath("tool_call_id")): no assistant message before it made a tool call with id \"\(callID)\" (calls so far: \(known.isEmpty ? "none" : known))",
                        code: "unmatched_tool_call")
                }
                messages.append(.toolOutput(try text(of: message, required: true), callId: callID, toolName: name))
            default:
                throw APIError.invalid(
                    message.fieldPath("role"),
                    "\(message.fieldPath("role")): unknown role \"\(role)\" (expected system, developer, user, assistant or tool)",
                    code: "invalid_role")
            }
        }
        return messages
    }

    /// `content` as text: a string, or an array of text parts joined (other part types, such as
    /// images, are refused).
    private static func text(of message: RequestObject, required: Bool) throws(APIError) -> String {
        guard let content = message.value("content") else {
            if required { throw APIError.invalid(message.fieldPath("content"), "\(message.fieldPath("content")) is required", code: "missing_required_parameter") }
            return ""
        }
        switch content {
        case .string(let text):
            return text
        case .array(let parts):
            var text = ""
            for (index, part) in parts.enumerated() {
                let part = try RequestObject(part, path: "\(message.fieldPath("content"))[\(index)]")
                let type = try part.requiredString("type")
                guard type == "text" else {
                    throw APIError.invalid(part.fieldPath("type"), "\(part.fieldPath("type")): only text parts are supported, got \"\(type)\"", code: "unsupported_value")
                }
                text += try part.requiredString("text")
            }
            return text
        default:
            throw message.mismatch("content", "a string or an array of text parts", content)
        }
    }

    private static func toolCalls(_ message: RequestObject) throws(APIError) -> [ToolCall] {
        guard let raw = try message.array("tool_calls") else { return [] }
        var calls: [ToolCall] = []
        for (index, value) in raw.enumerated() {
            let call = try RequestObject(value, path: "\(message.fieldPath("tool_calls"))[\(index)]")
            try call.rejectUnknown(["id", "type", "function"])
            let type = try call.string("type") ?? "function"
            guard type == "function" else { throw APIError.invalid(call.fieldPath("type"), "\(call.fieldPath("type")): expected \"function\", got \"\(type)\"") }
            guard let function = try call.object("function") else {
                throw APIError.invalid(call.fieldPath("function"), "\(call.fieldPath("function")) is required", code: "missing_required_parameter")
            }
            try function.rejectUnknown(["name", "arguments"])
            calls.append(ToolCall(id: try call.requiredString("id"), name: try function.requiredString("name"),
                                  argumentsJSON: try function.string("arguments") ?? "{}"))
        }
        return calls
    }

    // MARK: - Tools and response format

    private static func tools(_ request: RequestObject) throws(APIError) -> ([ToolDeclaration], ToolChoice) {
        var declarations: [ToolDeclaration] = []
        for (index, value) in (try request.array("tools") ?? []).enumerated() {
            let tool = try RequestObject(value, path: "tools[\(index)]")
            try tool.rejectUnknown(["type", "function"])
            let type = try tool.requiredString("type")
            guard type == "function" else { throw APIError.invalid(tool.fieldPath("type"), "\(tool.fieldPath("type")): only \"function\" tools are supported, got \"\(type)\"", code: "unsupported_value") }
            guard let function = try tool.object("function") else {
                throw APIError.invalid(tool.fieldPath("function"), "\(tool.fieldPath("function")) is required", code: "missing_required_parameter")
            }
            try function.rejectUnknown(["name", "description", "parameters", "strict"])
            let name = try function.requiredString("name")
            guard !name.isEmpty, !declarations.contains(where: { $0.name == name }) else {
                throw APIError.invalid(function.fieldPath("name"), "\(function.fieldPath("name")): \"\(name)\" is empty or declared twice")
            }
            let parameters = try function.value("parameters").map { value throws(APIError) in
                try schemaText(value, param: function.fieldPath("parameters"))
            }
            declarations.append(ToolDeclaration(name: name, description: try function.string("description") ?? "", parametersSchema: parameters ?? ""))
        }
        var choice = ToolChoice.auto
        switch request.value("tool_choice") {
        case nil: break
        case .string("auto"): choice = .auto
        case .string("none"): choice = .none
        case .string("required"): choice = .required
        case .object?:
            let named = try request.object("tool_choice")!
            guard try named.requiredString("type") == "function", let function = try named.object("function") else {
                throw APIError.invalid("tool_choice", "tool_choice: expected {\"type\": \"function\", \"function\": {\"name\": ...}}")
            }
            let name = try function.requiredString("name")
            guard declarations.contains(where: { $0.name == name }) else {
                throw APIError.invalid("tool_choice.function.name", "tool_choice.function.name: no tool named \"\(name)\" in tools")
            }
            choice = .function(name)
        case let other?:
            throw APIError.invalid("tool_choice", "tool_choice: expected \"auto\", \"none\", \"required\" or a function, found \(other.jsonText)")
        }
        if choice != .auto && choice != .none && declarations.isEmpty {
            throw APIError.invalid("tool_choice", "tool_choice asks for a tool call but tools is empty")
        }
        switch choice {
        case .none: declarations = []
        case .function(let name): declarations = declarations.filter { $0.name == name }
        case .auto, .required: break
        }
        return (declarations, choice)
    }

    /// A JSON Schema checked by the guided-generation reader (so a schema the host cannot
    /// enforce fails here, naming where), as the text the backends receive.
    private static func schemaText(_ value: JSON, param: String) throws(APIError) -> String {
        do {
            return try GenerationSchema(jsonSchema: value).jsonSchemaText
        } catch {
            throw APIError.invalid(param, "\(param): \(error)", code: "unsupported_schema")
        }
    }

    private static func responseFormat(_ format: RequestObject?) throws(APIError) -> (GenerationSchema?, Bool) {
        guard let format else { return (nil, false) }
        try format.rejectUnknown(["type", "json_schema"])
        switch try format.requiredString("type") {
        case "text":
            return (nil, false)
        case "json_object":
            return (nil, true)
        case "json_schema":
            guard let spec = try format.object("json_schema") else {
                throw APIError.invalid(format.fieldPath("json_schema"), "\(format.fieldPath("json_schema")) is required", code: "missing_required_parameter")
            }
            try spec.rejectUnknown(["name", "description", "schema", "strict"])
            guard let schema = spec.value("schema") else {
                throw APIError.invalid(spec.fieldPath("schema"), "\(spec.fieldPath("schema")) is required", code: "missing_required_parameter")
            }
            return (try parsedSchema(schema, param: spec.fieldPath("schema")), false)
        case let other:
            throw APIError.invalid(format.fieldPath("type"), "\(format.fieldPath("type")): expected text, json_object or json_schema, got \"\(other)\"")
        }
    }

    private static func parsedSchema(_ value: JSON, param: String) throws(APIError) -> GenerationSchema {
        do {
            return try GenerationSchema(jsonSchema: value)
        } catch {
            throw APIError.invalid(param, "\(param): \(error)", code: "unsupported_schema")
        }
    }

    // MARK: - Options

    /// The same values for both sides: the local side in Foundation Models' terms (a seed, a
    /// sampling mode), the cloud side in Firebase AI Logic's (a thinking level; no seed).
    private static func options(_ request: RequestObject) throws(APIError) -> RequestOptions {
        let temperature = try request.number("temperature")
        if let temperature, !(0...2).contains(temperature) {
            throw APIError.invalid("temperature", "temperature: \(temperature) is outside 0...2")
        }
        let topP = try request.number("top_p")
        if let topP, !(topP > 0 && topP <= 1) { throw APIError.invalid("top_p", "top_p: \(topP) is outside (0, 1]") }
        let newerMaxTokens = try request.integer("max_completion_tokens")
        let olderMaxTokens = try request.integer("max_tokens")
        let maxTokens = newerMaxTokens ?? olderMaxTokens
        if let maxTokens, maxTokens < 1 {
            let field = newerMaxTokens != nil ? "max_completion_tokens" : "max_tokens"
            throw APIError.invalid(field, "\(field): \(maxTokens) is below 1")
        }
        let seed = try request.integer("seed")
        if let seed, seed < 0 { throw APIError.invalid("seed", "seed: \(seed) is negative") }
        var stop: [String]?
        switch request.value("stop") {
        case nil: break
        case .string(let text)?: stop = [text]
        case .array(let items)?:
            stop = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item, !text.isEmpty else {
                    throw APIError.invalid("stop[\(index)]", "stop[\(index)]: expected a non-empty string")
                }
                stop?.append(text)
            }
            if items.count > 4 { throw APIError.invalid("stop", "stop: at most 4 sequences, got \(items.count)") }
        case let other?: throw request.mismatch("stop", "a string or an array of strings", other)
        }
        var thinking: ThinkingConfig?
        if let effort = try request.string("reasoning_effort") {
            guard let level = ThinkingLevel(rawValue: effort) else {
                throw APIError.invalid("reasoning_effort", "reasoning_effort: expected minimal, low, medium or high, got \"\(effort)\"")
            }
            thinking = ThinkingConfig(thinkingLevel: level)
        }
        let sampling: GenerationOptions.SamplingMode? =
            if temperature == 0 { .greedy }
            else if let topP { .random(probabilityThreshold: topP, seed: seed.map(UInt64.init)) }
            // A seed alone samples from the whole distribution, reproducibly.
            else if let seed { .random(probabilityThreshold: 1, seed: UInt64(seed)) }
            else { nil }
        let local = GenerationOptions(
            sampling: sampling, temperature: temperature, maximumResponseTokens: maxTokens.map(Int.init), stopSequences: stop)
        let cloud = GenerationConfig(
            temperature: temperature.map(Float.init), topP: topP.map(Float.init), maxOutputTokens: maxTokens.map(Int.init),
            stopSequences: stop, thinkingConfig: thinking)
        return .hybrid(cloud: cloud, local: local)
    }
}
