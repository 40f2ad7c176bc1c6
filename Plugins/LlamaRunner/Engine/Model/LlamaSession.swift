import Foundation

/// One conversation's state on a model: the KV cache of the tokens processed so far and the
/// scratch buffers of the forward pass. Not thread-safe; use one session per concurrent request.
public final class LlamaSession: @unchecked Sendable {
    /// What a forward pass reports for the positions it processes.
    public enum Outputs: Sendable {
        /// Next-token logits after the last position only (a prompt's usual case).
        case lastLogits
        /// Next-token logits after every position (scoring a fixed sequence).
        case allLogits
        /// The final normalised hidden state of every position (embeddings).
        case hiddenStates
    }

    public let model: LlamaModel
    public let contextLength: Int
    /// The tokens whose keys and values are in the cache, in order.
    public private(set) var tokens: [Int32] = []
    let cache: KVCache
    let workspace: Workspace
    /// One RoPE per base the layers use (global first, then the sliding-window layers' when it
    /// differs), and which of them each layer uses.
    let ropes: [RotaryEmbedding]
    let layerRope: [Int]
    /// Tokens per forward chunk: the batch of the matrix products, and how often a long prefill
    /// checks for cancellation.
    public static let chunkSize = 64
    /// Chunks of at least this many tokens share their per-token steps (norms, quantisation)
    /// among the threads; a decode step's one token keeps them on the calling thread.
    static let tokensWorthSharing = 16
    /// This session's chunk: `chunkSize`, or the whole context for a sentence encoder, whose
    /// every position attends to every other and so must be in one chunk.
    let batch: Int

    /// A session with room for `contextLength` tokens (default and maximum: the model's).
    public init(model: LlamaModel, contextLength: Int? = nil) {
        self.model = model
        let hp = model.hyperparameters
        self.contextLength = max(1, min(contextLength ?? hp.contextLength, hp.contextLength))
        batch = hp.traits.sentenceEncoder ? self.contextLength : Self.chunkSize
        cache = KVCache(layers: hp.layers, contextLength: self.contextLength, kvDim: hp.kvDim,
                        window: hp.slidingWindow, sliding: hp.slidingLayers, batch: batch)
        let bases = (0..<hp.layers).map(hp.ropeBase(layer:))
        var distinct: [Float] = [hp.ropeBase]
        for b in bases where !distinct.contains(b) { distinct.append(b) }
        ropes = distinct.map { RotaryEmbedding(style: hp.ropeStyle, dimensions: hp.ropeDimensions, base: $0) }
        layerRope = bases.map { distinct.firstIndex(of: $0)! }
        workspace = Workspace(hp: hp, vocabulary: hp.traits.sentenceEncoder ? 0 : model.vocabularySize, batch: batch, contextLength: self.contextLength,
                              threads: model.threads, ropeTables: ropes.count)
    }

    /// Forgets every processed token.
    public func reset() {
        tokens.removeAll(keepingCapacity: true)
        cache.clear()
    }

    /// Keeps the longest cached prefix that `prompt` starts with, leaving at least its last token
    /// to evaluate (for its logits), and returns how many tokens it kept: evaluate the rest. A
    /// sliding-window cache may no longer hold the window before a short prefix (its cells were
    /// reused); then nothing is kept.
    public func keepSharedPrefix(of prompt: [Int32]) -> Int {
        var shared = 0
        while shared < min(tokens.count, prompt.count - 1) && tokens[shared] == prompt[shared] { shared += 1 }
        let hp = model.hyperparameters
        if let window = hp.slidingWindow, !cache.holds(from: max(0, shared - window + 1)) {
            reset()
            return 0
        }
        tokens.removeLast(tokens.count - shared)
        return shared
    }

