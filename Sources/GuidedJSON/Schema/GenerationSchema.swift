import JSONModel

/// The shape of a generated JSON document: what a `Generable` type declares, what the host
/// validates, what the cloud dialects receive as JSON Schema and what the local runner compiles
/// into a decoding automaton.
///
/// Build one with the static factories (`.object`, `.string`, `.integer`, ...), from a Swift type
/// (`Cat.generationSchema`), or from JSON Schema text (`GenerationSchema(jsonSchema:)`).
/// Objects are closed (no other properties) and their properties are generated in declaration
/// order. Descriptions are guides for the model; they do not constrain validation.
public struct GenerationSchema: Sendable, Hashable {
    /// Schemas nest at most this many levels (objects, arrays and alternatives); deeper ones are
    /// rejected with `.schemaTooDeep`.
    public static let maximumDepth = 16
    /// Schemas expand (with every `$ref` use counted again) to at most this many nested schemas;
    /// larger ones are rejected with `.schemaTooDeep` too.
    public static let maximumSize = 10_000

    public indirect enum Kind: Sendable, Hashable {
        case string(StringGuides)
        /// Bounds are inclusive.
        case integer(minimum: Int64?, maximum: Int64?)
        /// Bounds are inclusive.
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case null
        case array(items: GenerationSchema, minItems: Int?, maxItems: Int?)
        case object(properties: [Property])
        /// The value matches at least one alternative.
        case anyOf([GenerationSchema])
    }

    public struct StringGuides: Sendable, Hashable {
        /// The only strings allowed, when set.
        public var choices: [String]?
        /// A regular expression the string must contain a match for (JSON Schema semantics:
        /// unanchored unless the pattern uses ^ and $).
        public var pattern: String?
        /// Bounds on the number of Unicode scalars, inclusive.
        public var minLength: Int?
        public var maxLength: Int?

        public init(choices: [String]? = nil, pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil) {
            self.choices = choices
            self.pattern = pattern
            self.minLength = minLength
            self.maxLength = maxLength
        }
    }

    public struct Property: Sendable, Hashable {
        public var name: String
        public var schema: GenerationSchema
        /// Optional properties may be left out of the document; they are never `null` unless
        /// their schema allows it.
        public var isRequired: Bool

        public init(name: String, schema: GenerationSchema, isRequired: Bool = true) {
            self.name = name
            self.schema = schema
            self.isRequired = isRequired
        }
    }

    public var kind: Kind
    /// A guide for the model: what the value means. Sent to backends, never validated.
    public var description: String?

    public init(_ kind: Kind, description: String? = nil) {
        self.kind = kind
        self.description = description
    }

    /// Checks that the schema is internally consistent (bounds in order, property names unique,
    /// choices and alternatives non-empty, patterns compile, depth within `maximumDepth`).
    /// Schemas read from JSON Schema text are checked already; call this on hand-built ones
    /// before use (guided decoding and `JSONSchemaWriter` do).
    public func check() throws {
        var size = 0
        try check(at: .root, depth: 1, size: &size)
    }

    private func check(at path: JSONPath, depth: Int, size: inout Int) throws {
        guard depth <= Self.maximumDepth else {
            throw GuidedJSONError(.schemaTooDeep, "the schema nests deeper than \(Self.maximumDepth) levels", path: path)
        }
        size += 1
        guard size <= Self.maximumSize else {
            throw GuidedJSONError(.schemaTooDeep, "the schema has more than \(Self.maximumSize) nested schemas", path: path)
        }
        func invalid(_ message: String) -> GuidedJSONError {
            GuidedJSONError(.invalidSchema, message, path: path)
        }
        switch kind {
        case .string(let guides):
            if let minLength = guides.minLength, minLength < 0 { throw invalid("minLength is negative") }
            if let maxLength = guides.maxLength, maxLength < 0 { throw invalid("maxLength is negative") }
            if let minLength = guides.minLength, let maxLength = guides.maxLength, minLength > maxLength {
                throw invalid("minLength \(minLength) exceeds maxLength \(maxLength)")
            }
            if let choices = guides.choices {
                if choices.isEmpty { throw invalid("enum has no values") }
                if Set(choices).count != choices.count { throw invalid("enum repeats a value") }
                let outOfBounds = choices.first {
                    $0.unicodeScalars.count < (guides.minLength ?? 0) || $0.unicodeScalars.count > (guides.maxLength ?? .max)
                }
                if let outOfBounds { throw invalid("enum value \(JSONValue.string(outOfBounds).jsonText) is outside the length bounds") }
            }
            if let pattern = guides.pattern { _ = try StringPattern(pattern, at: path) }
        case .integer(let minimum, let maximum):
            if let minimum, let maximum, minimum > maximum { throw invalid("minimum \(minimum) exceeds maximum \(maximum)") }
        case .number(let minimum, let maximum):
            if let minimum, !minimum.isFinite { throw invalid("minimum is not finite") }
            if let maximum, !maximum.isFinite { throw invalid("maximum is not finite") }
            if let minimum, let maximum, minimum > maximum { throw invalid("minimum \(minimum) exceeds maximum \(maximum)") }
        case .boolean, .null:
            break
        case .array(let items, let minItems, let maxItems):
            if let minItems, minItems < 0 { throw invalid("minItems is negative") }
            if let maxItems, maxItems < 0 { throw invalid("maxItems is negative") }
            if let minItems, let maxItems, minItems > maxItems { throw invalid("minItems \(minItems) exceeds maxItems \(maxItems)") }
            try items.check(at: path.appending(key: "items"), depth: depth + 1, size: &size)
        case .object(let properties):
            var seen = Set<String>()
            for property in properties {
                guard seen.insert(property.name).inserted else { throw invalid("property \"\(property.name)\" is declared twice") }
                try property.schema.check(at: path.appending(key: "properties").appending(key: property.name), depth: depth + 1, size: &size)
            }
        case .anyOf(let alternatives):
            if alternatives.isEmpty { throw invalid("anyOf has no alternatives") }
            for (index, alternative) in alternatives.enumerated() {
                try alternative.check(at: path.appending(key: "anyOf").appending(index: index), depth: depth + 1, size: &size)
            }
        }
    }
}
