import Glibc

/// Identity of a file's current contents as far as a cheap `stat` can tell: path, device, inode,
/// size, modification time and status-change time. Caches keyed by it are invalidated by any
/// rewrite, copy, replacement or touch. The status-change time (`ctime`) matters for the digest
/// cache: an unprivileged user can set a file's mtime back after editing it in place, but not its
/// ctime, which the kernel moves on every write.
struct FileStamp: Hashable, Sendable {
    let path: String
    let device: UInt64
    let inode: UInt64
    let size: Int
    let modifiedNanoseconds: Int
    let changedNanoseconds: Int

    enum Kind: Equatable { case missing, directory, notRegular, file }

    /// `stat` of `path`: the kind of thing there, and a stamp when it is a regular file.
    static func of(_ path: String) -> (kind: Kind, stamp: FileStamp?, error: Int32) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (.missing, nil, errno) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return (.directory, nil, 0)
        case S_IFREG:
            let stamp = FileStamp(
                path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                modifiedNanoseconds: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
                changedNanoseconds: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec))
            return (.file, stamp, 0)
        default: return (.notRegular, nil, 0)
        }
    }

    /// The size of a regular file, or nil.
    static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
