import JSONModel
import TandemBridge

/// Reads GenerateContentResponse chunks (one per SSE event, or one whole body): answer text
/// without thought parts, function calls with their thought signatures, usage, modelVersion.
/// The stream has no end marker: its natural end is a chunk with a finishReason, then the close.
struct GeminiResponseDecoder: GenerationDecoder {
    let streamed: Bool
    private var modelVersion = ""
    private var usage: Usage?
    private var finishReason: String?
    private var callCount = 0
    private var sawChunk = false

    init(streamed: Bool) { self.streamed = streamed }

    func isEndMarker(_ event: SSEEvent) -> Bool { false }

    /// Finish reasons that mean a safety or policy filter stopped the answer.
    static let guardrailReasons: Set<String> = [
        "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION",
    ]
    static let malformedReasons: Set<String> = [
        "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MALFORMED_RESPONSE",
    ]

    mutating func decode(_ payload: JSONValue) throws(BackendFailure) -> [BackendEvent] {
        if let envelope = ServerErrorBody(payload) { throw HTTPFailureMapper.failure(inStream: envelope) }
        guard case .object = payload else { throw Wire.decodingFailure("a Gemini response chunk is not a JSON object") }
        sawChunk = true
        if let version = payload["modelVersion"]?.stringValue { modelVersion = version }
        if let metadata = payload["usageMetadata"] {
            usage = Usage(
                promptTokens: metadata["promptTokenCount"]?.integerValue.map(Int.init) ?? 0,
                outputTokens: metadata["candidatesTokenCount"]?.integerValue.map(Int.init) ?? 0,
                thinkingTokens: metadata["thoughtsTokenCount"]?.integerValue.map(Int.init) ?? 0)
        }
        if let block = payload["promptFeedback"]?["blockReason"]?.stringValue {
            let detail = payload["promptFeedback"]?["blockReasonMessage"]?.stringValue.map { ": \(HTTPFailureMapper.clip($0))" } ?? ""
            throw BackendFailure(.guardrail, "the prompt was blocked (\(block))\(detail)")
        }
        guard let candidate = payload["candidates"]?[0] else { return [] }
        var events: [BackendEvent] = []
        for (index, part) in (candidate["content"]?["parts"]?.arrayValue ?? []).enumerated() {
            if let call = part["functionCall"] {
                guard let name = call["name"]?.stringValue, !name.isEmpty else {
                    throw Wire.decodingFailure("functionCall in part \(index) has no name")
                }
                let args = call["args"] ?? [:]
                events.append(.toolCall(ToolCall(
                    id: call["id"]?.stringValue ?? "", name: name, argumentsJSON: args.jsonText,
                    signature: part["thoughtSignature"]?.stringValue ?? "")))
                callCount += 1
            } else if let text = part["text"]?.stringValue, part["thought"]?.boolValue != true, !text.isEmpty {
                events.append(.text(text))
            }
        }
        if let reason = candidate["finishReason"]?.stringValue, !reason.isEmpty {
            finishReason = reason
            if Self.guardrailReasons.contains(reason) {
                let detail = candidate["finishMessage"]?.stringValue.map { ": \(HTTPFailureMapper.clip($0))" } ?? ""
                throw BackendFailure(.guardrail, "the answer was stopped by a safety filter (\(reason))\(detail)")
            }
            if Self.malformedReasons.contains(reason) {
                throw BackendFailure(.decoding, "the model produced an unusable function call (\(reason))")
            }
            if reason == "MISSING_THOUGHT_SIGNATURE" {
                throw BackendFailure(.invalidArgument, "the server says a thought signature was not sent back (\(reason))")
            }
        }
        return events
    }

    var partialOutcome: GenerationOutcome {
        GenerationOutcome(finish: .callback, modelVersion: modelVersion, usage: usage)
    }

    mutating func finish(endMarkerSeen: Bool, strayText: [UInt8]) throws(BackendFailure) -> GenerationOutcome {
        if let failure = Wire.strayFailure(strayText, endedNaturally: finishReason != nil) { throw failure }
        guard let reason = finishReason else {
            if streamed || !sawChunk { throw Wire.cutStream(sawChunk ? "no chunk carried a finishReason" : "no chunk arrived") }
            // A complete non-streamed body without a finishReason: the answer is whole.
            return GenerationOutcome(finish: callCount > 0 ? .toolCalls : .stop, modelVersion: modelVersion, usage: usage)
        }
        let finish: FinishReason
        switch reason {
        case "STOP": finish = callCount > 0 ? .toolCalls : .stop
        case "MAX_TOKENS": finish = .maxTokens
        default:
            throw BackendFailure(.serverError, "the answer ended with finishReason \(HTTPFailureMapper.clip(reason))")
        }
        return GenerationOutcome(finish: finish, modelVersion: modelVersion, usage: usage)
    }
}
