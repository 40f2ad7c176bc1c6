import Foundation
import CLlamaKernels

/// A loaded BERT-family sentence encoder (multilingual-e5 and other XLM-RoBERTa or BERT models
/// in llama.cpp's `bert` layout): its file (weights mapped), shape, tensors, Unigram tokenizer,
/// scratch and the thread pool. One pass at a time; callers on other threads wait their turn.
///
/// A text becomes: start token, its content tokens, end token; at most `contextLength` tokens
/// (the model's positions; 512 for e5), so a longer text is cut to its first
/// `contextLength - 2` content tokens. Its embedding is the mean of the last layer's hidden
/// states over every token (the specials included, as the model was trained), L2-normalised.
///
/// A pass takes several texts, up to `batchTokens` tokens together: their rows go through each
/// matrix product as one, so the layers' weights are read once per pass instead of once per
/// text (the main cost of a short text; Engine README "The sentence encoder"), while each text
/// attends only to its own tokens, from position 0. Every row's sums are those of the text's own
/// pass, so a text's vector is the same bit for bit whatever it is batched with.
public final class EncoderModel: @unchecked Sendable {
    public let file: GGUFFile
    public let hyperparameters: EncoderHyperparameters
    public let modelVersion: String
    public let tokenizer: UnigramTokenizer
    let weights: EncoderWeights
    let pool: ThreadPool
    /// Most tokens a pass of several texts takes (a text longer than this has a pass of its own).
    public let batchTokens: Int
    private let workspace: EncoderWorkspace
    private var computeLock = pthread_mutex_t()

    public var contextLength: Int { hyperparameters.contextLength }
    /// Width of the embedding vectors.
    public var dimensions: Int { hyperparameters.embedding }
    public var threads: Int { pool.threads }
    public var vocabularySize: Int { weights.tokenEmbedding.rows }

    /// The default `batchTokens`: 16-word sentences ran fastest at this size (`make bench-embed`
    /// with `-b`, Engine README "The sentence encoder").
    public static let defaultBatchTokens = 256

    /// Loads the model. `threads` defaults to every core the process may use; `batchTokens` to
    /// `defaultBatchTokens`.
    public convenience init(path: String, threads: Int? = nil, batchTokens: Int? = nil) throws(GGUFError) {
        try self.init(file: GGUFFile(path: path), threads: threads, batchTokens: batchTokens)
    }

    /// Checks the whole file (`CheckedModel`) before anything is built from it.
    public convenience init(file: GGUFFile, threads: Int? = nil, batchTokens: Int? = nil) throws(GGUFError) {
        try self.init(checked: CheckedModel(file: file), threads: threads, batchTokens: batchTokens)
    }

    public init(checked: CheckedModel<EncoderHyperparameters>, threads: Int? = nil, batchTokens: Int? = nil) throws(GGUFError) {
        file = checked.file
        let hp = checked.hyperparameters
        hyperparameters = hp
        weights = EncoderWeights(checked)
        tokenizer = checked.tokenizer
        modelVersion = ModelVersion.make(path: file.path, fileType: try file.integer("general.file_type"))
        pool = ThreadPool(threads: threads ?? LlamaModel.availableCores)
        self.batchTokens = max(1, batchTokens ?? Self.defaultBatchTokens)
        workspace = EncoderWorkspace(hp: hp, capacity: max(hp.contextLength, self.batchTokens), threads: pool.threads)
        pthread_mutex_init(&computeLock, nil)
    }

    deinit { pthread_mutex_destroy(&computeLock) }

    /// Whether `file` is an encoder (by its architecture), from the header alone.
    public static func isEncoder(file: GGUFFile) throws(GGUFError) -> Bool {
        guard let arch = try file.string("general.architecture") else { throw file.missing("general.architecture") }
        return EncoderHyperparameters.isEncoder(architecture: arch)
    }

    /// What a host needs to know before loading: checks the file as a load does
    /// (`CheckedModel`), without converting weights or starting threads.
    public static func probe(file: GGUFFile) throws(GGUFError) -> ModelProbe {
        let hp = try CheckedModel<EncoderHyperparameters>(file: file).hyperparameters
        let languages = (try file.array("general.languages") ?? []).compactMap(\.string)
        return ModelProbe(
            architecture: hp.architecture, modelVersion: ModelVersion.make(path: file.path, fileType: try file.integer("general.file_type")),
            contextLength: hp.contextLength, languages: languages, fileBytes: file.mapping.size)
    }

