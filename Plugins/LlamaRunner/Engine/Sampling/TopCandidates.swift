import Foundation

/// The k most likely tokens of a logit vector with their full-vocabulary softmax probabilities
/// (computed in double precision).
public struct TopCandidates {
    public struct Candidate: Sendable, Equatable {
        public let id: Int32
        public let logit: Float
        public let probability: Double
    }

    public static func of(_ logits: UnsafeBufferPointer<Float>, k: Int) -> [Candidate] {
        let softmax = SoftmaxNormaliser(logits)
        // Partial selection: keep the best k in a small sorted array.
        var best: [(Int32, Float)] = []
        best.reserveCapacity(k + 1)
        for (i, v) in logits.enumerated() where best.count < k || v > best[best.count - 1].1 {
            let at = best.firstIndex { v > $0.1 } ?? best.count
            best.insert((Int32(i), v), at: at)
            if best.count > k { best.removeLast() }
        }
        return best.map { Candidate(id: $0.0, logit: $0.1, probability: softmax.probability(of: $0.1)) }
    }
}
