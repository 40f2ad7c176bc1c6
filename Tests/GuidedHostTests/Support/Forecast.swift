import GuidedJSON

/// The 3-field object of the issue: an enum, a bounded integer and a bounded string.
struct Forecast: Generable, Sendable, Equatable {
    enum Sky: String, CaseIterable, Generable, Sendable { case sunny, cloudy, rainy }

    var city: String
    var sky: Sky
    var celsius: Int

    static var generationSchema: GenerationSchema {
        .object(description: "Tomorrow's weather", properties: [
            .property("city", .string(minLength: 1, maxLength: 20)),
            .property("sky", Sky.self),
            .property("celsius", description: "Temperature at noon", .integer(in: -40...50)),
        ])
    }

    init(city: String, sky: Sky, celsius: Int) {
        self.city = city
        self.sky = sky
        self.celsius = celsius
    }

    init(_ content: GeneratedContent) throws {
        city = try content.value(forProperty: "city")
        sky = try content.value(forProperty: "sky")
        celsius = try content.value(forProperty: "celsius")
    }
}
