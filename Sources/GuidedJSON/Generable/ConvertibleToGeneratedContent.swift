/// A Swift value that can be written as generated content: how a tool returns structured output
/// and how a host puts a typed value back into a transcript. Separate from `Generable` so that
/// output-only types need no schema and generated types need not write themselves.
///
///     extension Weather: ConvertibleToGeneratedContent {
///         var generatedContent: GeneratedContent {
///             GeneratedContent(["city": .string(city), "celsius": temperature.generatedContent.value])
///         }
///     }
public protocol ConvertibleToGeneratedContent {
    var generatedContent: GeneratedContent { get }
}

extension GeneratedContent: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { self }
}

extension String: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(.string(self)) }
}

extension Int: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(.integer(Int64(self))) }
}

extension Double: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(.number(self)) }
}

extension Bool: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(.bool(self)) }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(.array(map(\.generatedContent.value))) }
}

extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { self?.generatedContent ?? GeneratedContent(.null) }
}

extension ConvertibleToGeneratedContent where Self: RawRepresentable, RawValue == String {
    public var generatedContent: GeneratedContent { GeneratedContent(.string(rawValue)) }
}
