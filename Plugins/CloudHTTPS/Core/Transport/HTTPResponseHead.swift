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
