import JSONModel

/// One HTTP request as the dialects build it. `headers` may hold the credential; the request is
/// never logged or put into an error message.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?

    public init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A JSON POST.
    public static func post(_ url: String, json: JSONValue, headers: [(name: String, value: String)]) -> HTTPRequest {
        HTTPRequest(method: .post, url: url, headers: headers + [("Content-Type", "application/json")], body: json.jsonBytes)
    }

    /// What a message may say about this request: method and path, never the query or headers.
    public var redactedDescription: String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return "\(method.rawValue) \(withoutQuery)"
    }
}
