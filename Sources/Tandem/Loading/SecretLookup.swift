import CTandemABI
import Glibc

/// The host's secrets service (`tandem_host.get_secret`). A plugin names a secret; the host
/// finds it without the secret ever appearing in a config, a command line or a log:
///
/// - an environment variable name (`GEMINI_API_KEY`): that variable's value, or, when it is not
///   set, the contents of the file named by `<NAME>_FILE`;
/// - an absolute path (`/home/me/.config/tandem/gemini.key`): that key file's contents.
///
/// Key files must be owned by the user running the host (or root) and not accessible by group or
/// others (as ssh requires of private keys). One trailing newline is removed.
/// Only the secret's *name* is ever logged.
enum SecretLookup {
    static let maximumFileSize = 64 * 1024

    static func answer(
        name: String, source: String, value: UnsafeMutablePointer<CChar>?, capacity: Int,
        required: UnsafeMutablePointer<Int>?
    ) -> tandem_status {
        let secret: String
        switch lookUp(name) {
        case .success(let found): secret = found
        case .failure(let problem):
            PluginHostServices.log(source: source, .warn, "secret \(name): \(problem.message)")
            return TANDEM_E_AUTH
        }
        let needed = secret.utf8.count + 1
        required?.pointee = needed
        guard let value, capacity >= needed else { return TANDEM_E_BUFFER_TOO_SMALL }
        writeCString(secret, into: value, capacity: capacity)
        return TANDEM_OK
    }

    struct Problem: Error { let message: String }

    static func lookUp(_ name: String) -> Result<String, Problem> {
        if name.hasPrefix("/") { return readKeyFile(name) }
        guard isEnvironmentName(name) else {
            return .failure(Problem(message: "not an environment variable name or an absolute key file path"))
        }
        if let value = getenv(name) { return .success(String(cString: value)) }
        if let file = getenv(name + "_FILE") { return readKeyFile(String(cString: file)) }
        return .failure(Problem(message: "neither \(name) nor \(name)_FILE is set"))
    }

    private static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    private static func readKeyFile(_ path: String) -> Result<String, Problem> {
        guard path.hasPrefix("/") else { return .failure(Problem(message: "key file \(path) is not an absolute path")) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Problem(message: "cannot open key file \(path): \(errnoText())")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Problem(message: "key file \(path) is not a regular file"))
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            return .failure(Problem(message: "key file \(path) is accessible by group or others (mode 0\(String(mode, radix: 8))); run chmod 600"))
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            return .failure(Problem(message: "key file \(path) is owned by uid \(info.st_uid), not by uid \(geteuid()) or root"))
        }
        guard info.st_size <= maximumFileSize else {
            return .failure(Problem(message: "key file \(path) is larger than \(maximumFileSize) bytes"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count == bytes.count else { return .failure(Problem(message: "cannot read key file \(path): \(errnoText())")) }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self), !text.isEmpty, !text.utf8.contains(0) else {
            return .failure(Problem(message: "key file \(path) is empty or not UTF-8 text"))
        }
        return .success(text)
    }
}
