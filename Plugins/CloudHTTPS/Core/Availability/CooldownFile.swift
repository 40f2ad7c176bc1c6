import CTandemABI
import Glibc
import JSONModel
import Synchronization
import TandemPluginKit

/// One backend's rate-limit cooldown on disk, so that the next process (a fresh `tandem
/// availability`, the next `tandem respond`, a server started later) knows the server asked to
/// wait, and does not send the next request into the same refusal.
///
/// Where: `<cache>/cooldown/<dialect>-<model>-<hash>.json` under the plugins' cache folder
/// (`$XDG_CACHE_HOME/tandem`, else `~/.cache/tandem`). The hash is of what a server rate-limits:
/// the dialect, base URL, model and where the key comes from, so two configs naming the same
/// server, model and key share one wait, and another key or server has its own.
///
/// How it can go wrong, and what then happens:
/// - written through a new file, fsync and a rename: a reader sees the old wait or the new one,
///   never half of one;
/// - a file that does not parse, or that this user does not own or others may write, is not
///   believed: a warning names the file and what is wrong (once per version of the file), and
///   the cooldown stands on what this process saw; the next 429 replaces the file;
/// - a file that cannot be written (no cache folder, a read-only disk) is a warning naming the
///   file and the system's reason; the wait is then kept in this process only;
/// - a wait that has passed is ignored, and the time left is never more than the delay the
///   server asked for, so a wall clock set back cannot stretch it.
public final class CooldownFile: Sendable {
    public let path: String
    /// Who the file is for, in words, written into it for a person reading the folder.
    let backend: String
    /// Where warnings go: the host's log (a test collects them).
    let warn: @Sendable (String) -> Void
    /// The last reading, by the file's stamp: availability is asked before every request, and an
    /// unchanged file costs one lstat.
    private let lastReading = Mutex<(stamp: Stamp, reading: Reading)?>(nil)

    /// A wait: until when (Unix milliseconds), and how long the server asked for.
    public struct Wait: Sendable, Hashable {
        public var until: Int64
        public var asked: UInt64
        public init(until: Int64, asked: UInt64) {
            self.until = until
            self.asked = asked
        }
    }

    public enum Reading: Sendable, Hashable {
        case none
        case wait(Wait)
        /// Why the file was not believed.
        case invalid(String)
    }

    public struct WriteError: Error, Sendable {
        public var message: String
    }

    /// The largest file read; a cooldown takes about 200 bytes.
    static let maximumBytes = 4096

    public init(path: String, backend: String, warn: @escaping @Sendable (String) -> Void = { PluginExport.log(TANDEM_LOG_WARN, $0) }) {
        self.path = path
        self.backend = backend
        self.warn = warn
    }

