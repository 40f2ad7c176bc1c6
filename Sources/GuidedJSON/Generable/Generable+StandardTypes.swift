// Conformances for the standard types, so that schemas and decoders compose.

extension String: Generable {
    public static var generationSchema: GenerationSchema { .string() }
    public init(_ content: GeneratedContent) throws { self = try content.string() }
}

extension Int: Generable {
    public static var generationSchema: GenerationSchema { .integer() }
    public init(_ content: GeneratedContent) throws { self = try content.integer() }
}

extension Double: Generable {
    public static var generationSchema: GenerationSchema { .number() }
    public init(_ content: GeneratedContent) throws { self = try content.double() }
}

extension Bool: Generable {
    public static var generationSchema: GenerationSchema { .boolean() }
    public init(_ content: GeneratedContent) throws { self = try content.bool() }
}

extension Array: Generable where Element: Generable {
    public static var generationSchema: GenerationSchema { .array(of: Element.generationSchema) }
    public init(_ content: GeneratedContent) throws { self = try content.elements().map(Element.init) }
}

/// Standing alone, an optional is its wrapped schema or null; as a property (`.property(_:_:)`)
/// it is an optional property with the wrapped schema.
extension Optional: Generable where Wrapped: Generable {
    public static var generationSchema: GenerationSchema { .anyOf([Wrapped.generationSchema, .null]) }
    public init(_ content: GeneratedContent) throws { self = content.isNull ? nil : try Wrapped(content) }
}

extension Optional: OptionalGenerable where Wrapped: Generable {
    static var wrappedGenerationSchema: GenerationSchema { Wrapped.generationSchema }
}

/// Swift enums with string raw values get a schema and decoder for free:
/// `enum Mood: String, CaseIterable, Generable { case happy, grumpy }`.
extension Generable where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static var generationSchema: GenerationSchema { .string(anyOf: allCases.map(\.rawValue)) }

    public init(_ content: GeneratedContent) throws {
        let raw = try content.string()
        guard let value = Self(rawValue: raw) else {
            throw GuidedJSONError(.decodingFailure, "\"\(raw)\" is not a case of \(Self.self)", path: content.path)
        }
        self = value
    }
}
