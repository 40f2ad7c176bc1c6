/// Chooses the next token from logits.
public enum Sampler {
    /// The id of the largest logit (the first one on ties).
    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        var best = 0
        var bestValue = -Float.infinity
        for i in 0..<logits.count where logits[i] > bestValue {
            best = i
            bestValue = logits[i]
        }
        return Int32(best)
    }
}
