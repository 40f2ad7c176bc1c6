import Foundation
@testable import Tandem

/// How a test turns a backend id and fake settings into a model: through the in-process
/// double, or through the real loader and the `tandem.fake` plugin installed in `plugins.d/`.
struct ModelFactory: Sendable, CustomStringConvertible {
    let name: String
    let make: @Sendable (_ id: String, _ settings: [String: String]) throws -> LanguageModel

    var description: String { name }

    static let scripted = ModelFactory(name: "scripted") { id, settings in
        LanguageModel(ScriptedBackend(id: id, settings: settings))
    }

    /// The package's `plugins.d/` (filled by `make plugins`, which `make test` runs first).
    static let pluginsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("plugins.d").path

    static let catalog = PluginLoader(directory: pluginsDirectory).load()

    static let fakePlugin = ModelFactory(name: "tandem.fake") { id, settings in
        guard let plugin = catalog.plugin(id: "tandem.fake") else {
            throw MissingPlugin(message: "tandem.fake is not in \(catalog.directory) (run `make plugins`); rejected: \(catalog.rejections)")
        }
        return LanguageModel(try plugin.openModel(backendID: id, settings: settings))
    }

    struct MissingPlugin: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
