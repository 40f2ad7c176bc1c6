import Glibc

/// The rule sudo and ssh apply to what they trust: the plugins folder and every plugin must be
/// owned by the user running the host (or root) and writable by nobody else. Otherwise anyone
/// who can write there could run code inside the host.
enum PluginPermissions {
    static func checkFolder(_ path: String) throws(PluginRejection) {
        let info = try status(path)
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PluginRejection(.unreadable, path: path, "not a folder")
        }
        try checkOwnerAndMode(info, path: path, what: "folder")
    }

    static func checkFile(_ path: String) throws(PluginRejection) {
        let info = try status(path)
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PluginRejection(.unreadable, path: path, "not a regular file")
        }
        try checkOwnerAndMode(info, path: path, what: "plugin")
    }

    private static func status(_ path: String) throws(PluginRejection) -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PluginRejection(.unreadable, path: path, "cannot stat: \(errnoText())")
        }
        return info
    }

    private static func checkOwnerAndMode(_ info: stat, path: String, what: String) throws(PluginRejection) {
        let mode = info.st_mode & 0o7777
        let modeText = "0" + String(mode, radix: 8)
        if mode & S_IWOTH != 0 {
            throw PluginRejection(.insecurePermissions, path: path, "\(what) is writable by others (mode \(modeText)); run chmod o-w")
        }
        if mode & S_IWGRP != 0 {
            throw PluginRejection(.insecurePermissions, path: path, "\(what) is writable by its group (mode \(modeText)); run chmod g-w")
        }
        let user = geteuid()
        guard info.st_uid == user || info.st_uid == 0 else {
            throw PluginRejection(.insecurePermissions, path: path, "\(what) is owned by uid \(info.st_uid), not by uid \(user) or root")
        }
    }
}
