@testable import CloudHTTPSCore
import MockCloudServer
import Foundation
import TandemBridge
import TandemPluginKit
import Testing

/// Offline classification, TLS, timeouts, cancellation and early stop, through the real
/// libcurl transport.
@Suite struct TransportTests {
    /// A loopback port nobody listens on (bound, then closed).
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        close(fd)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test(arguments: DialectKind.allCases)
    func connectionRefusedIsOffline(dialect: DialectKind) throws {
        let path = dialect == .gemini ? "v1beta" : "v1"
        let model = try ModelFactory.open(ModelFactory.settings(dialect, token: "x", ["base_url": "https://127.0.0.1:\(Self.closedPort())/\(path)"]))
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .offline, "\(String(describing: failure))")
        #expect(failure?.httpStatus == 0)
        #expect(throws: BackendFailure.self) { try model.embed(["x"], cancellation: .init(nil)) }
    }

    @Test func unresolvableHostIsOffline() throws {
        let model = try ModelFactory.open(ModelFactory.settings(.gemini, token: "x", ["base_url": "https://tandem-no-such-host.invalid/v1beta", "connect_timeout_ms": "3000"]))
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .offline, "\(String(describing: failure))")
    }

    /// A loopback listener whose accept queue is full: further SYNs are dropped, so a connect
    /// hangs until its timeout, as with a host that does not answer. (Remote addresses cannot
    /// stand in for this where a sandbox answers every TCP connect itself.)
    static func withUnansweredPort<R>(_ body: (Int) throws -> R) rethrows -> R {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        listen(listener, 0)
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            fillers.append(fd)
        }
        usleep(50_000)
        defer {
            fillers.forEach { close($0) }
            close(listener)
        }
        return try body(Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func connectTimeoutIsOffline() throws {
        try Self.withUnansweredPort { port in
            let model = try ModelFactory.open(ModelFactory.settings(.gemini, token: "x", ["base_url": "https://127.0.0.1:\(port)/v1beta", "connect_timeout_ms": "300"]))
            let started = MonotonicClock.nowMilliseconds()
            let failure = GenerationRun.run(model, .prompt("x")).failure
            #expect(failure?.status == .offline, "\(String(describing: failure))")
            #expect(failure?.message.contains("connect") == true)
            #expect(MonotonicClock.nowMilliseconds() - started < 2_000)
        }
    }

    @Test func untrustedCertificateIsTLSNotOffline() throws {
        let token = MockServer.token("ok")
        let model = try ModelFactory.open(ModelFactory.settings(.gemini, token: token, ["ca_file": ""]))
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .tls, "\(String(describing: failure))")
        #expect(try MockServer.shared.requests(token).isEmpty)
    }

    @Test func firstByteTimeout() throws {
        let (model, _) = try ModelFactory.mock(.openai, "slow", ["first_byte_timeout_ms": "300"])
        let started = MonotonicClock.nowMilliseconds()
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .timeout, "\(String(describing: failure))")
        #expect(MonotonicClock.nowMilliseconds() - started < 1_500)
    }

    @Test(arguments: DialectKind.allCases)
    func idleTimeoutBetweenEvents(dialect: DialectKind) throws {
        let (model, _) = try ModelFactory.mock(dialect, "stall", ["idle_timeout_ms": "300"])
        let run = GenerationRun.run(model, .prompt("x"))
        #expect(run.failure?.status == .timeout, "\(String(describing: run.failure))")
        #expect(run.failure?.message.contains("no data for 300 ms") == true)
        #expect(!run.recorder.text.isEmpty)  // the first part had arrived
    }

    @Test func totalDeadlineFromTheRequest() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "stall")
        let started = MonotonicClock.nowMilliseconds()
        let run = GenerationRun.run(model, .prompt("x", options: BackendOptions(extras: ["cloud.deadline_ms": "400"])))
        #expect(run.failure?.status == .timeout)
        #expect(MonotonicClock.nowMilliseconds() - started < 1_500)
        let bad = GenerationRun.run(model, .prompt("x", options: BackendOptions(extras: ["cloud.deadline_ms": "soon"])))
        #expect(bad.failure?.status == .invalidArgument)
        #expect(bad.failure?.message.contains("cloud.deadline_ms") == true)
    }

    /// Cancels from another thread after `delay` ms; returns how long generate took after that.
    static func cancelLatency(_ scenario: String, _ extra: [String: String] = [:], afterFirstEvent: Bool = false, delay: Int64 = 300) throws -> (BackendFailure?, Int64, TestCancelToken) {
        let (model, _) = try ModelFactory.mock(.gemini, scenario, extra)
        let token = TestCancelToken()
        let recorder = EventRecorder()
        let cancelledAt = ManagedAtomicInt64()
        func scheduleCancel() {
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: Double(delay) / 1000)
                cancelledAt.store(MonotonicClock.nowMilliseconds())
                token.cancel()
            }
        }
        if afterFirstEvent {
            recorder.onEvent = { _ in if recorder.events.count == 1 { scheduleCancel() } }
        } else {
            scheduleCancel()
        }
        let run = GenerationRun.run(model, .prompt("x"), recorder: recorder, cancel: token)
        return (run.failure, MonotonicClock.nowMilliseconds() - cancelledAt.load(), token)
    }

    @Test func cancellationBeforeAnyResponseReturnsWithin200ms() throws {
        let (failure, latency, token) = try Self.cancelLatency("hang")
        #expect(failure?.status == .cancelled)
        #expect(latency < 200, "returned \(latency) ms after cancel")
        #expect(token.wakerRegistrations == 1)
        #expect(!token.wakerRegistered)  // unregistered before returning
    }

    @Test func cancellationMidStreamReturnsWithin200ms() throws {
        let (failure, latency, _) = try Self.cancelLatency("hang-stream", afterFirstEvent: true)
        #expect(failure?.status == .cancelled)
        #expect(latency < 200, "returned \(latency) ms after cancel")
    }

    @Test func cancellationDuringRetryWaitReturnsWithin200ms() throws {
        let (failure, latency, _) = try Self.cancelLatency("unavailable", ["retry_base_delay_ms": "10000", "retry_max_delay_ms": "10000"])
        #expect(failure?.status == .cancelled)
        #expect(latency < 200, "returned \(latency) ms after cancel")
    }

    @Test func aServerHangingUpDuringTheUploadIsAServerError() throws {
        let (model, _) = try ModelFactory.mock(.gemini, "close-early")
        let prompt = String(repeating: "a long prompt ", count: 600_000)  // ~8 MB to write
        let failure = GenerationRun.run(model, .prompt(prompt)).failure
        #expect(failure?.status == .serverError, "\(String(describing: failure))")
    }

    @Test(arguments: DialectKind.allCases)
    func cancellingFromInsideTheCallbackEndsTheCallBeforeTheNextEvent(dialect: DialectKind) throws {
        let (model, _) = try ModelFactory.mock(dialect, "ok")
        let cancel = TestCancelToken()
        let recorder = EventRecorder()
        recorder.onEvent = { _ in cancel.cancel() }
        let run = GenerationRun.run(model, .prompt("three pieces arrive in one read"), recorder: recorder, cancel: cancel)
        #expect(run.failure?.status == .cancelled)
        #expect(run.recorder.events.count == 1)
    }

    @Test func aTokenCancelledBeforeTheCallSendsNothing() throws {
        let (model, token) = try ModelFactory.mock(.gemini, "ok")
        let cancel = TestCancelToken()
        cancel.cancel()
        #expect(GenerationRun.run(model, .prompt("x"), cancel: cancel).failure?.status == .cancelled)
        cancel.withToken { cancelled in
            #expect(throws: BackendFailure(.cancelled, "cancelled before the request was sent")) {
                try model.embed(["x"], cancellation: PluginCancellation(cancelled))
            }
        }
        #expect(try MockServer.shared.requests(token).isEmpty)
        // Cancellation is answered before anything else, a missing key included.
        let (keyless, _) = try ModelFactory.mock(.gemini, "ok", ["api_key_env": "TANDEM_TEST_UNSET_VARIABLE"])
        #expect(GenerationRun.run(keyless, .prompt("x"), cancel: cancel).failure?.status == .cancelled)
    }

    @Test func theHostCanStopAStreamEarly() throws {
        let (model, _) = try ModelFactory.mock(.openai, "ok")
        let recorder = EventRecorder()
        recorder.stopAfter = 1
        let run = GenerationRun.run(model, .prompt("a longer prompt to echo"), recorder: recorder)
        #expect(run.value?.finish == .callback)
        #expect(run.recorder.events.count == 1)
        #expect(run.value?.modelVersion == "gpt-4o-mini-2026-01-01")
    }
}
