import GuidedJSON

/// A function the model may call during a session's request, named after Foundation Models'
/// `Tool`. The host declares it to the model (name, description, the JSON Schema of
/// `Arguments`), validates the arguments the model writes, calls it, and feeds the output back.
///
///     struct WeatherTool: Tool {
///         struct Arguments: Generable {
///             var city: String
///             static var generationSchema: GenerationSchema {
///                 .object(properties: [.property("city", .string(minLength: 1))])
///             }
///             init(_ content: GeneratedContent) throws { city = try content.value(forProperty: "city") }
///         }
///         let name = "weather"
///         let description = "Today's weather in a city"
///         func call(arguments: Arguments) async throws -> String { "Sunny in \(arguments.city)" }
///     }
public protocol Tool: Sendable {
    associatedtype Arguments: Generable
    /// Text (given to the model as is) or structured output (given as JSON).
    associatedtype Output: ConvertibleToGeneratedContent

    /// Unique within a session; what the model calls it by.
    var name: String { get }
    /// Tells the model when to call it.
    var description: String { get }
    /// The arguments' schema; `Arguments.generationSchema` unless a tool builds one at run time.
    var parameters: GenerationSchema { get }

    /// Runs the tool. An error thrown here ends the request with `TandemError.Code.toolFailed`
    /// (the error is kept in `toolFailure`).
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}
