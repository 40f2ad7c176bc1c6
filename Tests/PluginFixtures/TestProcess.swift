import Foundation
import Glibc
import Synchronization
import Tandem

/// One child process of a test: started with posix_spawn, its stdout and stderr read at once by a
/// thread of its own (a child that fills one pipe never blocks while the other is read), its
/// stdin /dev/null, a given text, or fed by `send`.
///
/// Why not Foundation's `Process`: on Linux its `run()` lists /proc/self/fd to close every other
/// descriptor in the child, and copies each entry's full 256-byte name out of readdir's 32 KiB
/// buffer. With about 1350 descriptors open the last entry sits at the end of that buffer and
/// the copy can run into an unmapped page: SIGSEGV in memcpy at `Process.run() + 6428`. A
/// parallel `swift test` got there: 193 isolated backends alive at once, each child holding 7
/// descriptors in the test process (6 sockets and its stderr pipe). posix_spawn here lists
/// nothing; `closefrom` does the closing in the child.
public final class TestProcess: Sendable {
    public struct Outcome: Sendable {
        /// The exit status, or the signal number when a signal ended the child (as Foundation's
        /// `terminationStatus`).
        public var status: Int32
        /// True when a signal ended the child.
        public var signaled: Bool
        public var stdout: String
        public var stderr: String

