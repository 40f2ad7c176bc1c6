import GuidedJSON
import Synchronization
import Tandem

/// A tool that answers with text and records every city it was called for.
final class WeatherTool: Tool {
    struct Arguments: Generable {
        var city: String
        static var generationSchema: GenerationSchema {
            .object(properties: [.property("city", .string(minLength: 1, maxLength: 30))])
        }
        init(_ content: GeneratedContent) throws { city = try content.value(forProperty: "city") }
    }

    let name = "weather"
    let description = "Today's weather in a city"
    private let calls = Mutex<[String]>([])

    var cities: [String] { calls.withLock { $0 } }

    func call(arguments: Arguments) async throws -> String {
        calls.withLock { $0.append(arguments.city) }
        return "Sunny, 21 °C in \(arguments.city)"
    }
}

/// A tool with structured output.
struct ForecastTool: Tool {
    typealias Arguments = WeatherTool.Arguments
    let name = "forecast"
    let description = "Tomorrow's forecast for a city"

    func call(arguments: Arguments) async throws -> GeneratedContent {
        GeneratedContent(["city": .string(arguments.city), "celsius": 18, "rain": false])
    }
}

/// A tool that always throws.
struct BrokenTool: Tool {
    struct Outage: Error, Equatable { var service: String }
    typealias Arguments = WeatherTool.Arguments
    let name = "weather"
    let description = "Today's weather in a city"

    func call(arguments: Arguments) async throws -> String { throw Outage(service: "meteo") }
}

/// A tool that waits until the test lets it finish, to observe the session mid-loop.
struct GateTool: Tool {
    typealias Arguments = WeatherTool.Arguments
    let name = "weather"
    let description = "Today's weather in a city"
    let entered: AsyncStream<Void>.Continuation
    let release: AsyncStream<Void>

    func call(arguments: Arguments) async throws -> String {
        entered.yield()
        for await _ in release { break }
        return "Windy in \(arguments.city)"
    }
}
