import Foundation
import Tandem
import Testing

@testable import TandemServer

/// A backend without concurrent calls behind its bounded queue, on the real fake plugin.
@Suite struct QueuedBackendTests {
    static let pluginsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("plugins.d").path

    static func slowBackend() throws -> any Backend {
        let catalog = PluginLoader(directory: pluginsDirectory).load()
        let plugin = try #require(catalog.plugin(id: "tandem.fake"))
        return try plugin.openModel(backendID: "slow", settings: ["kind": "local", "reply": "one two three four", "token_delay_ms": "100"])
    }

    static func generate(_ backend: any Backend, _ token: CancellationToken = CancellationToken()) -> Result<String, BackendFailure> {
        var text = ""
        do throws(BackendFailure) {
            _ = try backend.generate(BackendRequest(messages: [.user("go")]), cancellation: token) { event in
                if case .text(let piece) = event { text += piece }
                return true
            }
            return .success(text)
        } catch {
            return .failure(error)
        }
    }

    /// Runs `body` on a thread of its own (a blocking plugin call must not hold one of the
    /// cooperative pool's few threads, or the calls would never overlap).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    @Test func callsTakeTurnsAndAFullQueueIsRefused() async throws {
        let queued = QueuedBackend(try Self.slowBackend(), depth: 1)
        let calls = (0..<3).map { index in
            Task {
                try? await Task.sleep(for: .milliseconds(100 * index))
                return await Self.onThread { Self.generate(queued) }
            }
        }
        var all: [Result<String, BackendFailure>] = []
        for call in calls { all.append(await call.value) }
        // Without the queue, the plugin refuses the overlapping call; with it, two are served in
        // turn and the third finds the one waiting place taken.
        #expect(all.compactMap { try? $0.get() } == ["one two three four", "one two three four"])
        let refused = all.compactMap { if case .failure(let failure) = $0 { failure } else { nil } }
        #expect(refused.map(\.status) == [.concurrentRequests])
        #expect(refused.first?.message.contains("queue depth 1") == true)
    }

    @Test func aWaitingCallGivesUpWhenCancelled() async throws {
        let queued = QueuedBackend(try Self.slowBackend(), depth: 4)
        let running = Task { await Self.onThread { Self.generate(queued) } }
        try await Task.sleep(for: .milliseconds(100))
        let token = CancellationToken()
        let waiting = Task { await Self.onThread { Self.generate(queued, token) } }
        try await Task.sleep(for: .milliseconds(100))
        #expect(queued.queued == 1)
        let cancelledAt = ContinuousClock.now
        token.cancel()
        guard case .failure(let failure) = await waiting.value else {
            Issue.record("the cancelled call was served")
            return
        }
        #expect(failure.status == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(300))  // not after the running call's 400 ms
        #expect(try await running.value.get() == "one two three four")
    }
}
