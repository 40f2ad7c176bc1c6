import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Synchronization
import Tandem
import Testing

/// The binding never overlaps calls on a backend without `concurrentCalls`: a draft whose budget
/// expired may still be unwinding in the plugin when the next attempt starts.
@Suite struct BackendTurnsTests {
    /// Takes 300 ms whatever happens (as a plugin finishing a forward pass before it polls its
    /// token), answers with a guided draft, and counts overlapping calls.
    final class SlowBackend: Backend {
        let backendID = "slow"
        let info = ModelInfo(id: "slow-model", displayName: "Slow", kind: .local, capabilities: [.guidedJSON],
                             contextLength: 0, embeddingDimensions: 0)
        let running = Mutex(0)
        let mostAtOnce = Mutex(0)

        func availability(locale: String?) -> Availability { .available }

        func generate(_ request: BackendRequest, cancellation: CancellationToken,
                      onEvent: (BackendEvent) -> Bool) throws(BackendFailure) -> BackendResult {
            let now = running.withLock { $0 += 1; return $0 }
            mostAtOnce.withLock { $0 = max($0, now) }
            defer { running.withLock { $0 -= 1 } }
            usleep(300_000)
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled") }
            _ = onEvent(.text(#"{"quote": "A neighbour waters the tomatoes while we are away in June."}"#))
            return BackendResult(finish: .stop, modelVersion: "slow-1", usage: Usage(promptTokens: 1, outputTokens: 1))
        }

        func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] { [] }
        func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int { 1 }
    }

    @Test func aCancelledDraftFinishesBeforeTheNextStarts() async throws {
        let backend = SlowBackend()
        let writer = HostDraftWriter(model: HybridModel(primary: LanguageModel(backend)))
        let first = Task { try await writer.write(DraftRequest(locale: "en"), partial: { _ in }) }
        try await Task.sleep(for: .milliseconds(50))
        first.cancel()
        let second = try await writer.write(DraftRequest(locale: "en"), partial: { _ in })
        #expect(second == .draft(text: "A neighbour waters the tomatoes while we are away in June.", modelVersion: "slow-1"))
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(backend.mostAtOnce.withLock { $0 } == 1)
    }
}
