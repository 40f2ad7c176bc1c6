import GuidedJSON
import LlamaEngine
import TandemPluginKit

/// One generation on a loaded model, built from the engine's parts (session, sampler, UTF-8
/// assembler, stop-sequence filter). It differs from the engine's own `LlamaSession.generate` in
/// what the ABI needs: guided decoding masks the logits between the forward pass and the sampler
/// and advances its automaton with every token; the consumer can stop the stream; cancellation
/// is an error. Cancellation is checked before every token and, inside the engine, before every
/// layer of the prefill.
struct GenerationLoop {
    let loaded: LoadedLlama
    let sampling: SamplingOptions
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
        var logits = [Float](repeating: 0, count: loaded.model.vocabularySize)
        let cancelled = { cancellation.isCancelled }

        // Keep the cached prefix this prompt shares with the previous request (at least one token
        // is evaluated, for its logits).
        let shared = session.keepSharedPrefix(of: prompt)
        try evaluate(Array(prompt[shared...]), into: &logits, shouldCancel: cancelled, during: "prefill")

        var sampler = Sampler(options: sampling, vocabularySize: logits.count)
        var assembler = UTF8Assembler()
        var stops = StopSequenceFilter(sequences: collectsDocument ? [] : stopSequences)
        var mask = constraint.map { TokenMask(tokenCount: $0.vocabulary.count) }
        var produced = 0
        var text = ""

        /// Sends a piece (tool-call mode only collects it); false when the consumer said stop.
        func emit(_ piece: String) -> Bool {
            guard !piece.isEmpty else { return true }
            text += piece
            return collectsDocument || events.send(.text(piece))
        }
        /// At the end: the assembler's last bytes still go through the stop filter.
        func drain() -> String {
            let (release, stopped) = stops.append(assembler.finish())
            return stopped ? release : release + stops.finish()
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
            var token = logits.withUnsafeBufferPointer { sampler.sample($0) }
            // A draw can only land on a masked token through rounding at the very end of the
            // distribution; the best allowed token stands in.
            if logits[Int(token)] == -.infinity { token = logits.withUnsafeBufferPointer { Sampler.argmax($0) } }
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
            let (release, stopped) = stops.append(assembler.append(loaded.tokenizer.piece(token, renderSpecial: false)))
            if stopped {
                _ = emit(release)
                return Outcome(finish: .stopSequence, outputTokens: produced, text: text)
            }
            if !emit(release) { return Outcome(finish: .callback, outputTokens: produced, text: text) }
            if let constraint, constraint.isFinished {
                _ = emit(drain())
                return Outcome(finish: .stop, outputTokens: produced, text: text)
            }
            // Out of budget, or out of room in the context: the answer is cut here.
            if produced >= maxTokens || session.tokens.count >= session.contextLength {
                _ = emit(drain())
                return Outcome(finish: .maxTokens, outputTokens: produced, text: text)
            }
            try evaluate([token], into: &logits, shouldCancel: cancelled, during: "generation")
        }
    }

    private func evaluate(_ tokens: [Int32], into logits: inout [Float], shouldCancel: () -> Bool, during phase: String) throws(BackendFailure) {
        do throws(LlamaError) {
            try logits.withUnsafeMutableBufferPointer { (out: inout UnsafeMutableBufferPointer<Float>) throws(LlamaError) in
                try loaded.session.evaluate(tokens, outputs: .lastLogits, shouldCancel: shouldCancel) { _, values in
                    _ = out.update(fromContentsOf: values)
                }
            }
        } catch {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, "\(phase): \(error.detail)")
        }
    }
}
