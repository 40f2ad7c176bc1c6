import Glibc
import JSONModel
import TandemBridge

/// Turns a non-200 answer (or an error object inside a stream) into the ABI's status codes.
public enum HTTPFailureMapper {
    /// Longest server message quoted in an error.
    static let messageLimit = 300

    public static func failure(status: Int, headers: [String: String], body: [UInt8]) -> BackendFailure {
        let json = try? JSONValue(parsing: body, keepingNumberText: true)
        let envelope = json.flatMap { ServerErrorBody($0) }
        var failure = map(status: status, envelope: envelope, headers: headers, rawBody: envelope == nil ? body : nil)
        failure.httpStatus = Int32(clamping: status)
        return failure
    }

    /// An error object that arrived as a stream event: its own `code` stands in for the status.
    public static func failure(inStream envelope: ServerErrorBody) -> BackendFailure {
        let status = envelope.code ?? statusFromName(envelope.status)
        var failure = map(status: status, envelope: envelope, headers: [:], rawBody: nil)
        failure.httpStatus = Int32(clamping: status)
        failure.message = "error inside the stream: " + failure.message
        return failure
    }

    static func statusFromName(_ name: String) -> Int {
        switch name {
        case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "invalid_request_error": 400
        case "UNAUTHENTICATED", "authentication_error": 401
        case "PERMISSION_DENIED": 403
        case "NOT_FOUND": 404
        case "RESOURCE_EXHAUSTED", "rate_limit_exceeded", "tokens", "requests", "insufficient_quota": 429
        case "UNAVAILABLE", "service_unavailable_error": 503
        case "DEADLINE_EXCEEDED": 504
        default: 500
        }
    }

    private static func map(status: Int, envelope: ServerErrorBody?, headers: [String: String], rawBody: [UInt8]?) -> BackendFailure {
        let summary = describe(status: status, envelope: envelope, rawBody: rawBody)
        let reason = envelope?.reason ?? ""
        let type = envelope?.status ?? ""
        let message = envelope?.message.lowercased() ?? ""
        if reason == "insufficient_quota" || type == "insufficient_quota" {
            return BackendFailure(.quotaExceeded, "account quota exhausted; retrying will not help: \(summary)")
        }
        if reason == "context_length_exceeded" || message.contains("exceeds the maximum number of tokens")
            || message.contains("maximum context length") {
            return BackendFailure(.exceededContextWindowSize, "the prompt does not fit the model's context: \(summary)")
        }
        switch status {
        case 400 where reason == "API_KEY_INVALID" || message.contains("api key not valid"):
            return BackendFailure(.auth, "the API key was rejected: \(summary)")
        case 401, 403:
            return BackendFailure(.auth, "credentials missing or rejected: \(summary)")
        case 404:
            return BackendFailure(.modelNotFound, "model or endpoint not found: \(summary)")
        case 408:
            return BackendFailure(.timeout, "the server timed out the request: \(summary)")
        case 429:
            var failure = BackendFailure(.rateLimited, "rate limited: \(summary)")
            failure.retryAfterMilliseconds = retryAfter(headers: headers, envelope: envelope) ?? 0
            return failure
        case 500...599:
            var failure = BackendFailure(.serverError, "server error: \(summary)")
            failure.retryAfterMilliseconds = retryAfter(headers: headers, envelope: nil) ?? 0
            return failure
        default:
            return BackendFailure(.invalidArgument, "request rejected: \(summary)")
        }
    }

    /// `retry-after-ms`, then `Retry-After` (seconds or an HTTP-date), then Gemini's `RetryInfo`.
    /// A per-day quota gives no useful delay: it is reported without one, so it is not retried.
    static func retryAfter(headers: [String: String], envelope: ServerErrorBody?, now: Double = wallClockSeconds()) -> UInt64? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingSpaces()) }), ms > 0 { return UInt64(ms.rounded(.up)) }
        if let value = headers["retry-after"]?.trimmingSpaces() {
            if let seconds = Double(value), seconds > 0 { return UInt64((seconds * 1000).rounded(.up)) }
            // A date already past asks for no wait: 1 ms, since 0 means "no delay given".
            if let date = HTTPDate.seconds(value) { return UInt64(max(1, ((date - now) * 1000).rounded(.up))) }
        }
        if let envelope, envelope.quotaIds.contains(where: { $0.contains("PerDay") }) { return nil }
        return envelope?.retryDelayMilliseconds
    }

    static func wallClockSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func describe(status: Int, envelope: ServerErrorBody?, rawBody: [UInt8]?) -> String {
        var parts = ["HTTP \(status)"]
        if let envelope {
            if !envelope.status.isEmpty { parts.append(envelope.status) }
            if !envelope.reason.isEmpty && envelope.reason != envelope.status { parts.append(envelope.reason) }
            if !envelope.message.isEmpty { parts.append(clip(envelope.message)) }
        } else if let rawBody, !rawBody.isEmpty {
            parts.append("(body is not a JSON error: \(clip(String(decoding: rawBody.prefix(messageLimit * 4), as: UTF8.self))))")
        }
        return parts.joined(separator: " ")
    }

    /// A printable, bounded excerpt of server text.
    static func clip(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return printable.count <= messageLimit ? printable : String(printable.prefix(messageLimit)) + "…"
    }
}