        /// stdout as one JSON object.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
                throw CommandFailure(message: "stdout is not one JSON object: \(stdout)")
            }
            return object
        }
    }

    public enum Input: Sendable {
        /// /dev/null.
        case none
        /// The text, then end of input.
        case text(String)
        /// A pipe kept open for `send` until `closeInput` or `wait`.
        case interactive
    }

    /// How many run-to-completion children may run at once: a parallel test run starts far more
    /// than two cores can serve, and a waiting run holds no descriptor.
    public static let slots = DispatchSemaphore(value: 8)

    /// A write to the stdin of a child that has exited must fail with EPIPE, not kill the tests
    /// (each child gets default signal handling back).
    private static let pipeSignalIgnored: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    public let pid: pid_t
    private let input: Mutex<Int32?>
    /// What the reader thread fills; it holds this, not the process, so dropping an interactive
    /// process ends its child.
    private final class Captured: Sendable {
        let stdout = Mutex(Data())
        let stderr = Mutex(Data())
        let ended = Mutex<(status: Int32, signaled: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
    private let captured = Captured()

    /// Starts `executable arguments` in `directory` (this process's when nil), with this
    /// process's environment plus `environment`.
    public init(_ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
                input: Input = .none, onEnd: @escaping @Sendable () -> Void = {}) throws {
        Self.pipeSignalIgnored
        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [0, 0]
            guard GNU.pipe2(&fds, O_CLOEXEC) == 0 else { throw CommandFailure(message: "pipe2: \(String(cString: strerror(errno)))") }
            return (fds[0], fds[1])
        }
        let out = try pipePair()
        let err: (read: Int32, write: Int32)
        do { err = try pipePair() } catch { close(out.read); close(out.write); throw error }
        var stdinPipe: (read: Int32, write: Int32)?
        if case .none = input {} else {
            do { stdinPipe = try pipePair() } catch { [out.read, out.write, err.read, err.write].forEach { close($0) }; throw error }
        }
        defer { [out.write, err.write, stdinPipe?.read].compactMap { $0 }.forEach { close($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Nothing else: another test's pipe inherited by this child would keep that test's
        // reader waiting for an end of file until this child exits.
        _ = GNU.addclosefrom(&actions, 3)
        if let directory { _ = GNU.addchdir(&actions, directory) }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let pid: pid_t
        let entries = variables.map { "\($0.key)=\($0.value)" }
        switch spawnProcess(executable, arguments, environment: entries, actions: &actions, ownProcessGroup: false) {
        case .success(let child): pid = child
        case .failure(let error):
            [out.read, err.read, stdinPipe?.write].compactMap { $0 }.forEach { close($0) }
            throw CommandFailure(message: "cannot start \(executable): \(error)")
        }
        self.pid = pid
        let child = pid
        if case .text(let text) = input, let stdinPipe {
            // A writer of its own: a child that reads nothing must not block this one.
            let bytes = Array(text.utf8)
            Thread.detachNewThread {
                _ = bytes.withUnsafeBytes { Self.writeAll(stdinPipe.write, $0) }
                close(stdinPipe.write)
            }
            self.input = Mutex(nil)
        } else {
            self.input = Mutex(stdinPipe?.write)
        }
        let captured = captured
        Thread.detachNewThread { Self.readUntilExit(child, out.read, err.read, captured, onEnd) }
    }

    deinit {
        if captured.ended.withLock({ $0 }) == nil { kill(pid, SIGKILL) }
        closeInput()
    }

    /// Reads both pipes to their end, then reaps the child.
    private static func readUntilExit(_ pid: pid_t, _ out: Int32, _ err: Int32, _ captured: Captured, _ onEnd: @Sendable () -> Void) {
        var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    continue
                }
                let data = Data(chunk[0..<count])
                if index == 0 { captured.stdout.withLock { $0.append(data) } } else { captured.stderr.withLock { $0.append(data) } }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        captured.ended.withLock { $0 = signal == 0 ? ((status >> 8) & 0xFF, false) : (signal, true) }
        onEnd()
        captured.done.signal()
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes `text` to an interactive child's stdin.
    public func send(_ text: String) {
        input.withLock { fd in
            guard let fd else { return }
            _ = Array(text.utf8).withUnsafeBytes { Self.writeAll(fd, $0) }
        }
    }

    public func closeInput() {
        input.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }

    public func signal(_ number: Int32) { kill(pid, number) }

    public var isRunning: Bool { captured.ended.withLock { $0 } == nil }
    public var stdout: String { captured.stdout.withLock { String(decoding: $0, as: UTF8.self) } }
    public var stderr: String { captured.stderr.withLock { String(decoding: $0, as: UTF8.self) } }

    public func waitFor(stdout text: String, seconds: Double = 30) throws { try waitFor(text, "stdout", seconds) { $0.stdout } }
    public func waitFor(stderr text: String, seconds: Double = 30) throws { try waitFor(text, "stderr", seconds) { $0.stderr } }

    private func waitFor(_ text: String, _ stream: String, _ seconds: Double, _ captured: (TestProcess) -> String) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !captured(self).contains(text) {
            guard Date() < deadline, isRunning else {
                throw CommandFailure(message: "no \"\(text)\" on \(stream): \(captured(self))")
            }
            usleep(10_000)
        }
    }

    /// Ends the input, waits for the child to exit and its pipes to close; blocks.
    public func wait() -> Outcome {
        closeInput()
        captured.done.wait()
        captured.done.signal()
        let (status, signaled) = captured.ended.withLock { $0! }
        return Outcome(status: status, signaled: signaled, stdout: stdout, stderr: stderr)
    }

    /// Runs a child to its end on the calling thread, holding one of `slots` while it runs.
    public static func runBlocking(_ executable: String, _ arguments: [String], in directory: String? = nil,
                                   environment: [String: String] = [:], input: Input = .none,
                                   interruptAfter: Duration? = nil) throws -> Outcome {
        slots.wait()
        let child: TestProcess
        do {
            child = try TestProcess(executable, arguments, in: directory, environment: environment, input: input,
                                    onEnd: { slots.signal() })
        } catch {
            slots.signal()
            throw error
        }
        if let interruptAfter {
            let (seconds, attoseconds) = interruptAfter.components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            child.signal(SIGINT)
        }
        return child.wait()
    }

    /// `runBlocking` on a thread of its own: waiting for a child must not hold one of the few
    /// threads of Swift's cooperative pool that every other test in the process needs.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:], input: Input = .none,
                           interruptAfter: Duration? = nil) async throws -> Outcome {
        try await runOffThePool {
            try runBlocking(executable, arguments, in: directory, environment: environment, input: input, interruptAfter: interruptAfter)
        }
    }
}

/// glibc functions the Swift Glibc module leaves out (they are declared only under _GNU_SOURCE),
/// looked up once; glibc 2.34 and later has all three.
private enum GNU {
    private static func function<T>(_ name: String, _ type: T.Type) -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
    static let pipe2 = function("pipe2", (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    static let addclosefrom = function("posix_spawn_file_actions_addclosefrom_np",
                                       (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    static let addchdir = function("posix_spawn_file_actions_addchdir_np",
                                   (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}

/// Runs blocking work (a child process, starting or stopping a server) on a thread of its own and
/// awaits it, so it never holds one of the cooperative pool's threads.
public func runOffThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
