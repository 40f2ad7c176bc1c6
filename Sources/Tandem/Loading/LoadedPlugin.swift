import CTandemABI

/// A plugin that passed every check and negotiated an ABI version. Resident for the life of the
/// process; opening models from it is thread-safe.
public final class LoadedPlugin: @unchecked Sendable {
    /// The plugin's stable id (`tandem.fake`).
    public let id: String
    public let name: String
    /// The plugin's own version string.
    public let version: String
    /// The negotiated ABI version, `(major << 16) | minor`.
    public let abiVersion: UInt32
    /// Absolute path of the shared object it was loaded from.
    public let path: String

    /// Raw ABI access, for the conformance suite and the benchmark's direct calls. The entry may
    /// be called again only to probe negotiation; everything else goes through `openModel`.
    package let entry: tandem_plugin_entry_fn
    /// The plugin's static table. [until shutdown], which never comes: plugins stay resident.
    package let table: UnsafePointer<tandem_plugin>
    /// The services table this plugin was given.
    public let host: UnsafePointer<tandem_host>
    /// The config folder its table names (`tandem_host.config_directory`): where the plugin
    /// resolves relative paths in settings. Fixed at load; nil means the working directory.
    public let configDirectory: String?

    init(path: String, entry: tandem_plugin_entry_fn, host: UnsafePointer<tandem_host>, configDirectory: String?, answer: PluginNegotiation.Answer) {
        self.path = path
        self.entry = entry
        self.host = host
        self.configDirectory = configDirectory
        self.id = answer.id
        self.name = answer.name
        self.version = answer.version
        self.abiVersion = answer.abiVersion
        self.table = answer.table
    }

    /// `"1.0"`.
    public var abiVersionText: String { PluginNegotiation.versionText(abiVersion) }

    public var identity: PluginIdentity {
        PluginIdentity(id: id, name: name, version: version, abiVersion: abiVersion, path: path)
    }

    /// Opens a model from a backend's settings (the config's `settings` object flattened to
    /// text) and wraps it as a `Backend` named `backendID`.
    public func openModel(backendID: String, settings: [String: String] = [:]) throws(BackendFailure) -> PluginBackend {
        try PluginBackend(backendID: backendID, plugin: self, model: openRawModel(settings: settings))
    }

    /// Opens a model and returns the plugin's table itself, checked for the required functions.
    /// The caller owns it and must call its `destroy` (a `PluginBackend` does that for you).
    public func openRawModel(settings: [String: String] = [:]) throws(BackendFailure) -> UnsafePointer<tandem_model> {
        guard let open = table.pointee.open_model else { throw BackendFailure(.initFailed, "\(id): open_model is NULL") }
        let pairs = settings.sorted { $0.key < $1.key }
        var opened: UnsafePointer<tandem_model>?
        let (status, failure) = withCKeyValuePairs(pairs) { cPairs, count in
            BackendFailure.capture { error in open(cPairs, count, &opened, error) }
        }
        guard status == TANDEM_OK else {
            var named = failure
            named.message = "\(id): \(failure.message.isEmpty ? "open_model returned \(failure.status.name)" : failure.message)"
            throw named
        }
        guard let model = opened else { throw BackendFailure(.initFailed, "\(id): open_model returned OK without a model") }
        let m = model.pointee
        guard structHasField(model, structSize: m.struct_size, \.destroy) else {
            throw BackendFailure(.initFailed, "\(id): tandem_model.struct_size \(m.struct_size) is too small")
        }
        let missing = [("info", m.info == nil), ("availability", m.availability == nil), ("generate", m.generate == nil), ("destroy", m.destroy == nil)]
            .filter(\.1).map(\.0)
        guard missing.isEmpty else {
            m.destroy?(model)
            throw BackendFailure(.initFailed, "\(id): the model table lacks \(missing.joined(separator: ", "))")
        }
        return model
    }
}
