import Glibc

/// The folder where plugins keep small state that outlives a process (the runner's model
/// digests, the cloud plugin's rate-limit cooldowns): `$XDG_CACHE_HOME/tandem`, or
/// `~/.cache/tandem` when that variable is unset or not absolute (the XDG base directory rules).
public enum PluginCacheFolder {
    /// The folder, or nil when neither variable gives an absolute path (no home folder).
    public static func path(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/tandem" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.cache/tandem" }
        return nil
    }

    /// True when `path` (not followed if a link) is a folder or regular file of this user that
    /// neither its group nor others may write (as ssh treats its files): state that someone else
    /// could have written is not believed.
    public static func isPrivate(_ path: String, directory: Bool) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == (directory ? S_IFDIR : S_IFREG) && info.st_uid == geteuid() && info.st_mode & (S_IWGRP | S_IWOTH) == 0
    }
}
