import CTandemABI
import Glibc
import Synchronization

/// Finds and loads every `*.so` in a plugins folder, refusing bad files one by one.
///
/// Order of checks for each file (sorted by absolute path, so loading is deterministic):
/// permissions, ELF sanity, `RTLD_NOW` preflight, libltdl open, entry symbol, negotiation,
/// duplicate id. A refused file is recorded in the catalog and never used; the host carries on.
/// Nothing is ever unloaded.
///
/// - Note: Thread-safe. Loading is serialised process-wide (libltdl and plugin entries are not
///   thread-safe). A file already accepted in this process (same device, inode, size and mtime)
///   is reused rather than entered again: an entry runs once per process.
public struct PluginLoader: Sendable {
    /// The ABI versions this host speaks.
    public static let supportedABI: ClosedRange<UInt32> = tandem_abi_version(1, 0)...TANDEM_ABI_CURRENT

    public let directory: String
    /// The folder of the config file these plugins serve, handed to each plugin loaded for the
    /// first time as `tandem_host.config_directory`; nil when there is no config file.
    public let configDirectory: String?

    /// `directory` and `configDirectory` may be relative; they are made absolute against the
    /// current directory.
    public init(directory: String, configDirectory: String? = nil) {
        self.directory = directory
        self.configDirectory = configDirectory.map { $0.hasPrefix("/") ? $0 : Self.absolute($0) }
    }

    public func load() -> PluginCatalog {
        load(skipping: [])
    }

    /// Loads the folder except the files in `skipped` (absolute paths), calling `willLoad` with
    /// each file's path before anything of it runs: the child process that probes a folder for
    /// an isolated host says which file it is in, so a file that kills it can be named.
    func load(skipping skipped: Set<String>, willLoad: (String) -> Void = { _ in }) -> PluginCatalog {
        let clock = ContinuousClock()
        let start = clock.now
        let folder = Self.absolute(directory)
        let (plugins, rejections) = Self.registry.withLock { registry in
            registry.load(folder: folder, configDirectory: configDirectory, skipping: skipped, willLoad: willLoad)
        }
        return PluginCatalog(directory: folder, plugins: plugins, rejections: rejections, duration: clock.now - start)
    }

    /// Loads one file of the folder with the same checks as `load()` (the folder's permissions
    /// included): what an isolation child does with the plugin its backend names.
    func loadFile(_ path: String) throws(PluginRejection) -> LoadedPlugin {
        let file = Self.absolute(path)
        return try Self.registry.withLock { registry throws(PluginRejection) in
            try PluginPermissions.checkFolder(String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)]))
            return try registry.loadFile(file, configDirectory: configDirectory)
        }
    }

    private static let registry = Mutex(PluginRegistry())

    static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}
