import Foundation
import PluginFixtures
import Tandem

/// Models of the `tandem.fake` plugin, opened through the real loader from the package's
/// `plugins.d/` (filled by `make plugins`, which `make test` runs first).
enum FakePlugin {
    static let pluginsDirectory = PackagePaths.plugins

    static let catalog = PluginLoader(directory: pluginsDirectory).load()

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// A fake model under backend id `id`; `kind` defaults to the id (`"local"`, `"cloud"`).
    static func model(_ id: String, _ settings: [String: String] = [:]) throws -> LanguageModel {
        guard let plugin = catalog.plugin(id: "tandem.fake") else {
            throw Missing(description: "tandem.fake is not in \(catalog.directory) (run `make plugins`); rejected: \(catalog.rejections)")
        }
        let all = settings.merging(["kind": id, "model_version": "\(id)-v1"]) { mine, _ in mine }
        return LanguageModel(try plugin.openModel(backendID: id, settings: all))
    }

    /// `local` alone, as a single-model session.
    static func session(
        _ settings: [String: String], tools: [any Tool] = [], maximumToolTurns: Int = 10
    ) throws -> LanguageModelSession {
        LanguageModelSession(model: HybridModel(primary: try model("local", settings)), tools: tools, maximumToolTurns: maximumToolTurns)
    }
}
