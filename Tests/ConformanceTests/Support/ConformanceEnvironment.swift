import Foundation
import PluginFixtures
import MockCloudServer
import Tandem

/// What the suite runs against: every plugin in plugins.d/ (or `TANDEM_PLUGINS_DIR`), loaded
/// once through the real loader, each opened with its settings from settings.json.
///
/// settings.json maps a plugin id to the settings its models need to open, as text values (what
/// the plugin receives); relative paths are relative to the package root, where `swift test`
/// runs. A plugin without an entry is opened with no settings. `tandem.cloud` points at the
/// cloud mock, so it runs the generation checks too.
enum ConformanceEnvironment {
    static let packageRoot = PackagePaths.root
    static let pluginsDirectory = PackagePaths.plugins
    static let catalog = PluginLoader(directory: pluginsDirectory).load()
    /// Every plugin the suite runs against (the test arguments).
    static let pluginIDs = catalog.plugins.map(\.id)

    static let settingsFile = packageRoot + "/Tests/ConformanceTests/settings.json"

    /// The settings for `id` from settings.json (none when it has no entry). A value may name
    /// the test mock of the cloud protocols (Tests/MockCloudServer): `{mock}` becomes its
    /// `https://127.0.0.1:PORT` and `{mock_ca}` its CA file; the mock is started on first use and
    /// sets `MockServer.keyVariable` to the key it expects.
    static func settings(for id: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: settingsFile) else {
            throw ConformanceFailure("cannot read \(settingsFile)")
        }
        let settings: [String: String]
        do {
            settings = try JSONDecoder().decode([String: [String: String]].self, from: data)[id] ?? [:]
        } catch {
            throw ConformanceFailure("\(settingsFile): expected an object of plugin id -> {setting: text}: \(error)")
        }
        guard settings.values.contains(where: { $0.contains("{mock") }) else { return settings }
        let mock = MockServer.shared
        return settings.mapValues {
            $0.replacingOccurrences(of: "{mock}", with: "https://127.0.0.1:\(mock.port)")
                .replacingOccurrences(of: "{mock_ca}", with: mock.caFile)
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

    /// A model of the plugin opened with its conformance settings, as the host routes over it:
    /// in this process, or in a `tandem-plugin-host` child.
    static func backend(_ id: String, _ isolation: BackendIsolation) throws -> any Backend {
        switch isolation {
        case .inProcess: try open(id)
        case .process: try ProcessBackend.open(backendID: "conformance", plugin: plugin(id).identity, settings: settings(for: id))
        }
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
