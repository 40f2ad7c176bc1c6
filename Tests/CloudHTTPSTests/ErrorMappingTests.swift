@testable import CloudHTTPSCore
import TandemBridge
import Testing

@Suite struct ErrorMappingTests {
    static func failure(_ status: Int, _ body: String, _ headers: [String: String] = [:]) -> BackendFailure {
        HTTPFailureMapper.failure(status: status, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: [
        (400, #"{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}"#, BackendStatus.invalidArgument),
        (400, #"{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}"#, .auth),
        (403, #"{"error":{"code":403,"message":"Method doesn't allow unregistered callers","status":"PERMISSION_DENIED"}}"#, .auth),
        (401, #"{"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#, .auth),
        (404, #"{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}"#, .modelNotFound),
        (404, #"{"error":{"message":"no model","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#, .modelNotFound),
        (429, #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#, .quotaExceeded),
        (429, #"{"error":{"code":429,"message":"exhausted","status":"RESOURCE_EXHAUSTED"}}"#, .rateLimited),
        (500, #"{"error":{"code":500,"message":"internal","status":"INTERNAL"}}"#, .serverError),
        (503, #"{"error":{"message":"overloaded","type":"service_unavailable_error","param":null,"code":"server_is_overloaded"}}"#, .serverError),
        (504, "", .serverError),
        (502, "<html>bad gateway</html>", .serverError),
        (400, #"[{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}]"#, .invalidArgument),
        (400, #"{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#, .exceededContextWindowSize),
        (422, #"{"error":"bad field"}"#, .invalidArgument),
    ])
    func statusAndBodyMapToTheABICode(status: Int, body: String, expected: BackendStatus) {
        let failure = Self.failure(status, body)
        #expect(failure.status == expected, "\(status) \(body): \(failure)")
        #expect(failure.httpStatus == Int32(status))
        #expect(failure.message.contains("HTTP \(status)"))
    }

    @Test func retryDelayComesFromHeadersOrRetryInfo() {
        let gemini = #"{"error":{"code":429,"message":"x","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"17s"}]}}"#
        #expect(Self.failure(429, gemini).retryAfterMilliseconds == 17_000)
        let fractional = gemini.replacingOccurrences(of: "17s", with: "0.5s")
        #expect(Self.failure(429, fractional).retryAfterMilliseconds == 500)
        #expect(Self.failure(429, "{}", ["retry-after": "3"]).retryAfterMilliseconds == 3_000)
        #expect(Self.failure(429, "{}", ["retry-after-ms": "250", "retry-after": "3"]).retryAfterMilliseconds == 250)
        #expect(Self.failure(429, "{}").retryAfterMilliseconds == 0)
        // An HTTP-date in each of the three forms a recipient must read; one in the past asks for no wait.
        let now = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT
        for date in ["Sun, 06 Nov 1994 08:49:39 GMT", "Sunday, 06-Nov-94 08:49:39 GMT", "Sun Nov  6 08:49:39 1994"] {
            #expect(HTTPFailureMapper.retryAfter(headers: ["retry-after": date], envelope: nil, now: now) == 2_000, "\(date)")
        }
        #expect(HTTPFailureMapper.retryAfter(headers: ["retry-after": "Sun, 06 Nov 1994 08:49:30 GMT"], envelope: nil, now: now) == 1)
        #expect(HTTPFailureMapper.retryAfter(headers: ["retry-after": "soon"], envelope: nil, now: now) == nil)
        // 5xx carry the server's delay too; 4xx other than 429 do not.
        #expect(Self.failure(503, "{}", ["retry-after": "2"]).retryAfterMilliseconds == 2_000)
        #expect(Self.failure(500, "{}", ["retry-after": "Sun, 06 Nov 1994 08:49:39 GMT"]).retryAfterMilliseconds > 0)
        #expect(Self.failure(400, "{}", ["retry-after": "2"]).retryAfterMilliseconds == 0)
        let perDay = #"{"error":{"code":429,"message":"x","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"40s"}]}}"#
        #expect(Self.failure(429, perDay).retryAfterMilliseconds == 0)
    }

    @Test func longServerMessagesAreClipped() {
        let failure = Self.failure(500, "{\"error\":{\"message\":\"" + String(repeating: "a", count: 5000) + "\"}}")
        #expect(failure.message.count < 400)
    }
}
