import Foundation
import PluginFixtures
import Synchronization
import Testing
@testable import Tandem

/// Waiting for a model that is getting ready on its own (`ModelPreparation`), as one-shot
/// commands do before they route: while its progress moves, not once it stalls, never past a
/// cancellation.
@Suite struct ModelPreparationTests {
    /// `modelNotReady` with progress advancing by `step` per availability call until it reaches
    /// 1, then available; with `step` 0 the progress never moves.
    final class Preparing: Backend {
        let backendID = "local"
        let info = ModelInfo(id: "preparing", displayName: "preparing", kind: .local, capabilities: [], contextLength: 0, embeddingDimensions: 0)
        let step: Double
        let calls = Mutex(0)
        init(step: Double) { self.step = step }

        func availability(locale: String?) -> Availability {
            let fraction = calls.withLock { calls in
                calls += 1
                return min(1, Double(calls - 1) * step)
            }
            return fraction >= 1 ? .available : .unavailable(.modelNotReady, detail: "unverified: checking", progress: fraction)
        }
        func generate(_ r: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool) throws(BackendFailure) -> BackendResult {
            throw BackendFailure(.unsupportedOption, "not used")
        }
        func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] { [] }
        func countTokens(_ r: BackendRequest) throws(BackendFailure) -> Int { 0 }
    }

    @Test func waitsWhileTheProgressMovesUntilTheModelIsAvailable() async throws {
        let model = LanguageModel(Preparing(step: 0.25))
        var seen: [Double] = []
        try await ModelPreparation.wait(for: [model, nil], locale: nil, cancellation: CancellationToken(), pollInterval: .milliseconds(1)) {
            seen.append($0.fraction)
        }
        #expect(seen == [0, 0.25, 0.5, 0.75])
        #expect(model.isAvailable)
    }

    @Test func aStalledModelIsNoLongerWaitedFor() async throws {
        let model = LanguageModel(Preparing(step: 0))
        let clock = ManualClock()
        let waiting = Task {
            try await ModelPreparation.wait(
                for: [model], locale: nil, cancellation: CancellationToken(), stallLimit: .milliseconds(200),
                pollInterval: .milliseconds(5), clock: clock.standard)
        }
        // Still polling at every 5 ms up to 195 ms without progress; the poll at 200 ms gives up.
        for _ in 0..<40 {
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(5))
        }
        try await waiting.value
        #expect(clock.now == .milliseconds(200))
        #expect(!model.isAvailable)
    }

    @Test func anAvailableOrOtherwiseUnavailableModelIsNotWaitedFor() async throws {
        let ready = LanguageModel(try RecordingBackend(id: "local", settings: ["kind": "local"]))
        let missingKey = LanguageModel(try RecordingBackend(id: "cloud", settings: ["kind": "cloud", "availability": "notConfigured"]))
        var calls = 0
        try await ModelPreparation.wait(for: [ready, missingKey], locale: nil, cancellation: CancellationToken()) { _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test func cancellationEndsTheWaitWithCancelled() async throws {
        let token = CancellationToken()
        let model = LanguageModel(Preparing(step: 0.0001))
        let canceller = Task {
            try await Task.sleep(for: .milliseconds(100))
            token.cancel()
        }
        let error = await #expect(throws: TandemError.self) {
            try await ModelPreparation.wait(for: [model], locale: nil, cancellation: token, pollInterval: .milliseconds(5))
        }
        #expect(error?.code == .cancelled)
        #expect(error?.message == "cancelled while waiting for local to get ready")
        _ = try await canceller.value
    }
}
