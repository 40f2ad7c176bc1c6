import JSONModel

/// A generated JSON value together with where it sits in the document, so that every decoding
/// error names its path. Also the result type for schemas built at run time.
public struct GeneratedContent: Sendable, Hashable, CustomStringConvertible {
    public let value: JSONValue
    /// Where `value` sits in the generated document.
    public let path: JSONPath

    public init(_ value: JSONValue, path: JSONPath = .root) {
        self.value = value
        self.path = path
    }

    /// Parses a whole document (errors: `.syntax`, `.truncated`).
    public init(json text: String) throws {
        self.init(try JSONValue(parsingDocument: text))
    }

    /// Parses a whole document and validates it against `schema` (errors: `.syntax`,
    /// `.truncated`, `.validationFailed`).
    public init(json text: String, schema: GenerationSchema) throws {
        let value = try JSONValue(parsingDocument: text)
        try schema.validate(value)
        self.init(value)
    }

    public var description: String { value.jsonText }
    public var jsonText: String { value.jsonText }

    private func failure(_ message: String) -> GuidedJSONError {
        GuidedJSONError(.decodingFailure, message, path: path)
    }

    public var isNull: Bool { value == .null }

    public func string() throws -> String {
        guard case .string(let string) = value else { throw failure("expected a string, found \(value.typeName)") }
        return string
    }

    public func integer() throws -> Int {
        guard let integer = value.integerValue, let result = Int(exactly: integer) else {
            throw failure("expected an integer, found \(value.jsonText)")
        }
        return result
    }

    public func double() throws -> Double {
        guard let number = value.numberValue else { throw failure("expected a number, found \(value.typeName)") }
        return number
    }

    public func bool() throws -> Bool {
        guard case .bool(let bool) = value else { throw failure("expected a boolean, found \(value.typeName)") }
        return bool
    }

    /// The elements of an array, each with its own path.
    public func elements() throws -> [GeneratedContent] {
        guard case .array(let elements) = value else { throw failure("expected an array, found \(value.typeName)") }
        return elements.enumerated().map { GeneratedContent($1, path: path.appending(index: $0)) }
    }

    /// Property `name` of an object; nil when the object does not have it.
    public func property(_ name: String) throws -> GeneratedContent? {
        guard case .object(let object) = value else { throw failure("expected an object, found \(value.typeName)") }
        return object[name].map { GeneratedContent($0, path: path.appending(key: name)) }
    }

    /// Decodes property `name` as `Value`. A missing property decodes as nil for optional types
    /// and is an error for the rest.
    public func value<Value: Generable>(_ type: Value.Type = Value.self, forProperty name: String) throws -> Value {
        if let member = try property(name) { return try Value(member) }
        guard type is any OptionalGenerable.Type else { throw failure("missing property \"\(name)\"") }
        return try Value(GeneratedContent(.null, path: path.appending(key: name)))
    }

    /// Decodes this whole value as `Value`.
    public func value<Value: Generable>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(self)
    }
}