    /// Appends `newTokens` to the cache and reports `outputs`: `onOutput(index, values)` with the
    /// index into `newTokens` and the logits (vocabulary size) or hidden state (embedding size).
    /// The values are only valid during the call. Checks the context and every id before any
    /// work; checks `shouldCancel` before every layer of every chunk (a few milliseconds apart).
    public func evaluate(
        _ newTokens: [Int32], outputs: Outputs = .lastLogits, shouldCancel: () -> Bool = { false },
        onOutput: (Int, UnsafeBufferPointer<Float>) -> Void
    ) throws(LlamaError) {
        guard !newTokens.isEmpty else { throw LlamaError(.invalidRequest, "no tokens to evaluate") }
        guard tokens.count + newTokens.count <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(tokens.count + newTokens.count) tokens (\(tokens.count) in context + \(newTokens.count) new) exceed the context window of \(contextLength)")
        }
        if let bad = newTokens.first(where: { $0 < 0 || Int($0) >= model.vocabularySize }) {
            throw LlamaError(.invalidToken, "token id \(bad) is outside the vocabulary of \(model.vocabularySize)")
        }
        let traits = model.hyperparameters.traits
        if traits.sentenceEncoder {
            guard tokens.isEmpty, case .hiddenStates = outputs else {
                throw LlamaError(.invalidRequest, "\(model.hyperparameters.architecture) is a sentence encoder: it gives the hidden states of one whole text per session, not logits or a continuation")
            }
        }
        var done = 0
        while done < newTokens.count {
            let n = min(batch, newTokens.count - done)
            let isLast = done + n == newTokens.count
            let completed = newTokens.withUnsafeBufferPointer { all in
                model.withCompute {
                    forward(UnsafeBufferPointer(rebasing: all[done..<done + n]), texts: [0..<n], outputs: outputs, lastChunk: isLast,
                            shouldCancel: shouldCancel) { i, v in onOutput(done + i, v) }
                }
            }
            // A chunk stopped part-way leaves stale cache rows past `tokens.count`; they are
            // overwritten before anything reads them.
            guard completed else { throw LlamaError(.cancelled, "cancelled after \(done) of \(newTokens.count) tokens") }
            tokens.append(contentsOf: newTokens[done..<done + n])
            done += n
        }
    }

    /// A sentence encoder's final hidden states of several whole texts from one forward pass of
    /// this fresh session: each text is positioned from 0 and attends to its own tokens only, so
    /// its states are the very values a session of its own gives (the products and norms treat
    /// every token alone), with one read of the weights for all. `onOutput(text, index, state)`;
    /// the state is only valid during the call. Checks `shouldCancel` before every layer.
    public func evaluateTexts(_ texts: [[Int32]], shouldCancel: () -> Bool = { false },
                              onOutput: (Int, Int, UnsafeBufferPointer<Float>) -> Void) throws(LlamaError) {
        guard model.hyperparameters.traits.sentenceEncoder, tokens.isEmpty else {
            throw LlamaError(.invalidRequest, "several texts in one pass need a sentence encoder's fresh session")
        }
        let all = Array(texts.joined())
        guard !texts.isEmpty, !texts.contains(where: \.isEmpty) else { throw LlamaError(.invalidRequest, "no tokens to evaluate") }
        guard all.count <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(all.count) tokens exceed the context window of \(contextLength)")
        }
        if let bad = all.first(where: { $0 < 0 || Int($0) >= model.vocabularySize }) {
            throw LlamaError(.invalidToken, "token id \(bad) is outside the vocabulary of \(model.vocabularySize)")
        }
        var ranges: [Range<Int>] = [], start = 0
        for text in texts { ranges.append(start..<start + text.count); start += text.count }
        var text = 0
        let completed = all.withUnsafeBufferPointer { ids in
            model.withCompute {
                forward(ids, texts: ranges, outputs: .hiddenStates, lastChunk: true, shouldCancel: shouldCancel) { i, v in
                    while !ranges[text].contains(i) { text += 1 }
                    onOutput(text, i - ranges[text].lowerBound, v)
                }
            }
        }
        guard completed else { throw LlamaError(.cancelled, "cancelled during the pass of \(texts.count) texts") }
        tokens = all
    }

    /// One chunk through every layer, with keys and values written at positions tokens.count...
    /// Returns false, before the outputs, when `shouldCancel` said so (checked before every layer).
    /// One pass for every architecture: what an architecture changes is in
    /// `LlamaHyperparameters.Traits`, and each place it acts is marked below by the weight it
    /// needs (biases, head norms, output norms) or by the trait itself.
    /// `texts`: the chunk's texts as ranges of its tokens, in order; one for a conversation. A
    /// sentence encoder's texts each start at position 0 and attend to their own tokens only.
    private func forward(
        _ chunk: UnsafeBufferPointer<Int32>, texts: [Range<Int>], outputs: Outputs, lastChunk: Bool, shouldCancel: () -> Bool,
        onOutput: (Int, UnsafeBufferPointer<Float>) -> Void
    ) -> Bool {
        let hp = model.hyperparameters, traits = hp.traits, weights = model.weights, ws = workspace, pool = model.pool
        let T = chunk.count, d = hp.embedding, ff = hp.feedForward, qDim = hp.qDim, kvDim = hp.kvDim, hd = hp.headDim
        let start = tokens.count, xq = ws.quantized, eps = hp.rmsEpsilon
        let embedding = weights.tokenEmbedding
        for t in 0..<T { Dequantize.row(embedding.type, embedding.row(Int(chunk[t])), count: d, into: ws.hidden + t * d) }
        // Gemma: embeddings × √n_embd.
        if traits.scalesEmbedding { VectorOps.scale(ws.hidden, by: Float(d).squareRoot(), T * d) }
        let pairs = hp.ropeDimensions / 2
        // A conversation's one text continues from the cache; a sentence encoder's texts each
        // start at 0 in a fresh session (start is 0 then).
        for (i, rope) in ropes.enumerated() {
            for text in texts {
                rope.angles(start: texts.count == 1 ? start : 0, count: text.count,
                            cos: ws.ropeCos[i] + text.lowerBound * pairs, sin: ws.ropeSin[i] + text.lowerBound * pairs)
            }
        }
        // A sentence encoder's token attends within its text: each token's text, as cache positions.
        var textOf: [ClosedRange<Int>] = []
        if traits.sentenceEncoder {
            textOf.reserveCapacity(T)
            for text in texts { for _ in text { textOf.append(start + text.lowerBound...start + text.upperBound - 1) } }
        }

        func project(_ w: WeightMatrix, _ x: UnsafeMutablePointer<Float>, _ xStride: Int, into out: UnsafeMutablePointer<Float>,
                     rows: Range<Int>, part: Int, from input: QuantizedActivations? = nil) {
            MatMul.multiply(w, xq: input ?? xq, xf: x, xStride: xStride, rows: rows, out: out, outStride: w.rows,
                            scratch: ws.rowScratch + part * ws.rowScratchLength)
        }
        /// One product over all threads, its rows in chunks of 16 (the packed panels' height).
        func project(_ w: WeightMatrix, _ x: UnsafeMutablePointer<Float>, _ xStride: Int, into out: UnsafeMutablePointer<Float>,
                     from input: QuantizedActivations? = nil) {
            pool.runChunked(segments: 1, rows: { _ in w.rows }, granule: 16) { _, rows, part in
                project(w, x, xStride, into: out, rows: rows, part: part, from: input)
            }
        }
        /// Runs `body` over every token in ranges: over the threads for a chunk of many tokens (a
        /// prompt, a sentence encoder's texts: these steps were 16% of an EmbeddingGemma pass at
        /// 2 threads, run on one), on this thread for a few (a decode step). Per token, so the
        /// bits are the same either way.
        func forTokens(_ body: (Range<Int>) -> Void) {
            guard T >= Self.tokensWorthSharing, pool.threads > 1 else { return body(0..<T) }
            pool.runChunked(segments: 1, rows: { _ in T }, granule: 1, chunksPerThread: 1) { _, tokens, _ in body(tokens) }
        }
        /// Adds a block's output (`ws.projected`) to the residual stream, normalised first when
        /// the architecture normalises block outputs (Gemma 3).
        func addToResidual(_ tokens: Range<Int>, normalisedBy norm: [Float]?) {
            for t in tokens {
                if let norm { VectorOps.rmsNorm(ws.projected + t * d, norm, ws.projected + t * d, d, epsilon: eps) }
                VectorOps.add(ws.projected + t * d, into: ws.hidden + t * d, d)
            }
        }
        /// The residual stream normalised by `norm` into `ws.normed` and quantised into `xq`.
        func normaliseAndQuantise(_ tokens: Range<Int>, by norm: [Float]) {
            for t in tokens { VectorOps.rmsNorm(ws.hidden + t * d, norm, ws.normed + t * d, d, epsilon: eps) }
            xq.quantizeBlocks(ws.normed, stride: d, blocks: 0..<d / 32, only: tokens)
        }

        for (l, layer) in weights.layers.enumerated() {
            if shouldCancel() { return false }
            // The previous layer's feed-forward output joins the residual stream; attention block.
            xq.prepare(tokens: T, columns: d)
            forTokens { tokens in
                if l > 0 { addToResidual(tokens, normalisedBy: weights.layers[l - 1].postFeedForwardNorm) }
                normaliseAndQuantise(tokens, by: layer.attentionNorm)
            }
            func qkv(_ s: Int) -> (WeightMatrix, UnsafeMutablePointer<Float>) {
                s == 0 ? (layer.query, ws.query) : s == 1 ? (layer.key, ws.key) : (layer.value, ws.value)
            }
            pool.runChunked(segments: 3, rows: { qkv($0).0.rows }, granule: 16) { s, rows, part in
                project(qkv(s).0, ws.normed, d, into: qkv(s).1, rows: rows, part: part)
            }
            let cos = ws.ropeCos[layerRope[l]], sin = ws.ropeSin[layerRope[l]], rope = ropes[layerRope[l]]
            forTokens { tokens in for t in tokens {
                let q = ws.query + t * qDim, k = ws.key + t * kvDim, v = ws.value + t * kvDim
                // Qwen2: Q/K/V biases.
                if let b = layer.queryBias { VectorOps.add(b, into: q, qDim) }
                if let b = layer.keyBias { VectorOps.add(b, into: k, kvDim) }
                if let b = layer.valueBias { VectorOps.add(b, into: v, kvDim) }
                // Qwen3, Gemma 3: each head's query and key RMS-normalised before RoPE.
                if let w = layer.queryNorm { for h in 0..<hp.heads { VectorOps.rmsNorm(q + h * hd, w, q + h * hd, hd, epsilon: eps) } }
                if let w = layer.keyNorm { for h in 0..<hp.kvHeads { VectorOps.rmsNorm(k + h * hd, w, k + h * hd, hd, epsilon: eps) } }
                rope.apply(q, heads: hp.heads, headDim: hd, cos: cos + t * pairs, sin: sin + t * pairs)
                rope.apply(k, heads: hp.kvHeads, headDim: hd, cos: cos + t * pairs, sin: sin + t * pairs)
                cache.write(layer: l, position: start + t, key: k, value: v)
            } }
            cache.stored(layer: l, through: start + T - 1)
            // Gemma 3: sliding-window layers see only the last `window` positions (a sentence
            // encoder's, the `window` on either side).
            let window = hp.slidingLayers[l] ? hp.slidingWindow : nil
            pool.runChunked(segments: 1, rows: { _ in T * hp.heads }, granule: 1) { _, jobs, i in
                for job in jobs {
                    let position = start + job / hp.heads
                    let text = traits.sentenceEncoder ? textOf[job / hp.heads] : 0...position
                    let first = window.map { max(text.lowerBound, position - $0 + 1) } ?? text.lowerBound
                    let last = traits.sentenceEncoder ? window.map { min(text.upperBound, position + $0 - 1) } ?? text.upperBound : position
                    attend(layer: l, token: job / hp.heads, head: job % hp.heads, positions: first...last,
                           scores: ws.scores + i * ws.contextLength)
                }
            }
            xq.prepare(tokens: T, columns: qDim)
            forTokens { xq.quantizeBlocks(ws.attention, stride: qDim, blocks: 0..<qDim / 32, only: $0) }
            project(layer.attentionOutput, ws.attention, qDim, into: ws.projected)

            // Feed-forward block.
            xq.prepare(tokens: T, columns: d)
            forTokens { tokens in
                addToResidual(tokens, normalisedBy: layer.postAttentionNorm)
                normaliseAndQuantise(tokens, by: layer.ffnNorm)
            }
            // Each chunk of rows (whole blocks of 32) gets its gate and up products, the gated
            // activation and its quantisation for the down projection from the same thread: no
            // serial step between the two products.
            let ffq = ws.quantizedFeedForward
            ffq.prepare(tokens: T, columns: ff)
            pool.runChunked(segments: 1, rows: { _ in ff }, granule: 32) { _, rows, i in
                project(layer.gate, ws.normed, d, into: ws.gate, rows: rows, part: i)
                project(layer.up, ws.normed, d, into: ws.up, rows: rows, part: i)
                for t in 0..<T {
                    let g = ws.gate + t * ff + rows.lowerBound, u = ws.up + t * ff + rows.lowerBound
                    switch traits.activation {
                    case .silu: VectorOps.swiGLU(g, u, rows.count)
                    case .geluTanh: VectorOps.geGLU(g, u, rows.count)  // Gemma
                    }
                }
                ffq.quantizeBlocks(ws.gate, stride: ff, blocks: rows.lowerBound / 32..<rows.upperBound / 32)
            }
            project(layer.down, ws.gate, ff, into: ws.projected, from: ffq)
        }
        if let last = weights.layers.last { forTokens { addToResidual($0, normalisedBy: last.postFeedForwardNorm) } }

        let wanted: Range<Int>
        switch outputs {
        case .lastLogits: wanted = lastChunk ? (T - 1)..<T : T..<T
        case .allLogits, .hiddenStates: wanted = 0..<T
        }
        for t in wanted {
            let normed = ws.normed + t * d
            VectorOps.rmsNorm(ws.hidden + t * d, weights.outputNorm, normed, d, epsilon: eps)
            if case .hiddenStates = outputs {
                onOutput(t, UnsafeBufferPointer(start: normed, count: d))
                continue
            }
            xq.quantize(normed, tokens: 1, columns: d, stride: d)
            project(weights.output, normed, d, into: ws.logits)
            onOutput(t, UnsafeBufferPointer(start: ws.logits, count: model.vocabularySize))
        }
        return true
    }

    /// Attention of one query head of one token over the cached `positions` it sees: causal,
    /// every one up to its own or only the last `window` of them; a sentence encoder's, every
    /// one of the text or the `window` on either side. The cache holds half-precision keys and
    /// values; scores, softmax and the weighted sum of values are float32, as in llama.cpp's
    /// tiled CPU flash attention (Engine/README.md, "Numerics").
    @inline(__always) private func attend(layer: Int, token t: Int, head h: Int, positions: ClosedRange<Int>, scores: UnsafeMutablePointer<Float>) {
        let hp = model.hyperparameters, ws = workspace, hd = hp.headDim, kvDim = hp.kvDim
        let q = ws.query + t * hp.qDim + h * hd
        let kvOffset = (h / (hp.heads / hp.kvHeads)) * hd
        let scale = hp.attentionScale
        let (keys, values) = cache.cellBase(layer: layer)
        HalfVectorOps.attend(q, keys: keys + kvOffset, values: values + kvOffset, stride: kvDim, cells: cache.cells[layer],
                             first: positions.lowerBound, n: positions.count, headDim: hd, scale: scale, scores: scores,
                             out: ws.attention + t * hp.qDim + h * hd)
    }
}
