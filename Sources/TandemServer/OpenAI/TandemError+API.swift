import Tandem

extension APIError {
    /// The HTTP answer to a router error: 503 when no model may serve (with each side's reason),
    /// 429 for a full queue or a rate limit (with Retry-After), 504 for a deadline, 400 for what
    /// the request asked wrongly, 502 for a backend that failed.
    init(_ error: TandemError, retryAfterSeconds: Int) {
        let failure = error.failure ?? Self.sideFailure(error)
        switch error.code {
        case .invalidOptions, .emptyPrompt:
            self = .invalid(nil, error.message)
        case .unsupportedGuide:
            self = .invalid("response_format", error.description, code: "unsupported_schema")
        case .unsupportedRequest:
            self = APIError(status: 400, type: "invalid_request_error", code: "unsupported_request", message: error.message, param: nil)
        case .timeout:
            self = APIError(status: 504, type: "timeout_error", code: "timeout", message: error.message, param: nil)
        case .decodingFailure:
            self = APIError(status: 502, type: "server_error", code: "decoding_failure", message: error.guided.map { "\(error.message): \($0)" } ?? error.message, param: nil)
        case _ where failure?.status == .concurrentRequests || failure?.status == .rateLimited:
            let delay = failure.map { $0.retryAfterMilliseconds > 0 ? Int(($0.retryAfterMilliseconds + 999) / 1000) : retryAfterSeconds } ?? retryAfterSeconds
            self = APIError(status: 429, type: "rate_limit_error", code: failure?.status == .rateLimited ? "rate_limited" : "queue_full",
                            message: error.message, param: nil, headers: [("Retry-After", String(delay))])
        case .unavailable:
            self = APIError(status: 503, type: "server_error", code: "unavailable", message: error.message, param: nil)
        case .backendFailure where failure?.status == .exceededContextWindowSize:
            self = .invalid("messages", error.message, code: "context_length_exceeded")
        case .backendFailure where failure?.status == .guardrail || failure?.status == .refusal:
            self = .invalid(nil, error.message, code: failure!.status == .guardrail ? "content_filter" : "refusal")
        case .backendFailure where failure?.status == .offline || failure?.status == .unavailable:
            self = APIError(status: 503, type: "server_error", code: "unavailable", message: error.message, param: nil)
        default:
            self = APIError(status: 502, type: "server_error", code: failure.map { $0.status.name } ?? "\(error.code)", message: error.message, param: nil)
        }
        var sides: JSONMembers = ["code": .string("\(error.code)")]
        if let primary = error.primary { sides["primary"] = Self.attempt(primary) }
        if let secondary = error.secondary { sides["secondary"] = Self.attempt(secondary) }
        details = .object(sides)
    }

    /// The failure behind a routing error, when a side failed (the secondary's first: it decided).
    private static func sideFailure(_ error: TandemError) -> BackendFailure? {
        for attempt in [error.secondary, error.primary].compactMap({ $0 }) {
            if case .failed(let failure) = attempt.reason { return failure }
        }
        return nil
    }

    private static func attempt(_ attempt: RoutingAttempt) -> JSON {
        ["backend": .string(attempt.backendID), "reason": .string(attempt.reason.name), "detail": .string(attempt.reason.description)]
    }
}
