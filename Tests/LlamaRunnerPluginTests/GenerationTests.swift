import Synchronization
import Foundation
import Tandem
import Testing

/// Every test that runs the real model, one at a time: they share one loaded model, which serves
/// one call at a time, and timing checks need the CPU to themselves.
@Suite(.serialized) enum RealModelTests {}

/// Generation through the installed plugin on the real model.
extension RealModelTests { @Suite struct Generation {
    let backend: PluginBackend

    init() throws { backend = try RunnerPlugin.shared.get() }
    static let question = [Message(role: .user, content: "What is the capital of France?")]
    /// llama.cpp's greedy answer to `question` (reference greedy.jsonl, line "short_fact").
    static let referenceAnswer = "L'Étoile, la Marseillaise, la femme au roi"

    /// The prompt is the model's template rendered as llama.cpp renders it (the reference prompt
    /// for this question has 37 tokens) and the greedy answer starts as llama.cpp's does.
    @Test func greedyAnswerMatchesTheReferencePromptAndStart() throws {
        let request = BackendRequest(messages: Self.question, options: BackendOptions(sampling: .greedy, maxTokens: 6))
        let (text, events, result) = try backend.collect(request)
        #expect(result.usage.promptTokens == 37)
        #expect(try backend.countTokens(request) == 37)
        #expect(result.usage.outputTokens == 6)
        #expect(result.finish == .maxTokens)
        #expect(result.modelVersion == "smollm2-135m-instruct-q4_1")
        #expect(text.count >= 6 && Self.referenceAnswer.hasPrefix(text), "got \(text)")
        #expect(events.allSatisfy { if case .text(let t) = $0 { !t.isEmpty } else { true } })
        guard case .usage(let usage)? = events.last else { Issue.record("the last event is not usage: \(events)"); return }
        #expect(usage == result.usage)
    }

    /// Same seed, same request: same text; the text differs across seeds for a creative prompt.
    @Test func seededSamplingRepeats() throws {
        let messages = [Message(role: .user, content: "Write one sentence about the sea.")]
        func run(_ seed: UInt64) throws -> String {
            try backend.collect(BackendRequest(messages: messages, options: BackendOptions(temperature: 0.9, seed: seed, maxTokens: 16))).text
        }
        let first = try run(7)
        #expect(try run(7) == first)
        let others = try [8, 9, 10].map { try run($0) }
        #expect(others.contains { $0 != first }, "three other seeds all gave \(first)")
    }

    /// The second turn reuses the first turn's cached prefix; its answer must be what a cold
    /// model (nothing cached) gives for the same conversation.
    @Test func cachedPrefixGivesTheSameAnswerAsAColdStart() throws {
        let first = try backend.collect(BackendRequest(messages: Self.question, options: BackendOptions(sampling: .greedy, maxTokens: 6)))
        let followUp = BackendRequest(
            messages: Self.question + [Message(role: .assistant, content: first.text), Message(role: .user, content: "And of Italy?")],
            options: BackendOptions(sampling: .greedy, maxTokens: 8))
        let warm = try backend.collect(followUp)
        let cold = try RunnerPlugin.open().collect(followUp)
        #expect(warm.text == cold.text)
        #expect(warm.result.usage == cold.result.usage)
    }

    /// A stop sequence ends the answer before it, and is not part of the output.
    @Test func stopSequenceEndsTheAnswer() throws {
        let request = BackendRequest(messages: Self.question, options: BackendOptions(sampling: .greedy, maxTokens: 30, stopSequences: [", la"]))
        let (text, _, result) = try backend.collect(request)
        #expect(result.finish == .stopSequence)
        #expect(text == "L'Étoile", "got \(text)")
    }

    /// A stream consumer that says stop ends the generation with `.callback`.
    @Test func consumerStopEndsTheGeneration() throws {
        var pieces = 0
        let result = try backend.generate(BackendRequest(messages: Self.question, options: BackendOptions(sampling: .greedy, maxTokens: 40)),
                                          cancellation: CancellationToken()) { event in
            if case .text = event { pieces += 1 }
            return pieces < 2
        }
        #expect(result.finish == .callback)
        #expect(pieces == 2)
    }

