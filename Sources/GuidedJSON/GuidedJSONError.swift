import JSONModel

/// The one error type of this module. `code` says what kind of problem it is; `path` (a JSON path
/// into the document or schema) and `byteOffset` (into the parsed text) say where.
public struct GuidedJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The text is not JSON (or not UTF-8); `byteOffset` points at the offending byte.
        case syntax
        /// The text is a valid prefix of a JSON document but ends too early.
        case truncated
        /// The schema uses a JSON Schema keyword or construct this module cannot express or enforce.
        case unsupportedGuide
        /// The schema is malformed (wrong keyword types, unknown required property, dangling `$ref`).
        case invalidSchema
        /// A `$ref` refers back to itself, directly or through other references.
        case refCycle
        /// The schema nests deeper than `GenerationSchema.maximumDepth`.
        case schemaTooDeep
        /// A document does not conform to its schema; `violations` lists every problem.
        case validationFailed
        /// Generated content could not be decoded into the requested Swift type.
        case decodingFailure
        /// A decoder offered guided decoding a token the mask did not allow.
        case tokenNotAllowed
        /// A vocabulary given to guided decoding is unusable (no end token, ids out of range).
        case invalidVocabulary
    }

    public var code: Code
    public var message: String
    public var path: JSONPath?
    public var byteOffset: Int?
    public var violations: [SchemaViolation]

    public init(
        _ code: Code, _ message: String, path: JSONPath? = nil, byteOffset: Int? = nil,
        violations: [SchemaViolation] = []
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.byteOffset = byteOffset
        self.violations = violations
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let path { text += " at \(path)" }
        if let byteOffset { text += " (byte \(byteOffset))" }
        return text
    }
}

extension GuidedJSONError {
    /// A parse error of the JSON model as this module reports it: same code, message and offset.
    public init(_ error: JSONParseError) {
        self.init(error.code == .syntax ? .syntax : .truncated, error.message, byteOffset: error.byteOffset)
    }
}

extension JSONValue {
    /// Parses a whole document, reporting a bad one as `GuidedJSONError` (`.syntax`, `.truncated`).
    init(parsingDocument text: String) throws(GuidedJSONError) {
        do { self = try JSONValue(parsing: text) } catch { throw GuidedJSONError(error) }
    }
}
