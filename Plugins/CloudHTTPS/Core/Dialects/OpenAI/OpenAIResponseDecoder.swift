import JSONModel
import TandemBridge

/// Reads chat.completion chunks (streamed deltas ending with `data: [DONE]`) or a whole
/// chat.completion. Tool-call fragments are joined by index and delivered once the choice
/// finishes; a refusal is an error; extra fields and a missing usage are tolerated.
struct OpenAIResponseDecoder: GenerationDecoder {
    let streamed: Bool
    private var modelVersion = ""
    private var usage: Usage?
    private var finishReason: String?
    private var refusal = ""
    private var calls: [Int: PendingCall] = [:]
    private var deliveredCalls = 0

    private struct PendingCall {
        var id = ""
        var name = ""
        var arguments = ""
    }

    init(streamed: Bool) { self.streamed = streamed }

    func isEndMarker(_ event: SSEEvent) -> Bool { event.data == Array("[DONE]".utf8) }

    mutating func decode(_ payload: JSONValue) throws(BackendFailure) -> [BackendEvent] {
        if let envelope = ServerErrorBody(payload) { throw HTTPFailureMapper.failure(inStream: envelope) }
        guard case .object = payload else { throw Wire.decodingFailure("a chat completion chunk is not a JSON object") }
        if let model = payload["model"]?.stringValue, !model.isEmpty { modelVersion = model }
        if let u = payload["usage"], case .object = u {
            let completion = u["completion_tokens"]?.integerValue.map(Int.init) ?? 0
            let reasoning = u["completion_tokens_details"]?["reasoning_tokens"]?.integerValue.map(Int.init) ?? 0
            usage = Usage(promptTokens: u["prompt_tokens"]?.integerValue.map(Int.init) ?? 0, outputTokens: max(0, completion - reasoning), thinkingTokens: reasoning)
        }
        guard let choice = payload["choices"]?[0] else { return [] }
        var events: [BackendEvent] = []
        // A streamed chunk carries `delta`; a whole completion carries `message`.
        let body = choice["delta"] ?? choice["message"] ?? [:]
        if let text = body["content"]?.stringValue, !text.isEmpty { events.append(.text(text)) }
        if let text = body["refusal"]?.stringValue { refusal += text }
        for (position, fragment) in (body["tool_calls"]?.arrayValue ?? []).enumerated() {
            let index = fragment["index"]?.integerValue.map(Int.init) ?? position
            var call = calls[index] ?? PendingCall()
            if let id = fragment["id"]?.stringValue, !id.isEmpty { call.id = id }
            // OpenAI sends the name once; some compatible servers repeat it on every fragment.
            if let name = fragment["function"]?["name"]?.stringValue, !name.isEmpty, name != call.name { call.name += name }
            if let arguments = fragment["function"]?["arguments"]?.stringValue { call.arguments += arguments }
            calls[index] = call
        }
        if let reason = choice["finish_reason"]?.stringValue {
            finishReason = reason
            events += try flushCalls()
            if !refusal.isEmpty { throw BackendFailure(.refusal, "the model refused: \(HTTPFailureMapper.clip(refusal))") }
            if reason == "content_filter" { throw BackendFailure(.guardrail, "the answer was stopped by a content filter (content_filter)") }
        }
        return events
    }

    /// Completed calls in index order; arguments must be one JSON object.
    private mutating func flushCalls() throws(BackendFailure) -> [BackendEvent] {
        var events: [BackendEvent] = []
        for index in calls.keys.sorted() {
            let call = calls[index]!
            guard !call.name.isEmpty else { throw Wire.decodingFailure("tool call \(index) has no function name") }
            let arguments = call.arguments.isEmpty ? "{}" : call.arguments
            guard let parsed = try? JSONValue(parsing: arguments, keepingNumberText: true), case .object = parsed else {
                throw Wire.decodingFailure("tool call \(index) (\(call.name)) arguments are not one JSON object")
            }
            events.append(.toolCall(ToolCall(id: call.id, name: call.name, argumentsJSON: arguments)))
            deliveredCalls += 1
        }
        calls = [:]
        return events
    }

    var partialOutcome: GenerationOutcome {
        GenerationOutcome(finish: .callback, modelVersion: modelVersion, usage: usage)
    }

    mutating func finish(endMarkerSeen: Bool, strayText: [UInt8]) throws(BackendFailure) -> GenerationOutcome {
        let endedNaturally = finishReason != nil && (endMarkerSeen || !streamed)
        if let failure = Wire.strayFailure(strayText, endedNaturally: endedNaturally) { throw failure }
        if streamed && !endMarkerSeen {
            throw Wire.cutStream(finishReason == nil ? "no chunk carried a finish_reason" : "no [DONE] after the last chunk")
        }
        guard let reason = finishReason else {
            throw streamed ? Wire.cutStream("[DONE] came before any finish_reason") : Wire.decodingFailure("the completion has no choices[0].finish_reason")
        }
        let finish: FinishReason
        switch reason {
        case "stop": finish = deliveredCalls > 0 ? .toolCalls : .stop
        case "length": finish = .maxTokens
        case "tool_calls", "function_call": finish = .toolCalls
        default: throw BackendFailure(.serverError, "the answer ended with finish_reason \(HTTPFailureMapper.clip(reason))")
        }
        return GenerationOutcome(finish: finish, modelVersion: modelVersion, usage: usage)
    }
}