    /// Prompt plus requested tokens beyond the context: the error carries both numbers and comes
    /// before any work (no event, well under the time of a prefill).
    @Test func contextWindowIsCheckedBeforeAnyWork() throws {
        let long = String(repeating: "word ", count: 1100)
        var events = 0
        let start = ContinuousClock.now
        do {
            _ = try backend.generate(BackendRequest(messages: [Message(role: .user, content: long)], options: BackendOptions(maxTokens: 10)),
                                     cancellation: CancellationToken()) { _ in events += 1; return true }
            Issue.record("a prompt of 1100 words fit a context of 1024")
        } catch {
            #expect(error.status == .exceededContextWindowSize)
            #expect(error.contextLimit == 1024)
            #expect(error.contextRequested > 1024)
            #expect(error.message.contains("\(error.contextRequested)") && error.message.contains("1024"), "\(error.message)")
        }
        #expect(events == 0)
        #expect(ContinuousClock.now - start < .milliseconds(500))
        do {
            _ = try backend.collect(BackendRequest(messages: Self.question, options: BackendOptions(maxTokens: 1000)))
            Issue.record("37 prompt + 1000 response tokens fit a context of 1024")
        } catch {
            #expect(error.status == .exceededContextWindowSize)
            #expect(error.contextRequested == 1037)
        }
    }

    /// Cancelled while generating: the call returns within 100 ms of the cancellation.
    @Test func cancellationDuringGenerationReturnsWithin100ms() throws {
        let token = CancellationToken()
        var cancelledAt: ContinuousClock.Instant?
        var texts = 0
        do {
            _ = try backend.generate(BackendRequest(messages: Self.question, options: BackendOptions(sampling: .greedy, maxTokens: 200)),
                                     cancellation: token) { event in
                if case .text = event { texts += 1 }
                if texts == 3, cancelledAt == nil {
                    cancelledAt = .now
                    token.cancel()
                }
                return true
            }
            Issue.record("the generation was not cancelled")
        } catch {
            #expect(error.status == .cancelled)
        }
        let elapsed = ContinuousClock.now - (cancelledAt ?? .now)
        #expect(elapsed < .milliseconds(100), "returned \(elapsed) after cancellation")
    }

    /// Cancelled inside a long prefill (about 900 prompt tokens): returns within 100 ms.
    @Test func cancellationDuringPrefillReturnsWithin100ms() throws {
        let token = CancellationToken()
        let prompt = (0..<180).map { "item \($0) is" }.joined(separator: " ")  // fresh text: no cached prefix
        let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
        // A thread of its own: the dispatch pool may be busy with other tests for seconds.
        Thread {
            Thread.sleep(forTimeInterval: 0.15)
            cancelledAt.withLock { $0 = .now }
            token.cancel()
        }.start()
        var events = 0
        do {
            _ = try backend.generate(BackendRequest(messages: [Message(role: .user, content: prompt)], options: BackendOptions(maxTokens: 20)),
                                     cancellation: token) { _ in events += 1; return true }
            Issue.record("the generation was not cancelled")
        } catch {
            #expect(error.status == .cancelled, "\(error)")
            #expect(error.message.contains("prefill"), "\(error.message)")
        }
        let end = ContinuousClock.now
        let at = try #require(cancelledAt.withLock { $0 })
        #expect(end - at < .milliseconds(100), "returned \(end - at) after cancellation")
        #expect(events == 0)
    }

    @Test func thinkingIsAnUnsupportedOption() throws {
        do {
            _ = try backend.collect(BackendRequest(messages: Self.question, options: BackendOptions(thinkingLevel: .high)))
            Issue.record("thinking_level was accepted")
        } catch {
            #expect(error.status == .unsupportedOption)
            #expect(error.message.contains("thinking_level"))
        }
    }
}
}
