import Dispatch
import Foundation
import Synchronization
import Tandem
import Testing

extension ConformanceSuite {
    /// Every plugin through the `Backend` the host routes over, in both isolation modes: in the
    /// host's process (`PluginBackend`) and in a child process (`ProcessBackend`). An isolated
    /// backend must be indistinguishable from the same plugin in-process.
    @Suite struct BackendContract {
        static let cases: [(String, BackendIsolation)] = ConformanceEnvironment.pluginIDs.flatMap { id in
            BackendIsolation.allCases.map { (id, $0) }
        }

        /// Greedy and seeded, so that deterministic models give the same text in both modes.
        static let request: BackendRequest = {
            var request = conformancePrompt
            request.options = BackendOptions(sampling: .greedy, seed: 7, maxTokens: 24)
            return request
        }()

        struct Run {
            var text = ""
            var events = 0
            var result: BackendResult?
            var failure: BackendFailure?
        }

        static func generate(_ backend: any Backend, _ request: BackendRequest = request, cancellation: CancellationToken = CancellationToken(),
                             onEvent: (Int) -> Bool = { _ in true }) -> Run {
            var run = Run()
            do {
                run.result = try backend.generate(request, cancellation: cancellation) { event in
                    if case .text(let text) = event { run.text += text }
                    run.events += 1
                    return onEvent(run.events)
                }
            } catch {
                run.failure = error
            }
            return run
        }

        @Test(arguments: cases)
        func infoAndAvailabilityMatchTheInProcessBackend(_ id: String, _ isolation: BackendIsolation) throws {
            let reference = try ConformanceEnvironment.open(id)
            let backend = try ConformanceEnvironment.backend(id, isolation)
            #expect(backend.info == reference.info)
            for locale in [nil, "en", "zz-Invalid"] as [String?] {
                let (got, expected) = (backend.availability(locale: locale), reference.availability(locale: locale))
                switch (got, expected) {
                case (.available, .available): break
                case (.unavailable(let a, _, _), .unavailable(let b, _, _)): #expect(a == b, "locale \(locale ?? "nil")")
                default: Issue.record("locale \(locale ?? "nil"): \(got) in \(isolation), \(expected) in-process")
                }
            }
        }

        @Test(arguments: cases)
        func aGenerationStreamsTextAndEndsAsInProcess(_ id: String, _ isolation: BackendIsolation) throws {
            guard let reference = try ConformanceEnvironment.generating(id) else { return }
            let backend = try ConformanceEnvironment.backend(id, isolation)
            let run = Self.generate(backend)
            #expect(run.failure == nil, "\(run.failure.map(String.init(describing:)) ?? "")")
            #expect(!run.text.isEmpty)
            let result = try #require(run.result)
            #expect([FinishReason.stop, .maxTokens, .stopSequence].contains(result.finish))
            #expect(!result.modelVersion.isEmpty)
            if reference.info.capabilities.contains(.deterministic) {
                let expected = Self.generate(reference)
                #expect(run.text == expected.text)
                #expect(result == expected.result)
            }
        }

        /// The consumer's stop after the first event: no later event reaches it, no error.
        @Test(arguments: cases)
        func stoppingAtTheFirstEventEndsTheCall(_ id: String, _ isolation: BackendIsolation) throws {
            guard try ConformanceEnvironment.generating(id) != nil else { return }
            let backend = try ConformanceEnvironment.backend(id, isolation)
            let run = Self.generate(backend) { _ in false }
            #expect(run.failure == nil, "\(run.failure.map(String.init(describing:)) ?? "")")
            #expect(run.events == 1)
            #expect(run.result?.finish == .callback)
            // The backend serves the next call as usual.
            #expect(Self.generate(backend).failure == nil)
        }

        @Test(arguments: cases)
        func aCancelDuringTheCallEndsItWithin100Milliseconds(_ id: String, _ isolation: BackendIsolation) throws {
            guard try ConformanceEnvironment.generating(id) != nil else { return }
            let backend = try ConformanceEnvironment.backend(id, isolation)
            let token = CancellationToken()
            var cancelledAt: ContinuousClock.Instant?
            var eventsAtCancel = 0
            let run = Self.generate(backend, cancellation: token) { events in
                if cancelledAt == nil {
                    cancelledAt = .now
                    eventsAtCancel = events
                    token.cancel()
                }
                return true
            }
            let returned = ContinuousClock.now
            #expect(run.failure?.status == .cancelled || run.result?.finish == .cancelled, "\(run)")
            #expect(returned - (cancelledAt ?? returned) < .milliseconds(100))
            #expect(run.events <= eventsAtCancel + 1, "text kept coming after the cancel")
        }

        /// A second call while the first runs is refused, unless the model declares concurrent calls.
        @Test(arguments: cases)
        func anOverlappingCallIsRefusedUnlessDeclared(_ id: String, _ isolation: BackendIsolation) throws {
            guard try ConformanceEnvironment.generating(id) != nil else { return }
            let backend = try ConformanceEnvironment.backend(id, isolation)
            let concurrent = backend.info.capabilities.contains(.concurrentCalls)
            let second = Mutex<Run?>(nil)
            let first = Self.generate(backend) { events in
                if events == 1 {
                    let done = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        let run = Self.generate(backend)
                        second.withLock { $0 = run }
                        done.signal()
                    }
                    #expect(done.wait(timeout: .now() + 30) == .success, "the overlapping call blocked instead of answering")
                }
                return true
            }
            #expect(first.failure == nil)
            let overlapping = try #require(second.withLock { $0 })
            if concurrent {
                #expect(overlapping.failure == nil, "\(overlapping)")
            } else {
                #expect(overlapping.failure?.status == .concurrentRequests, "\(overlapping)")
            }
        }

        @Test(arguments: cases)
        func embeddingsAndTokenCountsMatchTheInProcessBackend(_ id: String, _ isolation: BackendIsolation) throws {
            guard let reference = try ConformanceEnvironment.generating(id) else { return }
            let backend = try ConformanceEnvironment.backend(id, isolation)
            if reference.info.capabilities.contains(.embeddings) {
                let texts = ["a quiet morning", "Ünïcode ✓"]
                let vectors = try backend.embed(texts, cancellation: CancellationToken())
                #expect(vectors.count == 2)
                #expect(vectors.allSatisfy { $0.count == reference.info.embeddingDimensions })
                if reference.info.capabilities.contains(.deterministic) {
                    #expect(vectors == (try reference.embed(texts, cancellation: CancellationToken())))
                }
            } else {
                #expect(throws: BackendFailure.self) { _ = try backend.embed(["x"], cancellation: CancellationToken()) }
            }
            if reference.info.capabilities.contains(.tokenCounting) {
                #expect(try backend.countTokens(Self.request) == (try reference.countTokens(Self.request)))
            } else {
                #expect(throws: BackendFailure.self) { _ = try backend.countTokens(Self.request) }
            }
        }
    }
}
