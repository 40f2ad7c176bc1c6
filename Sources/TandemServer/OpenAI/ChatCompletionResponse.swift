import Foundation
import Tandem

/// The answers of `/v1/chat/completions`: a whole `chat.completion`, or the chunks of a stream.
/// `model` is the serving model's own version; the `tandem` member says which backend served
/// and what happened to the primary.
struct ChatCompletionResponse {
    let id: String
    let created: Int64

    init() {
        id = "chatcmpl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        created = Int64(Date().timeIntervalSince1970)
    }

    /// OpenAI's finish reasons.
    static func finishReason(_ finish: FinishReason, toolCalls: Bool) -> String {
        if toolCalls { return "tool_calls" }
        switch finish {
        case .maxTokens: return "length"
        case .toolCalls: return "tool_calls"
        default: return "stop"
        }
    }

    static func toolCalls(_ calls: [ToolCall]) -> JSON {
        .array(calls.enumerated().map { toolCall($1, index: $0, inStream: false) })
    }

    /// A call as OpenAI writes it; in a stream each carries its position (`index`). A call the
    /// backend left without an id gets one, since the client must quote it in its tool message.
    static func toolCall(_ call: ToolCall, index: Int, inStream: Bool) -> JSON {
        var member: JSONMembers = [
            "id": .string(call.id.isEmpty ? "call_\(index)" : call.id), "type": "function",
            "function": ["name": .string(call.name), "arguments": .string(call.argumentsJSON)],
        ]
        if inStream { member["index"] = .integer(Int64(index)) }
        return .object(member)
    }

    static func usage(_ usage: Usage) -> JSON {
        var members: JSONMembers = [
            "prompt_tokens": .integer(Int64(usage.promptTokens)),
            "completion_tokens": .integer(Int64(usage.outputTokens + usage.thinkingTokens)),
            "total_tokens": .integer(Int64(usage.promptTokens + usage.outputTokens + usage.thinkingTokens)),
        ]
        if usage.thinkingTokens > 0 {
            members["completion_tokens_details"] = ["reasoning_tokens": .integer(Int64(usage.thinkingTokens))]
        }
        return .object(members)
    }

    /// Who served and why (the same names as `tandem respond --json`).
    static func tandem(servedBy: String, modelVersion: String?, fallback: FallbackRecord) -> JSON {
        var members: JSONMembers = ["servedBy": .string(servedBy)]
        if let modelVersion { members["modelVersion"] = .string(modelVersion) }
        members["fallback"] = [
            "primary": .string(fallback.primaryID), "primaryTried": .bool(fallback.primaryTried),
            "reason": fallback.reason.map { .string($0.name) } ?? .null,
            "detail": fallback.reason.map { .string($0.description) } ?? .null,
        ]
        return .object(members)
    }

    func whole(_ response: Response) -> JSON {
        var message: JSONMembers = ["role": "assistant"]
        message["content"] = response.toolCalls.isEmpty || !response.content.isEmpty ? .string(response.content) : .null
        if !response.toolCalls.isEmpty { message["tool_calls"] = Self.toolCalls(response.toolCalls) }
        return [
            "id": .string(id), "object": "chat.completion", "created": .integer(created),
            "model": .string(response.rawResponse.modelVersion),
            "choices": [[
                "index": 0, "message": .object(message), "logprobs": .null,
                "finish_reason": .string(Self.finishReason(response.rawResponse.finishReason, toolCalls: !response.toolCalls.isEmpty)),
            ]],
            "usage": Self.usage(response.usage),
            "tandem": Self.tandem(servedBy: response.servedBy, modelVersion: response.rawResponse.modelVersion, fallback: response.fallback),
        ]
    }

    /// One stream chunk. Before the end the model version is not known yet (backends report it
    /// with their result), so those chunks name the serving model's id; the last chunk carries
    /// the version and the `tandem` member.
    func chunk(model: String, delta: JSON, finishReason: String? = nil, tandem: JSON? = nil) -> JSON {
        var members: JSONMembers = [
            "id": .string(id), "object": "chat.completion.chunk", "created": .integer(created), "model": .string(model),
            "choices": [["index": 0, "delta": delta, "logprobs": .null, "finish_reason": finishReason.map(JSON.string) ?? .null]],
        ]
        if let tandem { members["tandem"] = tandem }
        return .object(members)
    }

    /// The usage chunk of `stream_options.include_usage`: no choices.
    func usageChunk(model: String, usage: Usage) -> JSON {
        [
            "id": .string(id), "object": "chat.completion.chunk", "created": .integer(created), "model": .string(model),
            "choices": [], "usage": Self.usage(usage),
        ]
    }

    /// One server-sent event carrying `value`.
    static func event(_ value: JSON) -> [UInt8] { Array("data: \(value.jsonText)\n\n".utf8) }
    static let done = Array("data: [DONE]\n\n".utf8)
}
