extension LlamaSession {
    /// Generates up to `options.maxTokens` tokens after `promptTokens`, streaming text through
    /// `onPiece` (always complete UTF-8). A cached prefix shared with the previous call is reused.
    /// `pieceBytes` gives a token's bytes (the tokenizer's decoding); `shouldCancel` is checked
    /// before every token and every layer of the prefill, and a cancelled call returns what it has with
    /// stop reason `.cancelled`. Checks the context window before any work.
    public func generate(
        promptTokens: [Int32], options: GenerationOptions, pieceBytes: (Int32) -> [UInt8],
        shouldCancel: () -> Bool = { false }, onPiece: (String) -> Void = { _ in }
    ) throws(LlamaError) -> GenerationResult {
        guard !promptTokens.isEmpty else { throw LlamaError(.invalidRequest, "the prompt has no tokens") }
        guard options.maxTokens >= 0 else { throw LlamaError(.invalidRequest, "max tokens \(options.maxTokens) is negative") }
        try options.sampling.validate()
        guard promptTokens.count + options.maxTokens <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(promptTokens.count) prompt tokens + \(options.maxTokens) requested tokens = \(promptTokens.count + options.maxTokens) exceed the context window of \(contextLength)")
        }
        // Reuse the cached prefix; at least the last prompt token is evaluated for its logits.
        let shared = keepSharedPrefix(of: promptTokens)

        var result = GenerationResult(tokens: [], text: "", stopReason: .maxTokens, promptTokensEvaluated: promptTokens.count - shared, topCandidates: [])
        var sampler = Sampler(options: options.sampling, vocabularySize: model.vocabularySize)
        var assembler = UTF8Assembler()
        var stops = StopSequenceFilter(sequences: options.stopSequences)
        var next: Int32 = 0
        let pick: (Int, UnsafeBufferPointer<Float>) -> Void = { _, logits in
            if options.topProbabilities > 0 { result.topCandidates.append(TopCandidates.of(logits, k: options.topProbabilities)) }
            next = sampler.sample(logits)
        }
        func emit(_ text: String) {
            guard !text.isEmpty else { return }
            result.text += text
            onPiece(text)
        }

        do throws(LlamaError) {
            guard options.maxTokens > 0 else {
                // Nothing to generate: just fill the cache with the prompt.
                try evaluate(Array(promptTokens[shared...]), shouldCancel: shouldCancel) { _, _ in }
                return result
            }
            try evaluate(Array(promptTokens[shared...]), shouldCancel: shouldCancel, onOutput: pick)
            while true {
                result.tokens.append(next)
                if options.stopAtEndOfGeneration && model.endOfGenerationTokens.contains(next) {
                    result.stopReason = .endOfGeneration
                    break
                }
                let (release, stopped) = stops.append(assembler.append(pieceBytes(next)))
                emit(release)
                if stopped {
                    result.stopReason = .stopSequence
                    return result
                }
                if result.tokens.count == options.maxTokens { break }
                if shouldCancel() { throw LlamaError(.cancelled, "cancelled") }
                try evaluate([next], shouldCancel: shouldCancel, onOutput: pick)
            }
        } catch {
            guard error.code == .cancelled else { throw error }
            result.stopReason = .cancelled
        }
        let (release, _) = stops.append(assembler.finish())
        emit(release + stops.finish())
        return result
    }
}
