/// Scratch buffers for one encoder pass of up to `capacity` tokens (all its texts together),
/// allocated once per model so nothing is allocated per pass.
final class EncoderWorkspace {
    let capacity: Int
    let hidden, query, key, value, context, projected, feedForward: UnsafeMutablePointer<Float>
    /// Attention scores, one row of `scoresStride` per thread (the longest text, `contextLength`,
    /// and the C kernel's eight floats of overrun, encoder_ops.h).
    let scores: UnsafeMutablePointer<Float>
    let scoresStride: Int
    /// Each thread's matrix-product scratch (`MatMul.scratchLength`).
    let rowScratch: UnsafeMutablePointer<Float>
    let rowScratchLength: Int
    let quantized: QuantizedActivations
    /// The feed-forward activations, quantised by each thread inside the up projection while
    /// `quantized` still holds that projection's input.
    let quantizedFeedForward: QuantizedActivations
    /// Owns every buffer above.
    private let scratch: FloatScratch

    init(hp: EncoderHyperparameters, capacity: Int, threads: Int) {
        self.capacity = capacity
        let scratch = FloatScratch()
        self.scratch = scratch
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> { scratch.make(n) }
        let d = hp.embedding
        hidden = buffer(capacity * d)
        query = buffer(capacity * d)
        key = buffer(capacity * d)
        value = buffer(capacity * d)
        context = buffer(capacity * d)
        projected = buffer(capacity * d)
        feedForward = buffer(capacity * hp.feedForward)
        scoresStride = hp.contextLength + 8
        scores = buffer(threads * scoresStride)
        rowScratchLength = MatMul.scratchLength(columns: max(d, hp.feedForward), tokens: capacity)
        rowScratch = buffer(threads * rowScratchLength)
        quantized = QuantizedActivations(capacity: capacity * d)
        quantizedFeedForward = QuantizedActivations(capacity: capacity * hp.feedForward)
    }
}
