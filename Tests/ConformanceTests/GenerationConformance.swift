import CTandemABI
import Dispatch
import Tandem
import Testing

extension ConformanceSuite {
    /// `generate` called directly: the stream, stop, cancel and concurrency rules.
    @Suite struct Generation {
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aPlainGenerationStreamsTextAndReportsItsEnd(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            let cancel = TestCancel()
            let outcome = rawGenerate(backend.model, stream: stream, cancel: cancel)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            #expect(stream.problems.isEmpty, "\(stream.problems)")
            #expect(stream.textEventCount > 0)
            let finish = try #require(outcome.result).finish
            #expect([TANDEM_FINISH_STOP, TANDEM_FINISH_MAX_TOKENS, TANDEM_FINISH_STOP_SEQUENCE].contains(finish))
            #expect(!outcome.modelVersion.isEmpty)
            #expect(outcome.resultGuardIntact && outcome.versionGuardIntact)
            #expect(!cancel.wakerRegistered, "a waker was left registered after return")
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func nullStreamCancelResultAndErrorAreAllowed(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let outcome = rawGenerate(backend.model, stream: nil, cancel: nil, resultSize: nil, errorSize: nil)
            #expect(outcome.status == TANDEM_OK)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func requiredNullArgumentsAreRefusedWithAMessage(_ id: String) throws {
            let backend = try ConformanceEnvironment.open(id)
            let model = backend.model
            let (status, failure) = BackendFailure.capture { error in model.pointee.generate!(model, nil, nil, nil, nil, error) }
            #expect(status == TANDEM_E_INVALID_ARGUMENT)
            #expect(!failure.message.isEmpty)
            #expect(model.pointee.availability!(model, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
            let empty = BackendRequest(messages: [])
            let outcome = rawGenerate(model, empty)
            #expect(outcome.status == TANDEM_E_INVALID_ARGUMENT)
            #expect(!outcome.errorMessage.isEmpty)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func stoppingAtTheFirstEventEndsTheCallWithoutAnError(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            stream.decide = { _, _ in TANDEM_STOP }
            let outcome = rawGenerate(backend.model, stream: stream)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            #expect(outcome.result?.finish == TANDEM_FINISH_CALLBACK)
            #expect(stream.events.count == 1)
            #expect(stream.problems.isEmpty, "\(stream.problems)")
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func maxTokensBoundsTheText(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            var request = conformancePrompt
            request.options.maxTokens = 1
            let stream = RecordingStream()
            let outcome = rawGenerate(backend.model, request, stream: stream)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            #expect(stream.textEventCount <= 1)
            #expect([TANDEM_FINISH_MAX_TOKENS, TANDEM_FINISH_STOP].contains(outcome.result?.finish ?? -1))
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aTokenCancelledBeforeTheCallEndsItAtOnce(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            let cancel = TestCancel()
            cancel.cancel()
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = rawGenerate(backend.model, stream: stream, cancel: cancel)
            #expect(clock.now - start < .milliseconds(100))
            #expect(outcome.status == TANDEM_E_CANCELLED)
            #expect(outcome.result?.finish == TANDEM_FINISH_CANCELLED)
            #expect(stream.textEventCount == 0)
            #expect(!cancel.wakerRegistered)
        }

        /// Cancelled from the first event: the next poll must end the call.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aTokenCancelledDuringTheCallEndsItWithin100Milliseconds(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            let cancel = TestCancel()
            let clock = ContinuousClock()
            var cancelledAt: ContinuousClock.Instant?
            var eventsAtCancel = 0
            stream.decide = { index, _ in
                if cancelledAt == nil {
                    cancelledAt = clock.now
                    eventsAtCancel = index + 1
                    cancel.cancel()
                }
                return TANDEM_CONTINUE
            }
            let outcome = rawGenerate(backend.model, stream: stream, cancel: cancel)
            let returned = clock.now
            #expect(outcome.status == TANDEM_E_CANCELLED, "\(outcome.status): \(outcome.errorMessage)")
            #expect(outcome.result?.finish == TANDEM_FINISH_CANCELLED)
            #expect(returned - (cancelledAt ?? returned) < .milliseconds(100))
            #expect(stream.textEventCount <= eventsAtCancel + 1, "text kept coming after the cancel")
            #expect(!cancel.wakerRegistered)
        }

        /// A second call while the first runs is refused, unless the model declares concurrent calls.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anOverlappingCallIsRefusedUnlessDeclared(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let concurrent = backend.info.capabilities.contains(.concurrentCalls)
            let model = UncheckedModel(pointer: backend.model)
            let stream = RecordingStream()
            let second = SecondCall()
            stream.decide = { index, _ in
                if index == 0 {
                    // From another thread, while this call is inside its callback.
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        second.status = rawGenerate(model.pointer).status
                        done.signal()
                    }
                    second.finished = done.wait(timeout: .now() + 10) == .success
                }
                return TANDEM_CONTINUE
            }
            let outcome = rawGenerate(backend.model, stream: stream)
            #expect(outcome.status == TANDEM_OK)
            #expect(second.finished, "the overlapping call blocked instead of answering")
            #expect(second.status == (concurrent ? TANDEM_OK : TANDEM_E_CONCURRENT_REQUESTS))
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aDeterministicModelRepeatsItself(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id), backend.info.capabilities.contains(.deterministic) else { return }
            var request = conformancePrompt
            request.options.seed = 42
            let first = RecordingStream()
            let second = RecordingStream()
            _ = rawGenerate(backend.model, request, stream: first)
            _ = rawGenerate(backend.model, request, stream: second)
            #expect(first.text == second.text)
            #expect(!first.text.isEmpty)
        }

        /// The error message buffer is honoured to the byte, however small.
        @Test(arguments: ConformanceEnvironment.pluginIDs, [0, 1, 5])
        func errorMessagesFitTheCallersBuffer(_ id: String, capacity: Int) throws {
            let backend = try ConformanceEnvironment.open(id)
            let outcome = rawGenerate(backend.model, BackendRequest(messages: []), errorCapacity: capacity)
            #expect(outcome.status == TANDEM_E_INVALID_ARGUMENT)
            #expect(outcome.errorGuardBytesIntact)
            if capacity > 0 { #expect(outcome.errorMessage.utf8.count < capacity) }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, [1, 4])
        func theModelVersionFitsTheCallersBuffer(_ id: String, capacity: Int) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let outcome = rawGenerate(backend.model, versionCapacity: capacity)
            #expect(outcome.status == TANDEM_OK)
            #expect(outcome.versionGuardIntact)
            #expect(outcome.modelVersion.utf8.count < capacity)
        }
    }
}

/// A model pointer handed to another thread for the overlap check.
private struct UncheckedModel: @unchecked Sendable {
    let pointer: UnsafePointer<tandem_model>
}

/// The overlapping call's outcome, written by its thread before it signals.
private final class SecondCall: @unchecked Sendable {
    var status: tandem_status = 1
    var finished = false
}
