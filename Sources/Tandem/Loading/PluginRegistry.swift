import CTandemABI
import Glibc

/// The process-wide record of accepted plugin files, and the per-folder loading pass. Guarded by
/// `PluginLoader`'s lock: one pass at a time.
struct PluginRegistry: ~Copyable {
    struct FileIdentity: Hashable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Int
    }
    var accepted: [FileIdentity: LoadedPlugin] = [:]

    mutating func load(
        folder: String, configDirectory: String?, skipping skipped: Set<String>, willLoad: (String) -> Void
    ) -> ([LoadedPlugin], [PluginRejection]) {
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
        for path in paths where !skipped.contains(path) {
            willLoad(path)
            do throws(PluginRejection) {
                let plugin = try loadFile(path, configDirectory: configDirectory)
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

    mutating func loadFile(_ path: String, configDirectory: String?) throws(PluginRejection) -> LoadedPlugin {
        try PluginPermissions.checkFile(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw PluginRejection(.unreadable, path: path, "cannot stat: \(errnoText())") }
        let identity = FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim.tv_sec)
        // Reused as first loaded, with its first table (and config folder): see TandemHost.open.
        if let known = accepted[identity] { return known }
        try ELFImageCheck.check(path)
        let entry = try SharedObject.openEntry(path)
        let host = PluginHostServices.makeTable(source: String(path.split(separator: "/").last ?? ""), configDirectory: configDirectory)
        let answer = try PluginNegotiation.negotiate(entry: entry, path: path, host: host, offer: PluginLoader.supportedABI)
        let plugin = LoadedPlugin(path: path, entry: entry, host: host, configDirectory: configDirectory, answer: answer)
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
