#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file. Weights are used in place, never copied.
/// (`init(copying:path:)` holds bytes already in memory instead, for the structured fuzzer.)
public final class MappedFile: @unchecked Sendable {
    public let path: String
    public let base: UnsafeRawPointer
    public let size: Int
    private let isMapped: Bool

    /// A private copy of `bytes`, named `path` in errors; no file is read.
    public init(copying bytes: [UInt8], path: String) throws(GGUFError) {
        guard !bytes.isEmpty else { throw GGUFError(.emptyFile, path: path, "file has zero bytes") }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 64)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        self.path = path
        base = UnsafeRawPointer(copy)
        size = bytes.count
        isMapped = false
    }

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
        isMapped = true
    }

    deinit {
        if isMapped { munmap(UnsafeMutableRawPointer(mutating: base), size) } else { base.deallocate() }
    }
}
