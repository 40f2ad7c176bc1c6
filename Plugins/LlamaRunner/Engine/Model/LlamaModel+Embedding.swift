extension LlamaModel {
    /// A sentence embedding: the final normalised hidden state, mean-pooled over the tokens and
    /// L2-normalised (what llama.cpp's mean pooling gives). A chat model's embeddings are a weak
    /// similarity signal; a dedicated embedding model does better.
    public func embed(tokens: [Int32], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [Float] {
        guard !tokens.isEmpty else { throw LlamaError(.invalidRequest, "nothing to embed: no tokens") }
        guard tokens.count <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(tokens.count) tokens exceed the context window of \(contextLength)")
        }
        let session = LlamaSession(model: self, contextLength: tokens.count)
        var sum = [Double](repeating: 0, count: hyperparameters.embedding)
        try session.evaluate(tokens, outputs: .hiddenStates, shouldCancel: shouldCancel) { _, h in
            for i in 0..<h.count { sum[i] += Double(h[i]) }
        }
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return sum.map { Float(norm > 0 ? $0 / norm : 0) }
    }
}
