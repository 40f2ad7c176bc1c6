import JSONModel
import Tandem

/// The JSON shapes `tandem --json` prints. Field names are a contract for scripts.
enum JSONReport {
    static func response(_ response: Response) -> JSONValue {
        .object([
            "text": .string(response.content),
            "modelVersion": .string(response.rawResponse.modelVersion),
            "servedBy": .string(response.servedBy),
            "finishReason": .string(response.rawResponse.finishReason.description),
            "fallback": fallback(response.fallback),
            "usage": .object([
                "promptTokens": .number(Double(response.usage.promptTokens)),
                "outputTokens": .number(Double(response.usage.outputTokens)),
                "thinkingTokens": .number(Double(response.usage.thinkingTokens)),
            ]),
            "toolCalls": .array(response.toolCalls.map(toolCall)),
        ])
    }

    /// A call the model made; `arguments` is the JSON text the model wrote, as OpenAI gives it.
    static func toolCall(_ call: ToolCall) -> JSONValue {
        .object(["id": .string(call.id), "name": .string(call.name), "arguments": .string(call.argumentsJSON)])
    }

    static func fallback(_ record: FallbackRecord) -> JSONValue {
        .object([
            "primary": .string(record.primaryID),
            "primaryTried": .bool(record.primaryTried),
            "reason": record.reason.map { .string($0.name) } ?? .null,
            "detail": record.reason.map { .string($0.description) } ?? .null,
        ])
    }

    static func error(_ error: TandemError) -> JSONObject {
        var object: JSONObject = ["code": .string("\(error.code)"), "message": .string(error.message)]
        if let primary = error.primary { object["primary"] = attempt(primary) }
        if let secondary = error.secondary { object["secondary"] = attempt(secondary) }
        if let failure = error.failure {
            object["status"] = .string(failure.status.name)
            if failure.retryAfterMilliseconds > 0 { object["retryAfterMs"] = .number(Double(failure.retryAfterMilliseconds)) }
        }
        return object
    }

    static func attempt(_ attempt: RoutingAttempt) -> JSONValue {
        .object([
            "backend": .string(attempt.backendID), "reason": .string(attempt.reason.name),
            "detail": .string(attempt.reason.description),
        ])
    }

    static func availability(_ availability: Availability) -> JSONValue {
        switch availability {
        case .available:
            return .object(["available": .bool(true)])
        case .unavailable(let reason, let detail, let progress):
            var object: JSONObject = [
                "available": .bool(false), "reason": .string(reason.name), "detail": .string(detail),
            ]
            if let progress { object["progress"] = .number(progress) }
            return .object(object)
        }
    }

    static func text(_ availability: Availability) -> String {
        switch availability {
        case .available: "available"
        case .unavailable(let reason, let detail, let progress):
            "unavailable (\(reason)\(detail.isEmpty ? "" : ": \(detail)")\(progress.map { ", \(Int($0 * 100))%" } ?? ""))"
        }
    }
}
