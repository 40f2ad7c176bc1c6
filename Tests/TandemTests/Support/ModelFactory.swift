import Foundation
import PluginFixtures
@testable import Tandem

/// How a test turns a backend id and fake settings into a model: through the real loader and
/// the `tandem.fake` plugin installed in `plugins.d/` (`RecordingBackend` wraps it where a test
/// must see the requests a backend received).
struct ModelFactory: Sendable, CustomStringConvertible {
    let name: String
    let make: @Sendable (_ id: String, _ settings: [String: String]) throws -> LanguageModel

    var description: String { name }

    /// The package's `plugins.d/` (filled by `make plugins`, which `make test` runs first).
    static let pluginsDirectory = PackagePaths.plugins

    static let catalog = PluginLoader(directory: pluginsDirectory).load()

    static let fakePlugin = ModelFactory(name: "tandem.fake") { id, settings in
        LanguageModel(try fakeBackend(id: id, settings: settings))
    }

    static func fakeBackend(id: String, settings: [String: String]) throws -> PluginBackend {
        guard let plugin = catalog.plugin(id: "tandem.fake") else {
            throw MissingPlugin(message: "tandem.fake is not in \(catalog.directory) (run `make plugins`); rejected: \(catalog.rejections)")
        }
        return try plugin.openModel(backendID: id, settings: settings)
    }

    struct MissingPlugin: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

extension RecordingBackend {
    /// `tandem.fake` with these settings (its script), recorded.
    convenience init(id: String, settings: [String: String]) throws {
        self.init(try ModelFactory.fakeBackend(id: id, settings: settings))
    }
}
