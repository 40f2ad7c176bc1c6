import JSONModel

/// An error envelope as either protocol writes it, decoded leniently:
/// Gemini's google.rpc.Status `{"error":{code,message,status,details}}`, OpenAI's
/// `{"error":{message,type,param,code}}`, and the array-wrapped `[{"error":{…}}]` that Gemini's
/// OpenAI-compatible endpoint and some servers send.
public struct ServerErrorBody: Hashable, Sendable {
    public var code: Int?
    public var message: String
    /// Gemini's canonical status (`RESOURCE_EXHAUSTED`) or OpenAI's `type`.
    public var status: String
    /// OpenAI's `code` (`insufficient_quota`), or Gemini's `ErrorInfo.reason` (`API_KEY_INVALID`).
    public var reason: String
    /// Gemini `RetryInfo.retryDelay`, in milliseconds.
    public var retryDelayMilliseconds: UInt64?
    /// Gemini `QuotaFailure` quota ids (`…PerDay…`).
    public var quotaIds: [String]

    /// Nil when `json` is not an error envelope.
    public init?(_ json: JSONValue) {
        var root = json
        if case .array(let items) = json, let first = items.first { root = first }
        guard let error = root["error"] else { return nil }
        if let text = error.stringValue {  // {"error": "text"} (some compatible servers)
            self.init(code: nil, message: text, status: "", reason: "", retryDelayMilliseconds: nil, quotaIds: [])
            return
        }
        guard case .object = error else { return nil }
        var reason = error["code"]?.stringValue ?? ""
        var retryDelay: UInt64?
        var quotaIds: [String] = []
        for detail in error["details"]?.arrayValue ?? [] {
            let type = detail["@type"]?.stringValue ?? ""
            if type.hasSuffix("google.rpc.ErrorInfo"), let r = detail["reason"]?.stringValue, reason.isEmpty { reason = r }
            if type.hasSuffix("google.rpc.RetryInfo"), let delay = detail["retryDelay"]?.stringValue {
                retryDelay = Self.durationMilliseconds(delay)
            }
            if type.hasSuffix("google.rpc.QuotaFailure") {
                quotaIds += (detail["violations"]?.arrayValue ?? []).compactMap { $0["quotaId"]?.stringValue }
            }
        }
        self.init(
            code: error["code"]?.integerValue.map(Int.init), message: error["message"]?.stringValue ?? "",
            status: error["status"]?.stringValue ?? error["type"]?.stringValue ?? "", reason: reason,
            retryDelayMilliseconds: retryDelay, quotaIds: quotaIds)
    }

    init(code: Int?, message: String, status: String, reason: String, retryDelayMilliseconds: UInt64?, quotaIds: [String]) {
        self.code = code
        self.message = message
        self.status = status
        self.reason = reason
        self.retryDelayMilliseconds = retryDelayMilliseconds
        self.quotaIds = quotaIds
    }

    /// A protobuf Duration in JSON (`"17s"`, `"0.5s"`).
    static func durationMilliseconds(_ text: String) -> UInt64? {
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds >= 0, seconds < 1e9 else { return nil }
        return UInt64((seconds * 1000).rounded(.up))
    }
}
