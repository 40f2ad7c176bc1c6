import GuidedJSON
import Synchronization
import Tandem

/// The two functions the mock's `tools` scenario calls (get_weather, then get_time in the same
/// turn); each records the arguments it ran with.
final class WeatherTool: Tool {
    struct Arguments: Generable {
        var city: String
        var days: Int?
        static var generationSchema: GenerationSchema {
            .object(properties: [
                .property("city", .string(minLength: 1, maxLength: 40)),
                .optional("days", description: "How many days ahead", .integer(in: 1...14)),
            ])
        }
        init(_ content: GeneratedContent) throws {
            city = try content.value(forProperty: "city")
            days = try content.value(forProperty: "days")
        }
    }

    let name = "get_weather"
    let description = "The weather in a city"
    private let calls = Mutex<[String]>([])

    /// "city" or "city/days", one per call.
    var received: [String] { calls.withLock { $0 } }

    func call(arguments: Arguments) async throws -> String {
        calls.withLock { $0.append(arguments.days.map { "\(arguments.city)/\($0)" } ?? arguments.city) }
        return "Sunny in \(arguments.city)"
    }
}

final class TimeTool: Tool {
    struct Arguments: Generable {
        var zone: String
        static var generationSchema: GenerationSchema {
            .object(properties: [.property("zone", .string(minLength: 1, maxLength: 40))])
        }
        init(_ content: GeneratedContent) throws { zone = try content.value(forProperty: "zone") }
    }

    let name = "get_time"
    let description = "The local time in a time zone"
    private let calls = Mutex<[String]>([])

    var received: [String] { calls.withLock { $0 } }

    func call(arguments: Arguments) async throws -> String {
        calls.withLock { $0.append(arguments.zone) }
        return "12:00 in \(arguments.zone)"
    }
}

/// The document of the mock's `json` scenario.
struct CityFacts: Generable, Sendable, Equatable {
    var city: String
    var population: Int

    static var generationSchema: GenerationSchema {
        .object(description: "Facts about a city", properties: [
            .property("city", .string(minLength: 1, maxLength: 40)),
            .property("population", description: "Inhabitants", .integer(minimum: 0)),
        ])
    }

    init(city: String, population: Int) {
        self.city = city
        self.population = population
    }

    init(_ content: GeneratedContent) throws {
        city = try content.value(forProperty: "city")
        population = try content.value(forProperty: "population")
    }
}
