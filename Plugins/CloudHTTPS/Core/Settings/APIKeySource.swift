import Glibc
import TandemBridge
import TandemPluginKit

/// Where the API key comes from: a key file (which must not be readable by group or others, as
/// ssh demands of private keys) or an environment variable, then the host's secret service under
/// the same name. Never a setting or a command-line argument. The key is read when a call needs
/// it and never written to a log, an error or a result.
public struct APIKeySource: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        case environment(String)
        case file(String)
        /// No key is sent (a local OpenAI-compatible server without authentication).
        case none
    }

    public let origin: Origin
    /// Test seam: resolves environment variables (default: the process environment, then the host).
    let lookupVariable: @Sendable (String) -> String?

    public init(origin: Origin, lookupVariable: (@Sendable (String) -> String?)? = nil) {
        self.origin = origin
        self.lookupVariable = lookupVariable ?? { name in
            if let value = getenv(name) { return String(cString: value) }
            return PluginExport.secret(named: name)
        }
    }

    public static func == (a: APIKeySource, b: APIKeySource) -> Bool { a.origin == b.origin }
    public func hash(into hasher: inout Hasher) { hasher.combine(origin) }

    /// The key, nil when none is configured to be sent; throws `auth` when it is missing or its
    /// file is unsafe. Messages name the variable or file, never the value.
    public func resolve() throws(BackendFailure) -> String? {
        switch origin {
        case .none:
            return nil
        case .environment(let name):
            guard let value = lookupVariable(name)?.trimmingSpaces(), !value.isEmpty else {
                throw BackendFailure(.auth, "no API key: the environment variable \(name) is not set")
            }
            return value
        case .file(let path):
            return try Self.readKeyFile(path)
        }
    }

    static func readKeyFile(_ path: String) throws(BackendFailure) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw BackendFailure(.auth, "no API key: the key file \(path) cannot be opened (\(reason))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw BackendFailure(.auth, "no API key: the key file \(path) is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw BackendFailure(.auth, "the key file \(path) is accessible by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 on it")
        }
        guard info.st_uid == getuid() else {
            throw BackendFailure(.auth, "the key file \(path) is not owned by the user running Tandem")
        }
        guard info.st_size <= 16 * 1024 else { throw BackendFailure(.auth, "the key file \(path) is larger than 16 KiB; it should hold only the key") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            guard n > 0 else { break }
            filled += n
        }
        let key = String(decoding: bytes[0..<filled], as: UTF8.self).trimmingSpaces()
        guard !key.isEmpty else { throw BackendFailure(.auth, "no API key: the key file \(path) is empty") }
        guard !key.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            throw BackendFailure(.auth, "the key file \(path) holds more than one line; it should hold only the key")
        }
        return key
    }
}
