import GuidedJSON
import LlamaEngine
import TandemPluginKit

/// One generation on a loaded model: prefill (reusing the cached prefix), then token by token:
/// mask (when guided), sample, stop checks, detokenize into whole-UTF-8 deltas, stream.
/// Cancellation is checked before every prefill slice and every token.
struct GenerationLoop {
    /// Prefill runs in slices sized from the measured time per token so that each takes about
    /// this long: a cancelled call returns well within 100 ms even on a loaded machine, while
    /// slices stay as large as that allows (up to the engine's chunk) to keep the kernels busy.
    static let prefillSliceTime: Duration = .milliseconds(25)

    let loaded: LoadedLlama
    let plan: SamplingPlan
    /// Response tokens at most (the request's, else whatever the context has left).
    let maxTokens: Int
    let stopSequences: [String]
    var constraint: TokenConstraint?
    /// Tool-call mode: the guided document is collected, not streamed as text.
    let collectsDocument: Bool

    struct Outcome {
        var finish: FinishReason
        var outputTokens: Int
        /// The generated text (tool-call mode: the document).
        var text: String
    }

    mutating func run(prompt: [Int32], events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> Outcome {
        let session = loaded.session
        let vocabulary = loaded.model.vocabularySize
        var logits = [Float](repeating: 0, count: vocabulary)
        let cancelled = { cancellation.isCancelled }

        // Keep the cached prefix this prompt shares with the previous request (at least one token
        // must be evaluated to get logits).
        var shared = 0
        let cached = session.tokens
        while shared < min(cached.count, prompt.count - 1), cached[shared] == prompt[shared] { shared += 1 }
        session.truncate(to: shared)
        var next = shared
        var slice = 1
        while next < prompt.count {
            if cancelled() { throw BackendFailure(.cancelled, "cancelled during prefill after \(next) of \(prompt.count) prompt tokens") }
            let end = min(next + slice, prompt.count)
            let started = ContinuousClock.now
            try evaluate(Array(prompt[next..<end]), into: &logits, shouldCancel: cancelled)
            let perToken = (ContinuousClock.now - started) / (end - next)
            slice = perToken > .zero ? max(1, min(LlamaSession.chunkSize, Int(Self.prefillSliceTime / perToken))) : LlamaSession.chunkSize
            next = end
        }

        var sampler = TokenSampler(plan: plan)
        var detokenizer = StreamingDetokenizer(tokenizer: loaded.tokenizer, renderSpecial: false)
        var stops = StopSequenceFilter(collectsDocument ? [] : stopSequences)
        var mask = constraint.map { TokenMask(tokenCount: $0.vocabulary.count) }
        var produced = 0
        var text = ""

        func emit(_ piece: String) -> Bool {
            guard !piece.isEmpty else { return true }
            text += piece
            return collectsDocument || events.send(.text(piece))
        }

        // At the end: the detokenizer's last bytes still go through the stop filter.
        func drain() -> String {
            switch stops.push(detokenizer.finish()) {
            case .text(let piece): return piece + stops.flush()
            case .stopped(let piece): return piece
            }
        }

        while true {
            if cancelled() { throw BackendFailure(.cancelled, "cancelled after \(produced) generated tokens") }
            if let constraint, var current = mask {
                constraint.computeMask(into: &current)
                guard !current.isEmpty else {
                    throw BackendFailure(.decoding, "guided decoding reached a state where no token can continue the document (after \(produced) tokens)")
                }
                logits.withUnsafeMutableBufferPointer { current.apply(to: $0) }
                mask = current
            }
            let token = logits.withUnsafeBufferPointer { sampler.choose($0) }
            if loaded.isEndOfGeneration(token) {
                _ = emit(drain())
                return Outcome(finish: .stop, outputTokens: produced, text: text)
            }
            if constraint != nil {
                do { try constraint!.accept(Int(token)) } catch {
                    throw BackendFailure(.decoding, "guided decoding: \(error)")
                }
            }
            produced += 1
            switch stops.push(detokenizer.append(token)) {
            case .text(let piece):
                if !emit(piece) { return Outcome(finish: .callback, outputTokens: produced, text: text) }
            case .stopped(let piece):
                _ = emit(piece)
                return Outcome(finish: .stopSequence, outputTokens: produced, text: text)
            }
            if let constraint, constraint.isFinished {
                _ = emit(drain())
                return Outcome(finish: .stop, outputTokens: produced, text: text)
            }
            // Out of budget, or out of room in the context: the answer is cut here.
            if produced >= maxTokens || session.tokens.count >= session.contextLength {
                _ = emit(drain())
                return Outcome(finish: .maxTokens, outputTokens: produced, text: text)
            }
            try evaluate([token], into: &logits, shouldCancel: cancelled)
        }
    }

    private func evaluate(_ tokens: [Int32], into logits: inout [Float], shouldCancel: () -> Bool) throws(BackendFailure) {
        do {
            try logits.withUnsafeMutableBufferPointer { out in
                try loaded.session.evaluate(tokens, outputs: .lastLogits, shouldCancel: shouldCancel) { _, values in
                    _ = out.update(fromContentsOf: values)
                }
            }
        } catch let error as LlamaError {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, error.detail)
        } catch {
            throw BackendFailure(.unknown, "\(error)")
        }
    }
}
