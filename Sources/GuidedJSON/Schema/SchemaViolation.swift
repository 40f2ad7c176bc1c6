import JSONModel

/// One way a document fails its schema: where (`path` into the document) and what.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    public var path: JSONPath
    public var message: String

    public init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
