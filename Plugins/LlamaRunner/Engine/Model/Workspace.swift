/// Scratch buffers for one forward chunk of up to `batch` tokens, allocated once per session so
/// nothing is allocated per token.
final class Workspace {
    let batch: Int
    let hidden, normed, query, key, value, attention, projected, gate, up: UnsafeMutablePointer<Float>
    /// RoPE angles of the chunk's positions, one table per RoPE base (`LlamaSession.ropes`).
    let ropeCos, ropeSin: [UnsafeMutablePointer<Float>]
    /// Attention scores, one context-long row per thread.
    let scores: UnsafeMutablePointer<Float>
    /// Each thread's matrix-product scratch (`MatMul.scratchLength`).
    let rowScratch: UnsafeMutablePointer<Float>
    let quantized: QuantizedActivations
    /// The feed-forward activations quantised inside the gate/up step, while `quantized` still
    /// holds that step's input.
    let quantizedFeedForward: QuantizedActivations
    let logits: UnsafeMutablePointer<Float>
    let contextLength: Int
    let rowScratchLength: Int
    /// Owns every buffer above.
    private let scratch: FloatScratch

    init(hp: LlamaHyperparameters, vocabulary: Int, batch: Int, contextLength: Int, threads: Int, ropeTables: Int) {
        self.batch = batch
        self.contextLength = contextLength
        let scratch = FloatScratch()
        self.scratch = scratch
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> { scratch.make(n) }
        hidden = buffer(batch * hp.embedding)
        normed = buffer(batch * hp.embedding)
        query = buffer(batch * hp.qDim)
        key = buffer(batch * hp.kvDim)
        value = buffer(batch * hp.kvDim)
        attention = buffer(batch * hp.qDim)
        projected = buffer(batch * hp.embedding)
        gate = buffer(batch * hp.feedForward)
        up = buffer(batch * hp.feedForward)
        ropeCos = (0..<ropeTables).map { _ in buffer(batch * hp.ropeDimensions / 2) }
        ropeSin = (0..<ropeTables).map { _ in buffer(batch * hp.ropeDimensions / 2) }
        scores = buffer(threads * contextLength)
        rowScratchLength = MatMul.scratchLength(columns: max(hp.embedding, hp.feedForward, hp.qDim), tokens: batch)
        rowScratch = buffer(threads * rowScratchLength)
        logits = buffer(vocabulary)
        quantized = QuantizedActivations(capacity: batch * max(hp.embedding, hp.feedForward, hp.qDim))
        quantizedFeedForward = QuantizedActivations(capacity: batch * hp.feedForward)
    }
}
