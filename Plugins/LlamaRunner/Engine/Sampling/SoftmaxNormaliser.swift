import Foundation

/// The full-vocabulary softmax of a logit vector, in double precision so that a 262k-entry sum
/// keeps its precision: the largest logit and the sum of exp(logit − largest), from which any
/// token's probability follows without a second pass.
public struct SoftmaxNormaliser {
    public let largest: Float
    public let sum: Double

    public init(_ logits: UnsafeBufferPointer<Float>) {
        var largest = -Float.infinity
        for v in logits { largest = max(largest, v) }
        var sum: Double = 0
        for v in logits { sum += exp(Double(v - largest)) }
        (self.largest, self.sum) = (largest, sum)
    }

    public func probability(of logit: Float) -> Double { exp(Double(logit - largest)) / sum }

    /// At most 0: the largest logit's own term, exp(0), is in the sum.
    public func logProbability(of logit: Float) -> Double { Double(logit - largest) - log(sum) }
}