    /// The tokens `embed(text:)` runs: start, content (cut to fit), end.
    public func tokens(for text: String) -> [Int32] {
        tokenizer.encodeWithSpecials(text, maxTokens: contextLength)
    }

    /// The embedding of `text` (tokenised and cut to the model's positions).
    public func embed(text: String, shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [Float] {
        try embed(tokens: tokens(for: text), shouldCancel: shouldCancel)
    }

    /// The embeddings of `texts`, in order, as `embed(text:)` gives each, computed several texts
    /// per pass (`batchTokens`).
    public func embed(texts: [String], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[Float]] {
        try embed(tokenLists: texts.map(tokens(for:)), shouldCancel: shouldCancel)
    }

    /// The L2-normalised mean of the last hidden states of `tokens` (which carry their own
    /// start and end tokens). `shouldCancel` is checked before every layer.
    public func embed(tokens: [Int32], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [Float] {
        try validate(tokens)
        return try embed(tokenLists: [tokens], shouldCancel: shouldCancel)[0]
    }

    /// `embed(tokens:)` of each list, in order, several lists per pass. A bad list is an error
    /// naming its index, before any pass runs.
    public func embed(tokenLists: [[Int32]], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[Float]] {
        var sums = [[Double]](repeating: [Double](repeating: 0, count: dimensions), count: tokenLists.count)
        try passes(tokenLists, shouldCancel: shouldCancel) { text, h in
            sums[text].withUnsafeMutableBufferPointer { sum in for i in 0..<h.count { sum[i] += Double(h[i]) } }
        }
        return sums.map(MeanPooling.unitLength)
    }

    /// Every token's state of each text, from the same passes `embed(tokenLists:)` runs.
    public func tokenStates(tokenLists: [[Int32]], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[[Float]]] {
        var states = [[[Float]]](repeating: [], count: tokenLists.count)
        try passes(tokenLists, shouldCancel: shouldCancel) { text, h in states[text].append(Array(h)) }
        return states
    }

    /// The token lists, validated, through the encoder: consecutive lists packed into passes of
    /// at most `batchTokens` tokens; `each(list, state)` for every token in order (the state is
    /// only valid during the call). `shouldCancel` is checked before every layer of every pass.
    /// Summed in double in token order and scaled to unit length, a list's states are its
    /// embedding.
    private func passes(_ lists: [[Int32]], shouldCancel: () -> Bool,
                        each: (Int, UnsafeBufferPointer<Float>) -> Void) throws(LlamaError) {
        for (index, tokens) in lists.enumerated() {
            do throws(LlamaError) { try validate(tokens) } catch { throw LlamaError(error.code, "text \(index): \(error.detail)") }
        }
        var first = 0
        while first < lists.count {
            var end = first + 1, tokens = lists[first].count
            while end < lists.count, tokens + lists[end].count <= batchTokens { tokens += lists[end].count; end += 1 }
            let batch = lists[first..<end]
            let ids = Array(batch.joined())
            let completed = ids.withUnsafeBufferPointer { ids in
                withCompute { forward(ids, lengths: batch.map(\.count), shouldCancel: shouldCancel) { text, h in each(first + text, h) } }
            }
            guard completed else {
                let detail = lists.count == 1 ? "" : " after \(first) of \(lists.count) texts"
                throw LlamaError(.cancelled, "cancelled during the encoder pass" + detail)
            }
            first = end
        }
    }

    /// What `embed(tokens:)` makes of one pass's `tokenStates`: the same vector, bit for bit (the
    /// states summed in double, in token order, then scaled to unit length), so a caller that has
    /// the states needs no second pass for the embedding.
    public static func pooled(_ states: [[Float]]) -> [Float] {
        MeanPooling.unitLength(MeanPooling.sum(states))
    }

    /// The last layer's hidden state of every token of `tokens` (which carry their own start and
    /// end tokens), unpooled and unnormalised: what `embed(tokens:)` averages. For token-level
    /// comparisons (scripts/novelty-token-alignment.py).
    public func tokenStates(tokens: [Int32], shouldCancel: () -> Bool = { false }) throws(LlamaError) -> [[Float]] {
        try validate(tokens)
        return try tokenStates(tokenLists: [tokens], shouldCancel: shouldCancel)[0]
    }

    private func validate(_ tokens: [Int32]) throws(LlamaError) {
        guard !tokens.isEmpty else { throw LlamaError(.invalidRequest, "nothing to embed: no tokens") }
        guard tokens.count <= contextLength else {
            throw LlamaError(.exceededContextWindowSize, "\(tokens.count) tokens exceed the encoder's \(contextLength) positions")
        }
        if let bad = tokens.first(where: { $0 < 0 || Int($0) >= vocabularySize }) {
            throw LlamaError(.invalidToken, "token id \(bad) is outside the vocabulary of \(vocabularySize)")
        }
    }

    private func withCompute<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&computeLock)
        defer { pthread_mutex_unlock(&computeLock) }
        return try body()
    }

