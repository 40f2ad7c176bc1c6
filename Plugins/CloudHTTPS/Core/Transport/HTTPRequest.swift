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
        HTTPRequest(method: .post, url: url, headers: headers + [("Content-Type", "application/json")], body: json.serializedBytes)
    }

    /// What a message may say about this request: method and path, never the query or headers.
    public var redactedDescription: String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return "\(method.rawValue) \(withoutQuery)"
    }
}

/// The status line and headers of a response (the last one, after any 1xx).
public struct HTTPResponseHead: Sendable {
    public var status: Int
    /// Lower-cased names.
    public var headers: [String: String]

    public init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }

    public var contentType: String {
        (headers["content-type"] ?? "").split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends ("\r\n" is one Character, so
    /// this works on scalars).
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        while let first = scalars.first, blank(first) { scalars.removeFirst() }
        while let last = scalars.last, blank(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
