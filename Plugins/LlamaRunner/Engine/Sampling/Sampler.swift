import Foundation

/// Chooses the next token from logits: greedy, or temperature with top-k and top-p filtering and
/// a seeded generator. Its buffers are allocated once (vocabulary size), not per token.
public struct Sampler {
    public let options: SamplingOptions
    private var rng: SeededGenerator
    private var ids: [Int32]
    private var weights: [Double]

    public init(options: SamplingOptions, vocabularySize: Int) {
        self.options = options
        rng = SeededGenerator(seed: options.seed)
        ids = [Int32](repeating: 0, count: vocabularySize)
        weights = [Double](repeating: 0, count: vocabularySize)
    }

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

    public mutating func sample(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        if options.isGreedy { return Self.argmax(logits) }
        var count = ids.withUnsafeMutableBufferPointer { Self.rankCandidates(logits, topK: options.topK, into: $0) }
        // Softmax at the temperature over the candidates (sorted, so the first is the max).
        let invT = 1 / Double(options.temperature)
        let top = Double(logits[Int(ids[0])])
        var total: Double = 0
        for j in 0..<count {
            weights[j] = exp((Double(logits[Int(ids[j])]) - top) * invT)
            total += weights[j]
        }
        // Top-p: the shortest prefix whose probability reaches p.
        if options.topP < 1 {
            var cumulative: Double = 0
            for j in 0..<count {
                cumulative += weights[j] / total
                if cumulative >= Double(options.topP) {
                    count = j + 1
                    break
                }
            }
            total = weights[0..<count].reduce(0, +)
        }
        var r = rng.unit() * total
        for j in 0..<count {
            r -= weights[j]
            if r < 0 { return ids[j] }
        }
        return ids[count - 1]
    }

    /// Writes the candidate ids into `ids` best first (by logit, then lower id) and returns how
    /// many: the top k (0 = all). Quickselect, then a sort of the k only: the plain way (sorting
    /// the whole vocabulary) is `referenceCandidates`, which tests compare against.
    static func rankCandidates(_ logits: UnsafeBufferPointer<Float>, topK: Int, into ids: UnsafeMutableBufferPointer<Int32>) -> Int {
        let n = logits.count
        for i in 0..<n { ids[i] = Int32(i) }
        // A strict total order (NaN ranks last), so the selection always terminates in bounds.
        let better: (Int32, Int32) -> Bool = { a, b in
            let x = logits[Int(a)], y = logits[Int(b)]
            let kx = x.isNaN ? -Float.infinity : x, ky = y.isNaN ? -Float.infinity : y
            return kx != ky ? kx > ky : a < b
        }
        let count = topK > 0 && topK < n ? topK : n
        if count < n { selectTop(ids, count, by: better) }
        ids[0..<count].sort(by: better)
        return count
    }

    static func referenceCandidates(_ logits: [Float], topK: Int) -> [Int32] {
        let key = logits.map { $0.isNaN ? -Float.infinity : $0 }
        let all = key.indices.sorted { key[$0] != key[$1] ? key[$0] > key[$1] : $0 < $1 }.map(Int32.init)
        return topK > 0 ? Array(all.prefix(topK)) : all
    }

    /// Moves the k best elements (unordered) to the front: quickselect.
    private static func selectTop(_ a: UnsafeMutableBufferPointer<Int32>, _ k: Int, by better: (Int32, Int32) -> Bool) {
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while better(a[i], pivot) { i += 1 }
                while better(pivot, a[j]) { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k - 1 <= j { hi = j } else if k - 1 >= i { lo = i } else { return }
        }
    }
}