    /// The encoder over `ids`, the texts of `lengths` one after another (at most the
    /// workspace's capacity in all): embeddings, then every post-LayerNorm block (bidirectional self-attention within
    /// each text, GELU feed-forward); `onHidden` gets each token's final hidden state with its
    /// text's index, in order. Returns false, before any output, when `shouldCancel` said so.
    private func forward(_ ids: UnsafeBufferPointer<Int32>, lengths: [Int], shouldCancel: () -> Bool,
                         onHidden: (_ text: Int, UnsafeBufferPointer<Float>) -> Void) -> Bool {
        let hp = hyperparameters, w = weights, ws = workspace, pool = pool
        // Each text's rows: position 0 at its first token, attention confined to them.
        var texts: [Range<Int>] = []
        for length in lengths { texts.append((texts.last?.upperBound ?? 0)..<((texts.last?.upperBound ?? 0) + length)) }
        let T = ids.count, d = hp.embedding, ff = hp.feedForward, threads = pool.threads, eps = hp.layerNormEpsilon
        let xq = ws.quantized, ffq = ws.quantizedFeedForward

        func project(_ m: WeightMatrix, _ x: UnsafeMutablePointer<Float>, _ xStride: Int, into out: UnsafeMutablePointer<Float>,
                     part: Int, from input: QuantizedActivations, granule: Int = 4) {
            MatMul.multiply(
                m, xq: input, xf: x, xStride: xStride, rows: ThreadPool.share(of: m.rows, part: part, parts: threads, granule: granule),
                out: out, outStride: m.rows, scratch: ws.rowScratch + part * ws.rowScratchLength)
        }
        // The C steps (encoder_ops.h) wherever the C kernels run; the Swift ones elsewhere.
        let intrinsics = MatMul.implementation.usesIntrinsics
        func addBias(_ bias: [Float], to rows: UnsafeMutablePointer<Float>, width: Int) {
            bias.withUnsafeBufferPointer { b in
                if intrinsics, lk_encoder_add_bias(rows, width, Int32(T), Int32(width), b.baseAddress!) == 0 { return }
                for t in 0..<T { VectorOps.add(b.baseAddress!, into: rows + t * width, width) }
            }
        }
        /// hidden = LN(hidden + residual + residualBias), for every token.
        func layerNorm(_ norm: EncoderWeights.LayerNorm, residual: UnsafeMutablePointer<Float>?, residualBias: [Float]?) {
            norm.weight.withUnsafeBufferPointer { g in
                norm.bias.withUnsafeBufferPointer { b in
                    if intrinsics {
                        let rc = (residualBias ?? []).withUnsafeBufferPointer { rb in
                            lk_encoder_layer_norm(ws.hidden, residual, residualBias == nil ? nil : rb.baseAddress, d, Int32(T), Int32(d),
                                                  g.baseAddress!, b.baseAddress!, eps)
                        }
                        if rc == 0 { return }
                    }
                    if let residual, let residualBias { addBias(residualBias, to: residual, width: d) }
                    for t in 0..<T {
                        VectorOps.addLayerNorm(ws.hidden + t * d, residual.map { UnsafePointer($0 + t * d) }, weight: g.baseAddress!, bias: b.baseAddress!, d, epsilon: eps)
                    }
                }
            }
        }

        // Embeddings: token + position + token type 0, then LayerNorm.
        let embedding = w.tokenEmbedding
        w.positionEmbedding.withUnsafeBufferPointer { positions in
            w.tokenType.withUnsafeBufferPointer { type in
                for text in texts {
                    for t in text {
                        let x = ws.hidden + t * d
                        Dequantize.row(embedding.type, embedding.row(Int(ids[t])), count: d, into: x)
                        VectorOps.add(positions.baseAddress! + (t - text.lowerBound) * d, into: x, d)
                        VectorOps.add(type.baseAddress!, into: x, d)
                    }
                }
            }
        }
        layerNorm(w.embeddingNorm, residual: nil, residualBias: nil)

        for layer in w.layers {
            if shouldCancel() { return false }
            // Self-attention over every token, both ways; x = LN(x + attention).
            xq.quantize(ws.hidden, tokens: T, columns: d, stride: d)
            pool.run { i in
                project(layer.query, ws.hidden, d, into: ws.query, part: i, from: xq)
                project(layer.key, ws.hidden, d, into: ws.key, part: i, from: xq)
                project(layer.value, ws.hidden, d, into: ws.value, part: i, from: xq)
            }
            addBias(layer.queryBias, to: ws.query, width: d)
            addBias(layer.keyBias, to: ws.key, width: d)
            addBias(layer.valueBias, to: ws.value, width: d)
            // Job j is head j % heads of token j / heads; a thread's share of them, cut at the
            // texts' edges, runs as each text's own attention.
            pool.run { i in
                let jobs = ThreadPool.share(of: T * hp.heads, part: i, parts: threads), scores = ws.scores + i * ws.scoresStride
                for text in texts {
                    let textJobs = jobs.clamped(to: text.lowerBound * hp.heads..<text.upperBound * hp.heads)
                    guard !textJobs.isEmpty else { continue }
                    let offset = text.lowerBound * d, local = textJobs.lowerBound - text.lowerBound * hp.heads
                    if intrinsics, lk_encoder_attention(ws.query + offset, ws.key + offset, ws.value + offset, ws.context + offset, d,
                                                        Int32(text.count), Int32(hp.heads), Int32(hp.headDim), Int32(local),
                                                        Int32(local + textJobs.count), scores) == 0 { continue }
                    for job in textJobs { attend(token: job / hp.heads, head: job % hp.heads, text: text, scores: scores) }
                }
            }
            xq.quantize(ws.context, tokens: T, columns: d, stride: d)
            pool.run { i in project(layer.attentionOutput, ws.context, d, into: ws.projected, part: i, from: xq) }
            layerNorm(layer.attentionNorm, residual: ws.projected, residualBias: layer.attentionOutputBias)

            // Feed-forward: x = LN(x + down(GELU(up(x)))). Each thread adds the bias to its own
            // rows of the up projection, applies GELU and quantises them (whole blocks of 32)
            // for the down projection: no serial step between the two products.
            xq.quantize(ws.hidden, tokens: T, columns: d, stride: d)
            ffq.prepare(tokens: T, columns: ff)
            pool.run { i in
                project(layer.up, ws.hidden, d, into: ws.feedForward, part: i, from: xq, granule: 32)
                let rows = ThreadPool.share(of: ff, part: i, parts: threads, granule: 32)
                guard !rows.isEmpty else { return }
                layer.upBias.withUnsafeBufferPointer { b in
                    if intrinsics, lk_encoder_bias_gelu(ws.feedForward, ff, Int32(T), Int32(rows.lowerBound), Int32(rows.upperBound), b.baseAddress!) == 0 {
                        return
                    }
                    for t in 0..<T {
                        let h = ws.feedForward + t * ff + rows.lowerBound
                        VectorOps.add(b.baseAddress! + rows.lowerBound, into: h, rows.count)
                        VectorOps.gelu(h, rows.count)
                    }
                }
                ffq.quantizeBlocks(ws.feedForward, stride: ff, blocks: rows.lowerBound / 32..<rows.upperBound / 32)
            }
            pool.run { i in project(layer.down, ws.feedForward, ff, into: ws.projected, part: i, from: ffq) }
            layerNorm(layer.outputNorm, residual: ws.projected, residualBias: layer.downBias)
        }
        for (index, text) in texts.enumerated() {
            for t in text { onHidden(index, UnsafeBufferPointer(start: ws.hidden + t * d, count: d)) }
        }
        return true
    }

    /// Attention of one head of token `t` over the tokens of its own `text` (rows of the pass).
    @inline(__always) private func attend(token t: Int, head h: Int, text: Range<Int>, scores: UnsafeMutablePointer<Float>) {
        let ws = workspace, d = hyperparameters.embedding, hd = hyperparameters.headDim
        let q = ws.query + t * d + h * hd
        let scale = 1 / Float(hd).squareRoot()
        for (i, s) in text.enumerated() { scores[i] = VectorOps.dot(q, ws.key + s * d + h * hd, hd) * scale }
        VectorOps.softmax(scores, text.count)
        let out = ws.context + t * d + h * hd
        out.update(repeating: 0, count: hd)
        for (i, s) in text.enumerated() { VectorOps.axpy(scores[i], ws.value + s * d + h * hd, out, hd) }
    }
}
