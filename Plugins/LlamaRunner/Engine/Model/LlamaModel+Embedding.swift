import Foundation

extension LlamaModel: SentenceEncoder {
    public var dimensions: Int { hyperparameters.projectionWidths.last ?? hyperparameters.embedding }

    /// A sentence embedding: the final normalised hidden states averaged over the tokens (in
    /// double), through a sentence encoder's projections, L2-normalised. For a chat model that is
    /// what llama.cpp's mean pooling gives, a weak similarity signal; a dedicated embedding model
    /// does better.
    public func embed(tokens: [Int32], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [Float] {
        pooled(try tokenStates(tokens: tokens, shouldCancel: shouldCancel))
    }

    public func embed(tokenLists: [[Int32]], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[Float]] {
        try tokenStates(tokenLists: tokenLists, shouldCancel: shouldCancel).map(pooled)
    }

    /// Texts per pass, by their tokens together: a 16-word sentence with the sentence-similarity
    /// prompt is about 32 tokens, so about eight texts share each read of the weights.
    public static let batchTokens = 256

    /// Every token's state of each text, consecutive texts sharing a pass up to `batchTokens`
    /// tokens (`LlamaSession.evaluateTexts`: each text's states are those of a pass of its own).
    public func tokenStates(tokenLists: [[Int32]], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[[Float]]] {
        for (index, tokens) in tokenLists.enumerated() {
            let fault: LlamaError? = tokens.isEmpty ? LlamaError(.invalidRequest, "nothing to embed: no tokens")
                : tokens.count > contextLength
                ? LlamaError(.exceededContextWindowSize, "\(tokens.count) tokens exceed the context window of \(contextLength)") : nil
            if let fault { throw LlamaError(fault.code, tokenLists.count == 1 ? fault.detail : "text \(index): \(fault.detail)") }
        }
        // A chat model's pass is causal and continues one conversation: a text per session.
        guard hyperparameters.traits.sentenceEncoder else {
            var states: [[[Float]]] = []
            for tokens in tokenLists { states.append(try tokenStates(tokens: tokens, shouldCancel: shouldCancel)) }
            return states
        }
        var states: [[[Float]]] = []
        states.reserveCapacity(tokenLists.count)
        var first = 0
        while first < tokenLists.count {
            var end = first + 1, count = tokenLists[first].count
            while end < tokenLists.count, count + tokenLists[end].count <= Self.batchTokens { count += tokenLists[end].count; end += 1 }
            var batch = tokenLists[first..<end].map { [[Float]](repeating: [], count: $0.count) }
            let session = LlamaSession(model: self, contextLength: count)
            do throws(LlamaError) {
                try session.evaluateTexts(Array(tokenLists[first..<end]), shouldCancel: shouldCancel) { text, index, h in
                    batch[text][index] = Array(h)
                }
            } catch {
                throw LlamaError(error.code, tokenLists.count == 1 ? error.detail : "texts \(first)..<\(end): \(error.detail)")
            }
            states += batch
            first = end
        }
        return states
    }

    /// `tokens` as embedding reads them: the tokenizer's own markers (a sentence encoder's file
    /// adds the end one too), cut to the context with the last token kept.
    public func tokens(for text: String) -> [Int32] {
        let tokens = tokenizer.encode(text, addSpecial: true, parseSpecial: false)
        guard tokens.count > contextLength, let last = tokens.last else { return tokens }
        return Array(tokens.prefix(contextLength - 1)) + [last]
    }

    /// The final normalised hidden state of every token, from one fresh session.
    public func tokenStates(tokens: [Int32], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[Float]] {
        guard !tokens.isEmpty else { throw LlamaError(.invalidRequest, "nothing to embed: no tokens") }
        guard tokens.count <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(tokens.count) tokens exceed the context window of \(contextLength)")
        }
        let session = LlamaSession(model: self, contextLength: tokens.count)
        var states: [[Float]] = []
        states.reserveCapacity(tokens.count)
        try session.evaluate(tokens, outputs: .hiddenStates, shouldCancel: shouldCancel) { _, h in states.append(Array(h)) }
        return states
    }

    public func pooled(_ states: [[Float]]) -> [Float] {
        let sum = MeanPooling.sum(states)
        guard !weights.projections.isEmpty else { return MeanPooling.unitLength(sum) }
        var vector = sum.map { Float($0 / Double(states.count)) }
        for matrix in weights.projections { vector = project(vector, through: matrix) }
        return MeanPooling.unitLength(vector.map(Double.init))
    }

    /// One token through one of a sentence encoder's dense projections (quantised as every
    /// weight product's input is).
    private func project(_ x: [Float], through w: WeightMatrix) -> [Float] {
        let xq = QuantizedActivations(capacity: w.columns)
        var out = [Float](repeating: 0, count: w.rows)
        var scratch = [Float](repeating: 0, count: MatMul.scratchLength(columns: w.columns, tokens: 1))
        x.withUnsafeBufferPointer { xf in
            xq.quantize(xf.baseAddress!, tokens: 1, columns: w.columns, stride: w.columns)
            out.withUnsafeMutableBufferPointer { o in
                scratch.withUnsafeMutableBufferPointer { s in
                    MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: w.columns, rows: 0..<w.rows,
                                    out: o.baseAddress!, outStride: w.rows, scratch: s.baseAddress!)
                }
            }
        }
        return out
    }
}
