import Foundation
import Tandem

/// What the suite runs against: every plugin in plugins.d/ (or `TANDEM_PLUGINS_DIR`), loaded
/// once through the real loader, each opened with its settings from settings.json.
///
/// settings.json maps a plugin id to the settings its models need to open, as text values (what
/// the plugin receives); relative paths are relative to the package root, where `swift test`
/// runs. A plugin without an entry is opened with no settings.
enum ConformanceEnvironment {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let pluginsDirectory = ProcessInfo.processInfo.environment["TANDEM_PLUGINS_DIR"] ?? packageRoot + "/plugins.d"
    static let catalog = PluginLoader(directory: pluginsDirectory).load()
    /// Every plugin the suite runs against (the test arguments).
    static let pluginIDs = catalog.plugins.map(\.id)

    static let settingsFile = packageRoot + "/Tests/ConformanceTests/settings.json"

    /// The settings for `id` from settings.json (none when it has no entry).
    static func settings(for id: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: settingsFile) else {
            throw ConformanceFailure("cannot read \(settingsFile)")
        }
        do {
            return try JSONDecoder().decode([String: [String: String]].self, from: data)[id] ?? [:]
        } catch {
            throw ConformanceFailure("\(settingsFile): expected an object of plugin id -> {setting: text}: \(error)")
        }
    }

    static func plugin(_ id: String) throws -> LoadedPlugin {
        guard let plugin = catalog.plugin(id: id) else { throw ConformanceFailure("plugin \(id) is not loaded") }
        return plugin
    }

    /// A model of the plugin opened with its conformance settings.
    static func open(_ id: String) throws -> PluginBackend {
        try plugin(id).openModel(backendID: "conformance", settings: settings(for: id))
    }

    /// The model when it can generate with the given settings, else nil after saying why the
    /// generation checks are skipped for it.
    static func generating(_ id: String) throws -> PluginBackend? {
        let backend = try open(id)
        let availability = backend.availability(locale: nil)
        guard availability.isAvailable else {
            print("conformance: skipping generation checks of \(id): \(availability) with the settings in settings.json")
            return nil
        }
        return backend
    }
}

struct ConformanceFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
