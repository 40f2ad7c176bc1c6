/// An OpenAI-shaped error: `{"error": {"message", "type", "code", "param"}}` with its HTTP
/// status, and the extra headers some need (`Retry-After`). Every message names what was wrong
/// and where (the request field's path).
struct APIError: Error, Sendable {
    var status: Int
    /// OpenAI's error classes: `invalid_request_error`, `authentication_error`, `not_found_error`,
    /// `rate_limit_error`, `server_error`, `timeout_error`.
    var type: String
    var code: String
    var message: String
    /// The request field at fault (`messages[3].role`), when one is.
    var param: String?
    var headers: [(name: String, value: String)] = []
    /// Extra members of the error object (`tandem`: each side's reason for a 503).
    var details: JSON?

    static func invalid(_ param: String?, _ message: String, code: String = "invalid_value") -> APIError {
        APIError(status: 400, type: "invalid_request_error", code: code, message: message, param: param)
    }

    var body: JSON {
        var error: JSONMembers = ["message": .string(message), "type": .string(type), "code": .string(code)]
        error["param"] = param.map(JSON.string) ?? .null
        if let details { error["tandem"] = details }
        return ["error": .object(error)]
    }
}
