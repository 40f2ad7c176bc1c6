@testable import Tandem

/// How a test turns a backend id and fake settings into a model: through the in-process
/// double, or through the real loader and the `tandem.fake` plugin.
struct ModelFactory: Sendable {
    let name: String
    let make: @Sendable (_ id: String, _ settings: [String: String]) throws -> LanguageModel

    static let scripted = ModelFactory(name: "scripted") { id, settings in
        LanguageModel(ScriptedBackend(id: id, settings: settings))
    }
}
