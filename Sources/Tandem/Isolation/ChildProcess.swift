import Foundation
import Glibc
import Synchronization

/// One running `tandem-plugin-host` child: its sockets, its stderr drained on a thread of its
/// own (forwarded to ours and its last line kept), and its end (reaped once, described once).
///
/// - Note: Thread-safe. The sockets are the child's fds 3, 4, ...; its stdin is /dev/null and its
///   stdout goes where its stderr goes, so nothing it prints can reach the host's stdout.
final class ChildProcess: Sendable {
    /// The executable: `TANDEM_PLUGIN_HOST` when set (tests, unusual installs), else
    /// `tandem-plugin-host` in the folder of the running binary.
    static var executable: String {
        if let path = getenv("TANDEM_PLUGIN_HOST"), path.pointee != 0 { return String(cString: path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "tandem-plugin-host" }
        let binary = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(binary[..<(binary.lastIndex(of: "/") ?? binary.startIndex)]) + "/tandem-plugin-host"
    }

    let pid: pid_t
    /// Host ends of the child's fds 3, 4, ... in order.
    let sockets: [WireSocket]
    private let stderrTail: StandardErrorTail
    private let ending = Mutex<String?>(nil)

    /// Starts `executable arguments` with `socketCount` socket pairs. Throws the reason it could not.
    init(executable: String = ChildProcess.executable, arguments: [String], socketCount: Int, label: String) throws(BackendFailure) {
        var hostEnds: [Int32] = [], childEnds: [Int32] = []
        defer { childEnds.forEach { _ = close($0) } }
        for _ in 0..<socketCount {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                hostEnds.forEach { _ = close($0) }
                throw BackendFailure(.initFailed, "\(label): cannot create a socket pair: \(errnoText())")
            }
            hostEnds.append(pair[0])
            childEnds.append(Self.aboveChildRange(pair[1], socketCount))
        }
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&errorPipe) == 0, fcntl(errorPipe[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(errorPipe[1], F_SETFD, FD_CLOEXEC) == 0 else {
            hostEnds.forEach { _ = close($0) }
            throw BackendFailure(.initFailed, "\(label): cannot create a pipe: \(errnoText())")
        }
        let errorWrite = Self.aboveChildRange(errorPipe[1], socketCount)
        defer { close(errorWrite) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorWrite, 1)
        posix_spawn_file_actions_adddup2(&actions, errorWrite, 2)
        for (index, fd) in childEnds.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + index)) }
        // The host's environment (secrets, TANDEM_LOG), without the Swift runtime's crash
        // backtracer: a crash report quotes the plugin's last stderr line, not a backtrace.
        var environment: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(String(cString: variable)) }
            entry += 1
        }
        environment.append("SWIFT_BACKTRACE=enable=no")
        // Its own process group, so a Ctrl-C at the terminal reaches only the host, which cancels
        // the call.
        let pid: pid_t
        switch spawnProcess(executable, arguments, environment: environment, actions: &actions, ownProcessGroup: true) {
        case .success(let child): pid = child
        case .failure(let error):
            hostEnds.forEach { _ = close($0) }
            close(errorPipe[0])
            throw BackendFailure(.initFailed, "\(label): cannot start \(executable): \(error)")
        }
        self.pid = pid
        sockets = hostEnds.map(WireSocket.init(fd:))
        stderrTail = StandardErrorTail(fd: errorPipe[0])
    }

    deinit {
        _ = end(killing: true)
    }

    /// An fd the child-side `dup2` can move: one already in the child's target range would be
    /// left in place with its close-on-exec flag set.
    private static func aboveChildRange(_ fd: Int32, _ socketCount: Int) -> Int32 {
        let firstFree = Int32(3 + socketCount)
        guard fd < firstFree else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, firstFree)
        close(fd)
        return moved
    }

    /// Waits for the child to end (killing it first when `killing`, or when it has not ended a
    /// second after its sockets closed) and describes how it ended, with its last stderr line.
    /// Idempotent: every caller gets the first description.
    func end(killing: Bool) -> String {
        ending.withLock { described in
            if let described { return described }
            if killing { kill(pid, SIGKILL) }
            var status: Int32 = 0
            var waited: pid_t = 0
            for _ in 0..<100 {
                waited = waitpid(pid, &status, WNOHANG)
                if waited != 0 { break }
                usleep(10_000)
            }
            if waited == 0 {
                kill(pid, SIGKILL)
                waited = waitpid(pid, &status, 0)
            }
            var text = waited == pid ? Self.describe(status, killedByHost: killing) : "ended (its status could not be read: \(errnoText()))"
            if let line = stderrTail.lastLine(waitingMilliseconds: 200) { text += "; its last stderr line: \(line)" }
            described = text
            return text
        }
    }

    /// "was killed by signal 11 (SIGSEGV)", "exited with status 0".
    static func describe(_ status: Int32, killedByHost: Bool) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
            SIGFPE: "SIGFPE", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGTRAP: "SIGTRAP", SIGPIPE: "SIGPIPE",
        ]
        let text = "was killed by signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
        return signal == SIGKILL && !killedByHost ? text + ", perhaps by the out-of-memory killer" : text
    }
}

/// Reads a child's stderr until it closes, forwarding each line to the host's stderr (a child
/// that writes a megabyte never blocks on a full pipe) and keeping the last non-empty line.
private final class StandardErrorTail: Sendable {
    private struct State {
        var last: String?
        var closed = false
    }
    private let state = Mutex(State())

    init(fd: Int32) {
        let thread = Thread { [self] in drain(fd) }
        thread.start()
    }

    private func drain(_ fd: Int32) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let keep = 1024
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            chunk.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, count) }
            pending.append(contentsOf: chunk[0..<count])
            if let newline = pending.lastIndex(of: UInt8(ascii: "\n")) {
                let lines = pending[..<newline].split(separator: UInt8(ascii: "\n"))
                if let line = lines.last(where: { !$0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") } }) {
                    remember(Array(line.suffix(keep)))
                }
                pending.removeSubrange(...newline)
            }
            if pending.count > keep { pending.removeFirst(pending.count - keep) }
        }
        if !pending.isEmpty { remember(pending) }
        state.withLock { $0.closed = true }
    }

    private func remember(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self).trimmingTrailingWhitespace
        guard !text.isEmpty else { return }
        state.withLock { $0.last = text }
    }

    /// The last line, after waiting up to `waitingMilliseconds` for the pipe to close (a
    /// grandchild may hold it open for ever).
    func lastLine(waitingMilliseconds: Int) -> String? {
        for _ in 0..<(waitingMilliseconds / 5) {
            if state.withLock({ $0.closed }) { break }
            usleep(5_000)
        }
        return state.withLock { $0.last }
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
