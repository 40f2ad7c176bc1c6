/// A Swift type that a model can generate: it declares its schema and decodes itself from the
/// generated content. No macros: write the schema with the builders and the decoder with the
/// typed accessors of `GeneratedContent`.
///
///     struct Cat: Generable {
///         var name: String
///         var age: Int
///         var mood: Mood               // enum Mood: String, CaseIterable, Generable
///         var toys: [String]
///         var nickname: String?
///
///         static var generationSchema: GenerationSchema {
///             .object(description: "A cat", properties: [
///                 .property("name", .string(maxLength: 20)),
///                 .property("age", description: "Age in years", .integer(in: 0...25)),
///                 .property("mood", Mood.self),
///                 .property("toys", .array(of: .string(), maxItems: 3)),
///                 .property("nickname", String?.self),     // optional property
///             ])
///         }
///
///         init(_ content: GeneratedContent) throws {
///             name = try content.value(forProperty: "name")
///             age = try content.value(forProperty: "age")
///             mood = try content.value(forProperty: "mood")
///             toys = try content.value(forProperty: "toys")
///             nickname = try content.value(forProperty: "nickname")
///         }
///     }
public protocol Generable {
    static var generationSchema: GenerationSchema { get }

    /// Decodes from content that conforms to `generationSchema`. Throws `GuidedJSONError`
    /// (`.decodingFailure` with the path) when it does not.
    init(_ content: GeneratedContent) throws
}

extension Generable {
    /// Parses generated JSON text, validates it against `generationSchema` and decodes it.
    /// Throws `GuidedJSONError`: `.syntax` or `.truncated` (with the byte offset) for text that is
    /// not a whole JSON document, `.validationFailed` (with every violation's path) for a document
    /// that does not conform, `.decodingFailure` when the initialiser rejects it. A host reports all
    /// of them as the ABI's decodingFailure, with this error's description as the reason.
    public init(generatedJSON text: String) throws {
        try self.init(GeneratedContent(json: text, schema: Self.generationSchema))
    }
}

/// Lets `.property(_:_:)` recognise optional types: they make optional properties.
protocol OptionalGenerable {
    static var wrappedGenerationSchema: GenerationSchema { get }
}
