import GuidedJSON
import Testing
import Tandem

/// A guided or tool request holds the session for its whole length and can be cancelled.
@Suite struct SessionLifecycleTests {
    @Test func sessionStaysBusyWhileAToolRuns() async throws {
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let calls = #"[{"name": "weather", "arguments": {"city": "Bern"}}]"#
        let session = try FakePlugin.session(
            ["tool_calls": calls, "reply": "Windy."], tools: [GateTool(entered: enteredContinuation, release: release)])
        let first = Task { try await session.respond(to: "Weather in Bern?") }
        for await _ in entered { break }
        #expect(session.isResponding)
        let overlap = await #expect(throws: TandemError.self) { try await session.respond(to: "Another?") }
        #expect(overlap?.code == .concurrentRequests)
        releaseContinuation.yield()
        #expect(try await first.value.content == "Windy.")
        #expect(!session.isResponding)
    }

    @Test func droppingAGuidedStreamCancelsTheHangingPlugin() async throws {
        let session = try FakePlugin.session(["hang": "true", "guided_reply": "{}"])
        let consumer = Task {
            for try await _ in session.streamResponse(to: "Weather?", generating: Forecast.self) {}
        }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        consumer.cancel()
        _ = await consumer.result
        // The session is released once the plugin noticed the cancellation.
        // The plugin hangs forever: being released at all proves the cancellation reached it (the
        // bound is loose because tests share two cores; the ABI conformance suite times 100 ms).
        while session.isResponding && ContinuousClock.now - start < .seconds(20) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!session.isResponding)
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test func cancellingAGuidedRespondEndsWithCancelled() async throws {
        let session = try FakePlugin.session(["hang": "true", "guided_reply": "{}"])
        let task = Task { try await session.respond(to: "Weather?", generating: Forecast.self) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let error = await #expect(throws: TandemError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(session.transcript.entries.isEmpty)
    }
}
