#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file. Weights are used in place, never copied.
public final class MappedFile: @unchecked Sendable {
    public let path: String
    public let base: UnsafeRawPointer
    public let size: Int

    public init(path: String) throws(GGUFError) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw GGUFError(errno == ENOENT ? .missingFile : .unreadable, path: path,
                            errno == ENOENT ? "no such file" : "cannot stat: \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw GGUFError(.isDirectory, path: path, "is a directory, not a model file") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw GGUFError(.unreadable, path: path, "not a regular file") }
        guard info.st_size > 0 else { throw GGUFError(.emptyFile, path: path, "file has zero bytes") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw GGUFError(.unreadable, path: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let length = Int(info.st_size)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw GGUFError(.unreadable, path: path, "cannot map: \(String(cString: strerror(errno)))")
        }
        base = UnsafeRawPointer(mapped)
        size = length
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
}
