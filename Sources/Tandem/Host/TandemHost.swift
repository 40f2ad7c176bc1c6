/// A running host as a config describes it: the plugins folder loaded, every configured
/// backend opened (or the reason it could not be), and the hybrid model the routing asks for.
///
/// - Note: Thread-safe after `open`. Plugins stay resident for the life of the process.
public final class TandemHost: Sendable {
    public let config: TandemConfig
    /// What the plugins folder holds. With an isolated backend configured it was loaded by a
    /// child process (a plugin that crashes while loading is a `crashed` rejection there).
    public let plugins: PluginListing
    /// The plugins loaded into this process: only when a backend is configured `in-process`.
    public let catalog: PluginCatalog?
    /// Opened backends by id.
    public let models: [String: LanguageModel]
    /// Backends that could not be opened, by id, each with a config error naming where.
    public let openFailures: [String: ConfigError]

    /// Loads the plugins folder and opens every backend of `config`, each in a child process of
    /// its own unless its entry says `"isolation": "in-process"`. A bad plugin or backend never
    /// stops the others; it is recorded.
    public static func open(_ config: TandemConfig) -> TandemHost {
        let entries = config.backends.sorted(by: { $0.key < $1.key })
        // Only a config whose every backend is in-process loads the folder into this process alone.
        let allInProcess = !entries.isEmpty && entries.allSatisfy { $0.value.isolation == .inProcess }
        var listing = allInProcess ? nil : PluginProbe.listing(directory: config.pluginsDirectory, configDirectory: config.directory)
        var catalog: PluginCatalog?
        if entries.contains(where: { $0.value.isolation == .inProcess }) {
            // Never enter in this process a file that killed the probe.
            let crashed = Set(listing?.rejections.filter { $0.code == .crashed }.map(\.path) ?? [])
            catalog = PluginLoader(directory: config.pluginsDirectory, configDirectory: config.directory).load(skipping: crashed)
            if listing == nil { listing = catalog?.listing }
        }
        let plugins = listing!
        var models: [String: LanguageModel] = [:]
        var failures: [String: ConfigError] = [:]
        var launches: [(String, ProcessBackend.Launch)] = []
        for (id, entry) in entries {
            guard let identity = plugins.plugin(id: entry.plugin) else {
                let loaded = plugins.plugins.map(\.id).joined(separator: ", ")
                let rejected = plugins.rejections.isEmpty ? "" : "; \(plugins.rejections.count) file(s) rejected, see `tandem backends`"
                failures[id] = ConfigError(
                    .invalidValue, file: config.file, keyPath: "backends.\(id).plugin",
                    "no plugin \"\(entry.plugin)\" in \(plugins.directory) (loaded: \(loaded.isEmpty ? "none" : loaded)\(rejected))")
                continue
            }
            switch entry.isolation {
            case .process:
                launches.append((id, ProcessBackend.launch(
                    backendID: id, plugin: identity, settings: entry.settings, configDirectory: config.directory)))
            case .inProcess:
                guard let plugin = catalog?.plugin(id: entry.plugin) else {
                    let reason = catalog?.rejections.first { $0.path == identity.path }.map(\.description) ?? "not loaded in this process"
                    failures[id] = ConfigError(.invalidValue, file: config.file, keyPath: "backends.\(id).plugin", "\(entry.plugin): \(reason)")
                    continue
                }
                if plugin.configDirectory != config.directory {
                    // A plugin keeps the table of its first load in this process, so its relative path
                    // settings stay anchored there. Said, so that a wrong file is never opened silently.
                    let anchor = { (folder: String?) in folder.map { "the config folder \($0)" } ?? "the working directory" }
                    PluginHostServices.log(source: "host", .warn, "backend \(id): \(plugin.id) was loaded earlier in this process for \(anchor(plugin.configDirectory)); relative paths in its settings resolve against that, not \(anchor(config.directory))")
                }
                do {
                    models[id] = LanguageModel(try plugin.openModel(backendID: id, settings: entry.settings))
                } catch {
                    failures[id] = ConfigError(.invalidValue, file: config.file, keyPath: "backends.\(id).settings", "\(error)")
                }
            }
        }
        // The children load their models at the same time; each answer is awaited here.
        for (id, launch) in launches {
            do {
                models[id] = LanguageModel(try launch.open())
            } catch {
                failures[id] = ConfigError(.invalidValue, file: config.file, keyPath: "backends.\(id).settings", "\(error)")
            }
        }
        return TandemHost(config: config, plugins: plugins, catalog: catalog, models: models, openFailures: failures)
    }