    /// The file for a model with these settings, or nil when there is no cache folder.
    public static func forModel(
        _ settings: CloudSettings, cacheFolder: String? = PluginCacheFolder.path(),
        warn: @escaping @Sendable (String) -> Void = { PluginExport.log(TANDEM_LOG_WARN, $0) }
    ) -> CooldownFile? {
        guard let cacheFolder else { return nil }
        let keyOrigin = switch settings.key.origin {
        case .environment(let name): "env:" + name
        case .file(let path): "file:" + path
        case .none: "none"
        }
        let identity = [settings.dialect.rawValue, settings.endpoint.baseURL, settings.model, keyOrigin].joined(separator: "\n")
        let readable = String(settings.model.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" }.prefix(48))
        let name = "\(settings.dialect.rawValue)-\(readable)-\(hex(fnv1a(identity))).json"
        return CooldownFile(
            path: cacheFolder + "/cooldown/" + name,
            backend: "\(settings.dialect.rawValue) model \(settings.model) at \(settings.endpoint.baseURL)", warn: warn)
    }

    // MARK: Reading

    /// What the file says now. An invalid file is warned about once per version of it.
    public func read() -> Reading {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .none }
            return remember(nil, .invalid("cannot be read: \(String(cString: strerror(errno)))"))
        }
        let stamp = Stamp(info)
        if let last = lastReading.withLock({ $0 }), last.stamp == stamp { return last.reading }
        return remember(stamp, parse(info))
    }

    private func parse(_ info: stat) -> Reading {
        guard info.st_mode & S_IFMT == S_IFREG else { return .invalid("is not a regular file") }
        guard PluginCacheFolder.isPrivate(path, directory: false) else {
            return .invalid("belongs to another user or may be written by others")
        }
        guard info.st_size <= Self.maximumBytes else { return .invalid("is \(info.st_size) bytes; a cooldown file is at most \(Self.maximumBytes)") }
        guard let bytes = Self.readAll(path) else { return .invalid("cannot be read: \(String(cString: strerror(errno)))") }
        let json: JSONValue
        do { json = try JSONValue(parsing: bytes) } catch { return .invalid("is not JSON: \(error)") }
        guard let object = json.objectValue else { return .invalid("is a JSON \(json.typeName), not an object") }
        guard let until = object["until_unix_ms"]?.integerValue, until > 0 else {
            return .invalid("until_unix_ms: expected a positive integer, got \(object["until_unix_ms"]?.jsonText ?? "nothing")")
        }
        guard let asked = object["asked_ms"]?.integerValue, asked > 0 else {
            return .invalid("asked_ms: expected a positive integer, got \(object["asked_ms"]?.jsonText ?? "nothing")")
        }
        return .wait(Wait(until: until, asked: UInt64(asked)))
    }

    private func remember(_ stamp: Stamp?, _ reading: Reading) -> Reading {
        let isNew = lastReading.withLock { last in
            defer { if let stamp { last = (stamp, reading) } }
            return stamp == nil || last?.stamp != stamp
        }
        if isNew, case .invalid(let why) = reading {
            warn("rate-limit cooldown file \(path) \(why); ignored (the next 429 with a delay replaces it)")
        }
        return reading
    }

    // MARK: Writing

    /// Replaces the file with `wait`, atomically; the folders are made (mode 700) when missing.
    public func write(_ wait: Wait) throws(WriteError) {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        try Self.makeFolders(folder)
        guard PluginCacheFolder.isPrivate(folder, directory: true) else {
            throw WriteError(message: "cannot write \(path): its folder belongs to another user or may be written by others")
        }
        let object: JSONObject = [
            "until_unix_ms": .integer(wait.until), "asked_ms": .integer(Int64(clamping: wait.asked)), "backend": .string(backend),
        ]
        let bytes = JSONValue.object(object).jsonBytes + [0x0A]
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.systemError("cannot write", temporary) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let failure = written != bytes.count ? Self.systemError("cannot write", temporary)
            : fsync(descriptor) != 0 ? Self.systemError("cannot sync", temporary) : nil
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = Self.systemError("cannot rename into", path)
            unlink(temporary)
            throw failure
        }
    }

    private static func makeFolders(_ folder: String) throws(WriteError) {
        var info = stat()
        if stat(folder, &info) == 0 { return }
        if let slash = folder.lastIndex(of: "/"), slash > folder.startIndex {
            try makeFolders(String(folder[..<slash]))
        }
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw systemError("cannot create the folder", folder) }
    }

    private static func systemError(_ what: String, _ path: String) -> WriteError {
        WriteError(message: "\(what) \(path): \(String(cString: strerror(errno)))")
    }

    // MARK: Helpers

    /// What identifies one version of the file: a rename gives a new inode, a write a new ctime.
    private struct Stamp: Hashable {
        let device: UInt64, inode: UInt64, size: Int64, changedSeconds: Int, changedNanoseconds: Int
        init(_ info: stat) {
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
            (changedSeconds, changedNanoseconds) = (info.st_ctim.tv_sec, info.st_ctim.tv_nsec)
        }
    }

    private static func readAll(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if n < 0 { return nil }
            if n == 0 { break }
            count += n
        }
        return Array(bytes[..<count])
    }

    /// FNV-1a, 64 bits: a stable file name for a backend's identity (not a secret, not a check).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
