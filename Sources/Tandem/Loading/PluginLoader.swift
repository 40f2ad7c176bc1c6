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

    /// `directory` may be relative; it is made absolute against the current directory.
    public init(directory: String) {
        self.directory = directory
    }

    public func load() -> PluginCatalog {
        let clock = ContinuousClock()
        let start = clock.now
        let folder = Self.absolute(directory)
        let (plugins, rejections) = Self.registry.withLock { registry in registry.load(folder: folder) }
        return PluginCatalog(directory: folder, plugins: plugins, rejections: rejections, duration: clock.now - start)
    }

    private static let registry = Mutex(Registry())

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

/// Process-wide state of loaded plugins; guarded by `PluginLoader.registry`.
private struct Registry: ~Copyable {
    struct FileIdentity: Hashable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Int
    }
    var accepted: [FileIdentity: LoadedPlugin] = [:]

    mutating func load(folder: String) -> ([LoadedPlugin], [PluginRejection]) {
        do throws(PluginRejection) {
            try PluginPermissions.checkFolder(folder)
        } catch {
            return ([], [error])
        }
        let paths: [String]
        switch Self.listSharedObjects(folder) {
        case .success(let found): paths = found
        case .failure(let rejection): return ([], [rejection])
        }
        var plugins: [LoadedPlugin] = []
        var rejections: [PluginRejection] = []
        for path in paths {
            do throws(PluginRejection) {
                let plugin = try loadFile(path)
                if let first = plugins.first(where: { $0.id == plugin.id }) {
                    throw PluginRejection(.duplicateID, path: path, "plugin id \(plugin.id) is already provided by \(first.path)")
                }
                plugins.append(plugin)
            } catch {
                PluginHostServices.log(source: "host", .warn, "plugin refused: \(error)")
                rejections.append(error)
            }
        }
        return (plugins, rejections)
    }

    private mutating func loadFile(_ path: String) throws(PluginRejection) -> LoadedPlugin {
        try PluginPermissions.checkFile(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw PluginRejection(.unreadable, path: path, "cannot stat: \(errnoText())") }
        let identity = FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim.tv_sec)
        if let known = accepted[identity] { return known }
        try ELFImageCheck.check(path)
        let entry = try SharedObject.openEntry(path)
        let host = PluginHostServices.makeTable(source: String(path.split(separator: "/").last ?? ""))
        let answer = try PluginNegotiation.negotiate(entry: entry, path: path, host: host, offer: PluginLoader.supportedABI)
        let plugin = LoadedPlugin(path: path, entry: entry, host: host, answer: answer)
        accepted[identity] = plugin
        return plugin
    }

    /// `folder/*.so`, hidden files excluded (installs use hidden temporary names), sorted by
    /// path bytes.
    private static func listSharedObjects(_ folder: String) -> Result<[String], PluginRejection> {
        guard let dir = opendir(folder) else {
            return .failure(PluginRejection(.unreadable, path: folder, "cannot list the folder: \(errnoText())"))
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasSuffix(".so"), !name.hasPrefix(".") { names.append(name) }
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return .success(names.map { base + $0 }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