    private init(config: TandemConfig, plugins: PluginListing, catalog: PluginCatalog?, models: [String: LanguageModel], openFailures: [String: ConfigError]) {
        self.config = config
        self.plugins = plugins
        self.catalog = catalog
        self.models = models
        self.openFailures = openFailures
    }

    /// The opened backend `id`, or the config error that explains why there is none.
    public func model(_ id: String, keyPath: String) throws(ConfigError) -> LanguageModel {
        if let model = models[id] { return model }
        if let failure = openFailures[id] { throw failure }
        let known = config.backends.keys.sorted().joined(separator: ", ")
        throw ConfigError(.invalidValue, file: config.file, keyPath: keyPath, "unknown backend id \"\(id)\" (configured: \(known))")
    }

    /// The hybrid model for `routing` (the config's own when nil). A mode is resolved through
    /// the backends' kinds: it needs exactly one opened backend of each kind it uses, among those
    /// that can generate (an embeddings-only backend, such as a local sentence encoder beside
    /// the local chat model, is passed over; so are the quote pipeline's own backends,
    /// `quote.judge` and `quote.draft`, when another backend of their kind can generate).
    public func hybridModel(routing: TandemConfig.Routing? = nil) throws(ConfigError) -> HybridModel {
        guard let routing = routing ?? config.routing else {
            throw ConfigError(.missingKey, file: config.file, keyPath: "mode", "missing (expected mode, or primary with an optional secondary)")
        }
        switch routing {
        case .explicit(let primaryID, let secondaryID):
            let primary = try model(primaryID, keyPath: "primary")
            let secondary = try secondaryID.map { id throws(ConfigError) in try model(id, keyPath: "secondary") }
            return HybridModel(primary: primary, secondary: secondary, fallbackPolicy: config.fallbackPolicy)
        case .mode(let mode):
            let primary = try onlyModel(of: mode.primaryKind, for: mode)
            let secondary = try mode.secondaryKind.map { kind throws(ConfigError) in try onlyModel(of: kind, for: mode) }
            return HybridModel(primary: primary, secondary: secondary, fallbackPolicy: config.fallbackPolicy)
        }
    }

    private func onlyModel(of kind: ModelKind, for mode: RoutingMode) throws(ConfigError) -> LanguageModel {
        var matches = models.values.filter { $0.kind == kind && !$0.info.capabilities.contains(.embeddingsOnly) }.sorted { $0.id < $1.id }
        // The quote pipeline's own backends (quote.judge, quote.draft: e.g. a base model that
        // continues example lines) serve it by name; a mode routes to the others of their kind.
        let quoteOwn = Set([config.quote.judge, config.quote.draft].compactMap { $0 })
        if matches.contains(where: { !quoteOwn.contains($0.id) }) {
            matches.removeAll { quoteOwn.contains($0.id) }
        }
        guard matches.count == 1 else {
            if matches.isEmpty, var unopened = openFailures.min(by: { $0.key < $1.key })?.value {
                // A backend that did not open may be the one of this kind: its error is the cause.
                unopened.message += " (and \(mode) needs a backend of kind \(kind))"
                throw unopened
            }
            let problem = matches.isEmpty
                ? "\(mode) needs a backend of kind \(kind), found none"
                : "\(mode) needs one backend of kind \(kind), found \(matches.map(\.id).joined(separator: ", ")): set primary/secondary instead"
            throw ConfigError(.invalidValue, file: config.file, keyPath: "mode", problem)
        }
        return matches[0]
    }
}
